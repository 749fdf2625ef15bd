/**
 * A sandbox partner that does not answer in time, answers late or is asked twice (issue 9, faults),
 * through the operator's fault injection (POST /admin/partners/{ispb}/faults, latencyMs). The
 * gateway waits at most PARTNER_TIMEOUT_MS (src/partners/timeout.ts), then treats the call as
 * unanswered: it asks the partner before sending again under the same idempotency id, so however
 * often a payment or devolution is requested the partner makes it once, and the ledger debits it
 * once. The faults are global to the partner, so each test clears them as soon as it can.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PARTNER_TIMEOUT_MS } from '../../src/partners/timeout';
import { createCashIn, getCashIn, payCashIn, problemCode, waitFor } from '../support/cash-in';
import { createCashOut, deposit, getCashOut, settled } from '../support/cash-out';
import { admin, cashInBody, Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { cashOutRow, partnerTransfers } from '../support/ledger-reads';

const BETA = '42273459';

async function slowPartner(operation: 'CASH_IN' | 'CASH_OUT', latencyMs: number) {
  const res = await admin(`/admin/partners/${BETA}/faults`, 'POST', { operation, latencyMs, minutes: 1 });
  expect(res.status).toBe(201);
}

const clearFaults = async () =>
  expect((await admin(`/admin/partners/${BETA}/faults`, 'DELETE')).status).toBe(204);

async function partnerRow(idempotencyId: string) {
  const results = (await partnerTransfers([idempotencyId])).map(
    ({ kind, amount, outcome, requests, settlesAt }) => ({
      kind,
      amount,
      outcome,
      requests,
      settles_at: settlesAt,
    }),
  );
  expect(results.length).toBeLessThanOrEqual(1);
  return results[0];
}

/** The Cash-Out's next step is scheduled in the future: the call it was waiting on has returned. */
async function stepWaiting(clientId: string, transactionId: string) {
  const row = await cashOutRow(clientId, transactionId);
  return { stage: row?.stage, later: row?.nextAt != null && row.nextAt > Date.now() };
}

describe('a sandbox partner that is slow, late or asked twice', () => {
  afterEach(clearFaults);

  it('does not answer a payment in time: the gateway stops waiting, asks, sends again, and the partner pays once', async () => {
    const api = await Integrator.create({ partners: [BETA] });
    await deposit(api, 100);
    // Longer than the time-out plus the retry delay: the first request lands after the second.
    await slowPartner('CASH_OUT', 2 * PARTNER_TIMEOUT_MS + 2_000);
    const accepted = await createCashOut(api, { amount: 40 });
    const waiting = await waitFor(
      () => stepWaiting(api.client.clientId, accepted.transactionId),
      (s) => s.later,
      2 * PARTNER_TIMEOUT_MS,
    );
    // Timed out: still SENDING (nobody knows whether the partner got it), next step scheduled, and
    // the partner has not recorded anything yet.
    expect(waiting).toEqual({ stage: 'SENDING', later: true });
    expect((await getCashOut(api, accepted.transactionId)).status).toBe('PROCESSING');
    expect(await partnerRow(accepted.transactionId)).toBeUndefined();
    await clearFaults();
    const done = await settled(api, accepted.transactionId, ['COMPLETED', 'CANCELLED']);
    expect(done.status).toBe('COMPLETED');
    // The first, late request reaches the partner after the second one: same payment, asked twice.
    const row = await waitFor(
      () => partnerRow(accepted.transactionId),
      (r) => (r?.requests ?? 0) >= 2,
    );
    expect(row).toMatchObject({ kind: 'PAYMENT', amount: 4000, outcome: 'SETTLED', requests: 2 });
    const books = await assertBooks(api);
    expect(books.entries.map((e) => [e.type, e.amount])).toEqual([
      ['TRANSFER_IN', 10_000],
      ['PIX_OUT', 4000],
    ]);
    expect((await getCashOut(api, accepted.transactionId)).endToEndId).toBe(done.endToEndId);
  });

  it('answers a payment late: PROCESSING while the partner has it pending, then COMPLETED, requested once', async () => {
    const api = await Integrator.create({ partners: [BETA] });
    await deposit(api, 100);
    await slowPartner('CASH_OUT', PARTNER_TIMEOUT_MS / 2);
    const accepted = await createCashOut(api, { amount: 15 });
    // Accepted within the time-out, but settled only seconds later.
    const pending = await waitFor(
      () => partnerRow(accepted.transactionId),
      (r) => r !== undefined,
      PARTNER_TIMEOUT_MS * 2,
    );
    await clearFaults();
    expect(pending!.settles_at).toBeGreaterThan(Date.now());
    expect((await getCashOut(api, accepted.transactionId)).status).toBe('PROCESSING');
    const done = await settled(api, accepted.transactionId, ['COMPLETED', 'CANCELLED']);
    expect(done.status).toBe('COMPLETED');
    expect(await partnerRow(accepted.transactionId)).toMatchObject({ outcome: 'SETTLED', requests: 1 });
    await assertBooks(api);
  });

  it('does not answer a charge registration or a devolution in time: no orphan Cash-In, one devolution', async () => {
    const api = await Integrator.create({ partners: [BETA] });
    const created = await createCashIn(api, { amount: 33 });
    await payCashIn(api, created.internalCode);
    await slowPartner('CASH_IN', PARTNER_TIMEOUT_MS + 1_000);
    // A charge the partner did not confirm in time is not created; nothing is stored.
    const body = cashInBody({ includeQrCodeImage: false });
    const refused = await api.post('/cash-in', body);
    expect(refused.status).toBe(422);
    expect(await problemCode(refused)).toBe('RULE_VIOLATION');
    // The devolution is accepted (it may have reached the partner) and followed up by the poll.
    const refund = await api.signedPost(`/cash-in/${created.internalCode}/refund`, { reason: 'FRAUD' });
    expect(refund.status).toBe(202);
    await clearFaults();
    const retried = await api.post('/cash-in', body);
    expect(retried.status).toBe(201);
    const { endToEndId } = (await refund.json()) as { endToEndId: string };
    const done = await waitFor(
      () => getCashIn(api, created.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    expect(done.endToEndId).toBe(endToEndId);
    // The request that timed out lands late at the partner; the poll reads that devolution there
    // (and may send it again: the same id, so still one devolution).
    const row = await partnerRow(endToEndId);
    expect(row).toMatchObject({ kind: 'DEVOLUTION', amount: 3300, outcome: 'SETTLED' });
    expect(row!.requests).toBeGreaterThanOrEqual(1);
    const books = await assertBooks(api);
    expect(books.cashIns).toHaveLength(2);
    expect(books.entries.map((e) => [e.type, e.amount])).toEqual([
      ['PIX_IN', 3300],
      ['PIX_REFUND_OUT', 3300],
    ]);
  });
});
