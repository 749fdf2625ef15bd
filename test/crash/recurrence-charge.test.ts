/**
 * A recurring charge's object dies after the partner registered the charge and before anything was
 * stored: no Cash-In and no cycle link are left, and the client's retry under the same key charges
 * the cycle exactly once (one Cash-In, one link, one charge at the sandbox partner's books); a
 * second charge of the cycle is refused. Books checked at the end.
 */
import { describe, expect, it } from 'vitest';
import type { RecurrenceBody } from '../../src/api/recurrence/shared';
import { addDays } from '../../src/domain/recurrence';
import { brtDate } from '../../src/domain/time';
import { payCashIn } from '../support/cash-in';
import { armCrash, crashedAt } from '../support/crash';
import { Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { cashIns, recurrenceCharges } from '../support/ledger-reads';
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
});
