/**
 * The largest batch the contract allows: 1,000 Cash-Outs accepted in one call all complete, each
 * paid once, and the client's books equal the partner's centavo by centavo.
 */
import { describe, expect, it } from 'vitest';
import { deposit } from '../../support/cash-out';
import { batchItems, batchSettled, createBatch } from '../../support/cash-out-batch';
import { Integrator } from '../../support/harness';
import { assertBooks, total } from '../../support/invariants';
import { partnerTransfers } from '../../support/ledger-reads';

describe('a batch of 1,000 Cash-Outs', () => {
  it('completes every item once; ledger = the partner books', async () => {
    const api = await Integrator.create();
    await deposit(api, 100_000);
    const items = batchItems(1_000, (i) => ({ amount: (100 + (i % 900)) / 100 }));
    const accepted = await createBatch(api, items);
    expect(accepted.count).toBe(1_000);
    const expectedCents = items.reduce((sum, item) => sum + Math.round((item.amount as number) * 100), 0);
    expect(Math.round(accepted.amount * 100)).toBe(expectedCents);
    const done = await batchSettled(api, accepted.batchId, 120_000);
    expect(done.byStatus).toEqual({ PROCESSING: 0, PENDING: 0, COMPLETED: 1_000, CANCELLED: 0, REFUNDED: 0 });
    const payments = (await partnerTransfers(accepted.items.map((i) => i.transactionId))).filter(
      (t) => t.kind === 'PAYMENT',
    );
    const summed = {
      n: payments.length,
      cents: payments.reduce((s, t) => s + t.amount, 0),
      most: Math.max(...payments.map((t) => t.requests)),
    };
    expect(summed).toEqual({ n: 1_000, cents: expectedCents, most: 1 });
    const books = await assertBooks(api);
    expect(total(books, 'PIX_OUT')).toBe(expectedCents);
  }, 180_000);
});
