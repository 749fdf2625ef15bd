/**
 * The integrator journey of docs/integrating.md (Pix Automático), through real HTTP on the sandbox:
 * a subscription of R$ 29,90 a month authorized by QR, charged twice (the first charge's first
 * attempt fails, its retry pays), then cancelled by the payer; refusals of charges outside the
 * rules on the way; the books end equal to the sandbox partner's, centavo by centavo.
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { RecurringCashInCreatedBody } from '../../../src/api/recurrence/charge-recurrence';
import type { RecurrenceChargesBody } from '../../../src/api/recurrence/list-recurrence-charges';
import type { RecurrenceBody } from '../../../src/api/recurrence/shared';
import { addDays, addMonths, cycleDueDate } from '../../../src/domain/recurrence';
import { brtDate } from '../../../src/domain/time';
import { getCashIn, payCashIn } from '../../support/cash-in';
import { cashInBody, Integrator } from '../../support/harness';
import { assertBooks } from '../../support/invariants';
import { ledgerStub, sqlRows } from '../../support/ledger';
import { recurrenceBody } from '../../support/recurrence';
import { newSink, outboxEvents, waitForRequests } from '../../support/webhooks';

async function charge(api: Integrator, id: string, body: Record<string, unknown>) {
  return api.post(`/recurrences/${id}/charges`, {
    externalReference: `cobr-${crypto.randomUUID()}`,
    ...body,
  });
}

/** A month passes for this recurrence: its dates move one month earlier, as the calendar would. */
async function aMonthLater(api: Integrator, recurrenceId: string): Promise<string> {
  return runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
    const [row] = state.storage.sql
      .exec<{ start_date: string }>(
        'SELECT start_date FROM recurrences WHERE recurrence_id = ?',
        recurrenceId,
      )
      .toArray();
    const start = addMonths(row!.start_date, -1);
    state.storage.sql.exec(
      'UPDATE recurrences SET start_date = ? WHERE recurrence_id = ?',
      start,
      recurrenceId,
    );
    return start;
  });
}

