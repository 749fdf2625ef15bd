import { describe, expect, it } from 'vitest';
import type { RecurrenceBody } from '../../../src/api/recurrence/shared';
import { addDays, cycleDueDate } from '../../../src/domain/recurrence';
import { brtDate } from '../../../src/domain/time';
import { createCashIn, payCashIn, waitFor } from '../../support/cash-in';
import { createCashOut, deposit, magicKey, settled } from '../../support/cash-out';
import { batchItems, batchSettled, createBatch } from '../../support/cash-out-batch';
import { Integrator } from '../../support/harness';
import { outboxRows } from '../../support/ledger-reads';
import { recordObservations } from '../../support/observations';
import { recurrenceBody } from '../../support/recurrence';

describe('health observations (decisions §7)', () => {
  it('every Cash-In and Cash-Out outcome becomes one observation, handed to the health queue', async () => {
    const api = await Integrator.create();
    const sent = await recordObservations(api.client.clientId);
    const transactional = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    const paid = await createCashIn(api);
    await payCashIn(api, paid.internalCode, { payer: { bankData: { ispb: '00360305' } } });
    const expired = await createCashIn(api);
    await api.post(`/sandbox/cash-in/${expired.internalCode}/expire`, {});
    await api.post(`/sandbox/cash-in/${paid.internalCode}/return`, { reason: 'FRAUD' });
    await deposit(api, 50);
    const ok = await createCashOut(api, { amount: 5 });
    const bad = await createCashOut(api, {
      amount: 6,
      payee: { name: 'A', document: '12345678909', destination: magicKey('PAYEE_BANK_REJECTED') },
    });
    await settled(api, ok.transactionId);
    await settled(api, bad.transactionId);
    // Handed to the queue in the order they happened, and gone from the outbox once taken.
    const all: any[] = await waitFor(
      async () => [...sent],
      (list) => list.length >= 9,
    );
    await waitFor(
      () => outboxRows(api.client.clientId, 'health'),
      (rows) => rows.length === 0,
    );
    const summary = all.map((o) => `${o.operation}:${o.event}${o.failureCode ? `:${o.failureCode}` : ''}`);
    expect(summary.slice(0, 5)).toEqual([
      'CASH_IN:CREATED',
      'CASH_IN:SETTLED',
      'CASH_IN:CREATED',
      'CASH_IN:EXPIRED',
      'CASH_IN:RETURNED',
    ]);
    // The two Cash-Outs settle in whichever order the partner answers.
    expect(summary.slice(5).sort()).toEqual([
      'CASH_OUT:CREATED',
      'CASH_OUT:CREATED',
      'CASH_OUT:FAILED:PAYEE_BANK_REJECTED',
      'CASH_OUT:SETTLED',
    ]);
    for (const o of all) {
      expect(o.clientId).toBe(api.client.clientId);
      expect(o.partnerIspb).toBe(transactional.bank.ispb);
      expect(new Date(o.at).toISOString()).toBe(o.at);
    }
    expect(all[1].institutionIspb).toBe('00360305');
    expect(all[1].latencyMs).toBeGreaterThanOrEqual(0);
    expect(all.find((o) => o.operation === 'CASH_OUT' && o.event === 'SETTLED').institutionIspb).toMatch(
      /^\d{8}$/,
    );
  });

  it('a Pix Automático charge is observed like any Cash-In: its partner, CASH_IN, and no calendar wait as latency', async () => {
    const api = await Integrator.create();
    const sent = await recordObservations(api.client.clientId);
    const transactional = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    const start = addDays(brtDate(Date.now()), 4);
    const rec = (await (
      await api.post('/recurrences', recurrenceBody({ startDate: start, retryPolicy: 'NONE' }))
    ).json()) as RecurrenceBody;
    await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {});
    const charge = async (dueDate: string, asOf: string) =>
      (await (
        await api.post(`/sandbox/recurrences/${rec.recurrenceId}/charges`, {
          amount: 29.9,
          dueDate,
          externalReference: `cobr-${crypto.randomUUID()}`,
          asOf,
        })
      ).json()) as { transactionId: string; internalCode: string };
    // Paid after a failed attempt; the next cycle fails both of its attempts and ends EXPIRED.
    const paid = await charge(start, brtDate(Date.now()));
    await api.post(`/sandbox/cash-in/${paid.transactionId}/fail-attempt`, {});
    await payCashIn(api, paid.internalCode, { payer: { bankData: { ispb: '00360305' } } });
    const due2 = cycleDueDate(start, 'MONTHLY', 1);
    const lapsed = await charge(due2, addDays(due2, -4));
    for (let i = 0; i < 2; i++) await api.post(`/sandbox/cash-in/${lapsed.transactionId}/fail-attempt`, {});
    const all: any[] = await waitFor(
      async () => [...sent],
      (list) => list.length >= 4,
    );
    await waitFor(
      () => outboxRows(api.client.clientId, 'health'),
      (rows) => rows.length === 0,
    );
    // An attempt the payer's bank fails is the payer's matter; the charge's outcome is observed once.
    expect(all.map((o) => `${o.operation}:${o.event}`)).toEqual([
      'CASH_IN:CREATED',
      'CASH_IN:SETTLED',
      'CASH_IN:CREATED',
      'CASH_IN:EXPIRED',
    ]);
    for (const o of all) expect(o.partnerIspb).toBe(transactional.bank.ispb);
    expect(all[1].institutionIspb).toBe('00360305');
    // Created days before its due date: that wait is the calendar's, not a slow network's.
    expect(all[1]).not.toHaveProperty('latencyMs');
  });

  it("a batch's items each give their own observations, with distinct ids", async () => {
    const api = await Integrator.create();
    const sent = await recordObservations(api.client.clientId);
    await deposit(api, 50);
    const accepted = await createBatch(api, batchItems(3));
    await batchSettled(api, accepted.batchId);
    const all: any[] = await waitFor(
      async () => [...sent],
      (list) => list.length >= 6,
    );
    await waitFor(
      () => outboxRows(api.client.clientId, 'health'),
      (rows) => rows.length === 0,
    );
    expect(all.map((o) => `${o.operation}:${o.event}`).sort()).toEqual([
      ...Array(3).fill('CASH_OUT:CREATED'),
      ...Array(3).fill('CASH_OUT:SETTLED'),
    ]);
    expect(new Set(all.map((o) => o.id)).size).toBe(6);
    for (const o of all) expect(o.clientId).toBe(api.client.clientId);
  });
});
