/**
 * A batch Cash-Out whose object dies: after the batch committed and before its 202 was answered,
 * and while its items are being paid (the executor's crash points, over passes of many items).
 * Whatever the point, each item exists once, is paid once at the partner, and the books equal the
 * partner's.
 */
import { describe, expect, it } from 'vitest';
import { deposit } from '../support/cash-out';
import { batchItems, batchSettled, createBatch } from '../support/cash-out-batch';
import { armCrash, crashedAt } from '../support/crash';
import { Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { cashOuts, partnerTransfers } from '../support/ledger-reads';

async function paymentsAtPartner(ids: string[]) {
  return (await partnerTransfers(ids))
    .filter((t) => t.kind === 'PAYMENT')
    .map((t) => ({ id: t.idempotencyId, requests: t.requests }));
}

describe('a batch Cash-Out whose object dies', () => {
  it('after the batch committed, before the 202: the retry with its key replays it, each item exists once', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    await armCrash(api, 'cash-out-batch.accepted');
    const items = batchItems(5);
    const key = { 'x-idempotency-key': `crash-${crypto.randomUUID()}` };
    const lost = await api.signedPost('/cash-out/batch', { items }, key).catch((error: unknown) => error);
    expect(lost instanceof Response ? lost.status : 500).toBeGreaterThanOrEqual(500);
    expect(await crashedAt(api, 'cash-out-batch.accepted')).toBeDefined();
    const retried = await createBatch(api, items, key);
    expect(retried.items.map((i) => i.externalReference)).toEqual(items.map((i) => i.externalReference));
    const rows = await cashOuts(api.client.clientId);
    expect(rows.map((r) => r.transactionId)).toEqual(retried.items.map((i) => i.transactionId));
    const done = await batchSettled(api, retried.batchId);
    expect(done.byStatus.COMPLETED).toBe(5);
    await assertBooks(api);
  });

  for (const point of ['cash-out.checked', 'cash-out.sending', 'cash-out.payment-sent'] as const) {
    it(`while its 250 items are paid, at ${point}: each item paid once, books equal the partner's`, async () => {
      const api = await Integrator.create();
      await deposit(api, 10_000);
      await armCrash(api, point);
      const accepted = await createBatch(api, batchItems(250));
      const done = await batchSettled(api, accepted.batchId, 60_000);
      expect(await crashedAt(api, point)).toBeDefined();
      expect(done.byStatus).toMatchObject({ PROCESSING: 0, COMPLETED: 250 });
      const ids = accepted.items.map((i) => i.transactionId);
      const paid = await paymentsAtPartner(ids);
      expect(paid).toHaveLength(250);
      expect(paid.every((p) => p.requests === 1)).toBe(true);
      const books = await assertBooks(api);
      expect(books.entries.filter((e) => e.type === 'PIX_OUT')).toHaveLength(250);
    });
  }
});
