/**
 * A Cash-In's object dies between every two steps of its life — charge registered but not stored,
 * refund held but not sent, devolution sent but not answered, devolution outcome read but not
 * recorded — and recovers through the client's retry, the runtime's retry of a failed alarm or the
 * cron sweep. After recovery: one Cash-In per request, one devolution at the partner, one
 * PIX_REFUND_OUT, the hold gone, one event per state change. (Eviction right after payment: see
 * test/api/cash-in/happy-lookup.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { createCashIn, getCashIn, payCashIn, waitFor } from '../support/cash-in';
import { armCrash, crashedAt, cronSweep, waitForCrash } from '../support/crash';
import { admin, cashInBody, Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { cashInRow, cashIns, partnerTransfer, partnerTransfers } from '../support/ledger-reads';

async function devolutions(transactionId: string, clientId: string) {
  const row = await cashInRow(clientId, transactionId);
  return (await partnerTransfers([row?.refundEndToEndId ?? ''])).map(({ kind, amount, requests }) => ({
    kind,
    amount,
    requests,
  }));
}

const refunded = (api: Integrator, id: string) =>
  waitFor(
    () => getCashIn(api, id),
    (c) => c.status === 'REFUNDED',
  );

async function paidCashIn(api: Integrator, amount = 40) {
  const created = await createCashIn(api, { amount });
  await payCashIn(api, created.internalCode);
  return created;
}

describe('Cash-In creation interrupted', () => {
  it('after the partner registered the charge: nothing is stored and the retry with the same key creates it once', async () => {
    const api = await Integrator.create();
    await armCrash(api, 'cash-in.charge-registered');
    const body = cashInBody({ includeQrCodeImage: false });
    const key = crypto.randomUUID();
    const first = await api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(first.status).toBe(500);
    expect(await crashedAt(api, 'cash-in.charge-registered')).toBeDefined();
    expect(await cashIns(api.client.clientId)).toEqual([]);
    // The key and the externalReference died with the request: the retry is processed anew.
    const retry = await api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const replay = await api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const books = await assertBooks(api);
    expect(books.cashIns).toHaveLength(1);
  });
});

describe('refund interrupted', () => {
  it('after the hold, before the devolution was sent: the retry replays the 202 and the cron sweep sends it once', async () => {
    const api = await Integrator.create();
    const created = await paidCashIn(api);
    await armCrash(api, 'refund.held');
    const key = crypto.randomUUID();
    const path = `/cash-in/${created.internalCode}/refund`;
    const first = await api.signedPost(path, { reason: 'FRAUD' }, { 'x-idempotency-key': key });
    expect(first.status).toBe(500);
    expect(await crashedAt(api, 'refund.held')).toBeDefined();
    // Nothing reached the partner; the money is held and the refund is PROCESSING.
    expect(await devolutions(created.transactionId, api.client.clientId)).toEqual([]);
    await assertBooks(api, { settled: false });
    const retry = await api.signedPost(path, { reason: 'FRAUD' }, { 'x-idempotency-key': key });
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // Without the key a second refund is refused: the first one is in progress.
    const other = await api.signedPost(path, { reason: 'FRAUD' });
    expect(other.status).toBe(422);
    await cronSweep(api);
    const done = await refunded(api, created.internalCode);
    expect(done.status).toBe('REFUNDED');
    expect(done.endToEndId).toBe(((await retry.json()) as { endToEndId: string }).endToEndId);
    expect(await devolutions(created.transactionId, api.client.clientId)).toEqual([
      { kind: 'DEVOLUTION', amount: 4000, requests: 1 },
    ]);
    const books = await assertBooks(api);
    expect(books.entries.map((e) => [e.type, e.balance_after])).toEqual([
      ['PIX_IN', 4000],
      ['PIX_REFUND_OUT', 0],
    ]);
  });

  it('after the partner accepted the devolution, before the 202: settles once, never sent twice', async () => {
    const api = await Integrator.create();
    const created = await paidCashIn(api);
    await armCrash(api, 'refund.sent');
    const res = await api.signedPost(`/cash-in/${created.internalCode}/refund`, {
      reason: 'CUSTOMER_REQUEST',
    });
    expect(res.status).toBe(500);
    expect(await crashedAt(api, 'refund.sent')).toBeDefined();
    await cronSweep(api);
    const done = await refunded(api, created.internalCode);
    expect(done).toMatchObject({ status: 'REFUNDED', reason: 'CUSTOMER_REQUEST' });
    expect(await devolutions(created.transactionId, api.client.clientId)).toEqual([
      { kind: 'DEVOLUTION', amount: 4000, requests: 1 },
    ]);
    await assertBooks(api);
  });

  it('after the poll read the devolution outcome, twice, the second time settled: the retried alarm settles it once', async () => {
    const api = await Integrator.create();
    const created = await paidCashIn(api);
    await armCrash(api, 'refund.status-read');
    const res = await api.signedPost(`/cash-in/${created.internalCode}/refund`, { reason: 'FRAUD' });
    expect(res.status).toBe(202);
    // First death on the first poll (the devolution usually still pending); armed again at once,
    // the object dies once more on the retried poll, which finds it settled and has not recorded it.
    const first = await waitForCrash(api, 'refund.status-read');
    await armCrash(api, 'refund.status-read');
    const second = await waitForCrash(api, 'refund.status-read', first);
    const done = await refunded(api, created.internalCode);
    expect(done.status).toBe('REFUNDED');
    const [devolution] = await devolutions(created.transactionId, api.client.clientId);
    expect(devolution).toEqual({ kind: 'DEVOLUTION', amount: 4000, requests: 1 });
    const { settlesAt } = (await partnerTransfer(done.endToEndId!))!;
    expect(second).toBeGreaterThanOrEqual(settlesAt);
    const books = await assertBooks(api);
    expect(books.entries.filter((e) => e.type === 'PIX_REFUND_OUT')).toHaveLength(1);
  });
});

describe('automatic refund of a blocked payer (decisions §4)', () => {
  async function blockedClient() {
    const api = await Integrator.create();
    const res = await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', {
      blockedPayerDocuments: ['11122233396'],
    });
    expect(res.status).toBe(200);
    return api;
  }

  it('is never separated from the payment: a crash while the devolution is read still ends REFUNDED once', async () => {
    const api = await blockedClient();
    const created = await createCashIn(api, { amount: 12 });
    await armCrash(api, 'refund.status-read');
    await payCashIn(api, created.internalCode, { payer: { document: '11122233396' } });
    const done = await refunded(api, created.internalCode);
    expect(await crashedAt(api, 'refund.status-read')).toBeDefined();
    expect(done).toMatchObject({ status: 'REFUNDED', reason: 'PAYER_NOT_ALLOWED' });
    expect(await devolutions(created.transactionId, api.client.clientId)).toEqual([
      { kind: 'DEVOLUTION', amount: 1200, requests: 1 },
    ]);
    await assertBooks(api);
  });

  it('happens also when the payment endToEndId arrives after the confirmation', async () => {
    const api = await blockedClient();
    const created = await createCashIn(api, { amount: 12 });
    const paid = await payCashIn(api, created.internalCode, {
      payer: { document: '11122233396' },
      deferEndToEndId: true,
    });
    expect(paid.status).toBe('PAID');
    // Held from the moment it was paid: the money cannot be swept away before it goes back.
    const sweep = await api.signedPost('/account/rebalance/sweep', { amount: 12 });
    expect(sweep.status).toBe(422);
    const done = await refunded(api, created.internalCode);
    expect(done).toMatchObject({ status: 'REFUNDED', reason: 'PAYER_NOT_ALLOWED' });
    expect(done.originalEndToEndId).toMatch(/^E/);
    expect(await devolutions(created.transactionId, api.client.clientId)).toEqual([
      { kind: 'DEVOLUTION', amount: 1200, requests: 1 },
    ]);
    await assertBooks(api);
  });
});