describe('Pix Automático journey (docs/integrating.md)', () => {
  it('R$ 29,90 a month: QR authorization, two charges (one failed attempt, then paid), cancelled by the payer', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const today = brtDate(Date.now());
    const start = addDays(today, 5);
    const created = await api.post(
      '/recurrences',
      recurrenceBody({ startDate: start, webhookUrl: sink.url }),
    );
    expect(created.status).toBe(201);
    const rec = (await created.json()) as RecurrenceBody;
    expect(rec.authorization.copyAndPaste).toMatch(/^000201/);

    // Not approved yet: nothing is charged.
    const early = await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: start });
    expect(early.status).toBe(422);
    expect(((await early.json()) as { detail: string }).detail).toMatch(/Only an APPROVED recurrence/);

    expect((await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {})).status).toBe(200);

    // Outside the rules: another amount, a date that is no cycle's, a cycle outside its window.
    for (const [body, detail] of [
      [{ amount: 30, dueDate: start }, /exactly 2990 centavos/],
      [{ amount: 29.9, dueDate: addDays(start, 1) }, /is not a due date/],
      [{ amount: 29.9, dueDate: cycleDueDate(start, 'MONTHLY', 1) }, /is sent from/],
    ] as const) {
      const res = await charge(api, rec.recurrenceId, body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
    }
    expect((await sqlRows(api.client.clientId, 'SELECT * FROM cash_ins')).length).toBe(0);

    // First cycle: charged, its first attempt fails, the retry pays.
    const first = await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: start });
    expect(first.status).toBe(201);
    const one = (await first.json()) as RecurringCashInCreatedBody;
    expect(one).toMatchObject({
      status: 'AWAITING_PAYMENT',
      amount: 29.9,
      payer: { document: '12345678909' },
      recurrence: {
        recurrenceId: rec.recurrenceId,
        cycle: 0,
        dueDate: start,
        failedAttempts: 0,
        attemptsLeft: 5,
      },
    });
    const twice = await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: start });
    expect(twice.status).toBe(422);
    expect(((await twice.json()) as { detail: string }).detail).toMatch(/already charged/);

    const failed = await api.post(`/sandbox/cash-in/${one.transactionId}/fail-attempt`, {});
    expect(failed.status).toBe(200);
    expect(await failed.json()).toMatchObject({
      status: 'AWAITING_PAYMENT',
      recurrence: { failedAttempts: 1, attemptsLeft: 4 },
    });
    expect((await payCashIn(api, one.internalCode)).status).toBe('PAID');

    // A month later: the second cycle, paid at its first attempt.
    const later = await aMonthLater(api, rec.recurrenceId);
    const due2 = cycleDueDate(later, 'MONTHLY', 1);
    const second = await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: due2 });
    expect(second.status, await second.clone().text()).toBe(201);
    const two = (await second.json()) as RecurringCashInCreatedBody;
    expect(two.recurrence).toMatchObject({ cycle: 1, dueDate: due2 });
    expect((await payCashIn(api, two.internalCode)).status).toBe('PAID');
    expect((await getCashIn(api, two.externalReference)).transactionId).toBe(two.transactionId);

    // The payer cancels in their bank: no further cycle is charged.
    const cancelled = await api.post(`/sandbox/recurrences/${rec.recurrenceId}/cancel`, {});
    expect(await cancelled.json()).toMatchObject({ status: 'CANCELLED', cancelledBy: 'PAYER' });
    const after = await charge(api, rec.recurrenceId, {
      amount: 29.9,
      dueDate: cycleDueDate(later, 'MONTHLY', 2),
    });
    expect(after.status).toBe(422);

    const events = (await waitForRequests(sink, 7)).map((r) => JSON.parse(r.body).eventType as string);
    expect(events.filter((e) => e.startsWith('CASHIN')).sort()).toEqual([
      'CASHIN_PAID',
      'CASHIN_PAID',
      'CASHIN_REQUESTED',
      'CASHIN_REQUESTED',
    ]);
    expect(events.filter((e) => e.startsWith('RECURR'))).toEqual([
      'RECURRENCE_APPROVED',
      'RECURRING_CHARGE_ATTEMPT_FAILED',
      'RECURRENCE_CANCELLED',
    ]);
    expect((await outboxEvents(api.client.clientId, one.transactionId)).map((e) => e.eventType)).toEqual([
      'CASHIN_REQUESTED',
      'CASHIN_PAID',
    ]);
    const charges = (await (
      await api.get(`/recurrences/${rec.recurrenceId}/charges`)
    ).json()) as RecurrenceChargesBody;
    expect(charges.items.map((c) => [c.transactionId, c.cycle, c.status, c.failedAttempts])).toEqual([
      [one.transactionId, 0, 'PAID', 1],
      [two.transactionId, 1, 'PAID', 0],
    ]);
    const books = await assertBooks(api);
    expect(books.entries.filter((e) => e.type === 'PIX_IN').map((e) => e.amount)).toEqual([2990, 2990]);
  });

  it('a charge whose every attempt fails ends EXPIRED after the last one the recurrence allows', async () => {
    const api = await Integrator.create();
    const start = addDays(brtDate(Date.now()), 3);
    const rec = (await (
      await api.post('/recurrences', recurrenceBody({ startDate: start, retryPolicy: 'NONE' }))
    ).json()) as RecurrenceBody;
    await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {});
    const one = (await (
      await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: start })
    ).json()) as RecurringCashInCreatedBody;
    expect(one.recurrence.attemptsLeft).toBe(2);
    expect(
      await (await api.post(`/sandbox/cash-in/${one.transactionId}/fail-attempt`, {})).json(),
    ).toMatchObject({
      status: 'AWAITING_PAYMENT',
      recurrence: { attemptsLeft: 1 },
    });
    expect(
      await (await api.post(`/sandbox/cash-in/${one.transactionId}/fail-attempt`, {})).json(),
    ).toMatchObject({
      status: 'EXPIRED',
      recurrence: { failedAttempts: 2, attemptsLeft: 0 },
    });
    expect((await api.post(`/sandbox/cash-in/${one.transactionId}/fail-attempt`, {})).status).toBe(422);
    // The cycle stays charged: a second charge of it is refused.
    const two = (await (
      await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: cycleDueDate(start, 'MONTHLY', 0) })
    ).json()) as {
      detail: string;
    };
    expect(two.detail).toMatch(/already charged/);
    await assertBooks(api);
  });

  it('the payer cancels a charge until the day before it is due; an ordinary Cash-In is no recurring charge', async () => {
    const api = await Integrator.create();
    const start = addDays(brtDate(Date.now()), 4);
    const rec = (await (
      await api.post('/recurrences', recurrenceBody({ startDate: start }))
    ).json()) as RecurrenceBody;
    await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {});
    const one = (await (
      await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: start })
    ).json()) as RecurringCashInCreatedBody;
    const cancelled = await api.post(`/sandbox/cash-in/${one.transactionId}/payer-cancel`, {});
    expect(await cancelled.json()).toMatchObject({ status: 'CANCELLED', recurrence: { cycle: 0 } });
    const plain = await api.post('/cash-in', cashInBody());
    const ordinary = (await plain.json()) as { transactionId: string };
    for (const verb of ['fail-attempt', 'payer-cancel'])
      expect((await api.post(`/sandbox/cash-in/${ordinary.transactionId}/${verb}`, {})).status).toBe(404);
    await assertBooks(api);
  });
});
