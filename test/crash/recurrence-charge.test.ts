/**
 * A recurring charge's object dies after the partner registered the charge and before anything was
 * stored: no Cash-In and no cycle link are left, and the client's retry under the same key charges
 * the cycle exactly once (one Cash-In, one link, one charge at the sandbox partner's books); a
 * second charge of the cycle is refused. The same on a real partner offering Pix Automático (the
 * fake API Pix PSP's `PUT /cobr`): after the crash, and after the PSP's answer to the PUT is lost,
 * the PSP holds exactly one `cobr` of the cycle and we hold one Cash-In. Books checked at the end,
 * against the PSP's centavo by centavo on the real partner.
 */
import { describe, expect, it } from 'vitest';
import type { RecurrenceBody } from '../../src/api/recurrence/shared';
import { COUNTER_CODE } from '../../src/domain/internal-code';
import { addDays } from '../../src/domain/recurrence';
import { brtDate } from '../../src/domain/time';
import { payCashIn } from '../support/cash-in';
import { armCrash, crashedAt } from '../support/crash';
import { Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { cashIns, cycleCodesKept, recurrenceCharges } from '../support/ledger-reads';
import { onboardRec, recPsp, recurrenceCallback } from '../support/partner-psp';
import { recurrenceBody } from '../support/recurrence';

describe('recurring charge interrupted', () => {
  it('after the partner registered it: nothing stored; the retry charges the cycle once', async () => {
    const api = await Integrator.create();
    const start = addDays(brtDate(Date.now()), 5);
    const rec = (await (
      await api.post('/recurrences', recurrenceBody({ startDate: start }))
    ).json()) as RecurrenceBody;
    expect((await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {})).status).toBe(200);
    const body = { amount: 29.9, dueDate: start, externalReference: `cobr-${crypto.randomUUID()}` };
    const key = crypto.randomUUID();
    const path = `/recurrences/${rec.recurrenceId}/charges`;

    await armCrash(api, 'cash-in.charge-registered');
    const first = await api.post(path, body, { 'x-idempotency-key': key });
    expect(first.status).toBe(500);
    expect(await crashedAt(api, 'cash-in.charge-registered')).toBeDefined();
    expect(await cashIns(api.client.clientId)).toEqual([]);
    expect(await recurrenceCharges(api.client.clientId)).toEqual([]);

    const retry = await api.post(path, body, { 'x-idempotency-key': key });
    expect(retry.status).toBe(201);
    const created = (await retry.json()) as {
      transactionId: string;
      internalCode: string;
      recurrence: { cycle: number };
    };
    expect(created.recurrence.cycle).toBe(0);
    const replay = await api.post(path, body, { 'x-idempotency-key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(created);
    const other = await api.post(path, { ...body, externalReference: `cobr-${crypto.randomUUID()}` });
    expect(other.status).toBe(422);

    const links = await recurrenceCharges(api.client.clientId);
    expect(links.map((l) => l.transactionId)).toEqual([created.transactionId]);
    await payCashIn(api, created.internalCode);
    const books = await assertBooks(api);
    expect(books.cashIns).toHaveLength(1);
    expect(books.entries.filter((e) => e.type === 'PIX_IN').map((e) => e.amount)).toEqual([2990]);
  });

  it('on a real partner: after the crash and after a lost PUT /cobr answer, one cobr at the PSP and one Cash-In', async () => {
    const api = await onboardRec();
    const start = addDays(brtDate(Date.now()), 5);
    const created = await api.post('/recurrences', recurrenceBody({ startDate: start }));
    expect(created.status, await created.clone().text()).toBe(201);
    const rec = (await created.json()) as RecurrenceBody;
    await recPsp('rec-approve', { idRec: rec.recurrenceId });
    expect(await recurrenceCallback('rec', rec.recurrenceId)).toEqual(['recorded']);
    const body = { amount: 29.9, dueDate: start, externalReference: `cobr-${crypto.randomUUID()}` };
    const key = crypto.randomUUID();
    const path = `/recurrences/${rec.recurrenceId}/charges`;

    await armCrash(api, 'cash-in.charge-registered');
    const first = await api.post(path, body, { 'x-idempotency-key': key });
    expect(first.status).toBe(500);
    expect(await crashedAt(api, 'cash-in.charge-registered')).toBeDefined();
    expect(await cashIns(api.client.clientId)).toEqual([]);
    const sent = (await recPsp(`cobrs-of/${rec.recurrenceId}`)) as { txid: string }[];
    expect(sent).toHaveLength(1);
    // The cycle's code, taken from the counter before the PUT, is kept across the crash.
    expect(await cycleCodesKept(api.client.clientId)).toHaveLength(1);
    expect(sent[0]?.txid.slice(22, 29)).toMatch(COUNTER_CODE);

    // The retry's PUT /cobr is acted on at the PSP and its answer lost: sent again under the same txid.
    await recPsp('lose-next', { method: 'PUT', match: '/cobr/' });
    const retry = await api.post(path, body, { 'x-idempotency-key': key });
    expect(retry.status, await retry.clone().text()).toBe(201);
    const charge = (await retry.json()) as { transactionId: string; recurrence: { cycle: number } };
    expect(charge.recurrence.cycle).toBe(0);
    expect(charge.transactionId).toBe(sent[0]?.txid);
    expect(await cycleCodesKept(api.client.clientId)).toEqual([]);
    expect(
      await api.post(path, { ...body, externalReference: `cobr-${crypto.randomUUID()}` }),
    ).toHaveProperty('status', 422);
    const atPsp = (await recPsp(`cobrs-of/${rec.recurrenceId}`)) as { txid: string; status: string }[];
    expect(atPsp.map((c) => [c.txid, c.status])).toEqual([[charge.transactionId, 'ATIVA']]);
    expect((await cashIns(api.client.clientId)).map((c) => c.transactionId)).toEqual([charge.transactionId]);

    // The payer's bank pays it: booked once, our books the PSP's.
    await recPsp('cobr-pay', { txid: charge.transactionId });
    expect(await recurrenceCallback('cobr', charge.transactionId)).toEqual(['paid', 'already-recorded']);
    const paid = (await recPsp(`cobr/${charge.transactionId}`)) as { pix: { endToEndId: string }[] };
    const pix = (await recPsp(`pix/${paid.pix[0]?.endToEndId}`)) as { valor: string; txid: string };
    expect(pix.txid).toBe(charge.transactionId);
    const books = await assertBooks(api);
    expect(books.cashIns.map((c) => [c.transaction_id, c.status, c.end_to_end_id])).toEqual([
      [charge.transactionId, 'PAID', paid.pix[0]?.endToEndId],
    ]);
    expect(books.entries.filter((e) => e.type === 'PIX_IN').map((e) => e.amount)).toEqual([
      Math.round(Number(pix.valor) * 100),
    ]);
    expect((await recPsp('invalid')).invalid).toEqual([]);
  });
});
