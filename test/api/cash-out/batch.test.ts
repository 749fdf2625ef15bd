/**
 * The batched Cash-Out executor (durable-objects/ledger/cash-out/cash-out-exec.ts): many Cash-Outs taken in
 * one pass are each reserved, paid once and booked exactly, with one entry each chained on the one
 * before; a partner refusing one of them ends only that one.
 */
import { describe, expect, it } from 'vitest';
import { acceptTogether, batchInputs, createCashOut, deposit, settled } from '../../support/cash-out';
import { Integrator } from '../../support/harness';
import { assertBooks } from '../../support/invariants';
import { holds, partnerTransfers } from '../../support/ledger-reads';
import { outboxEvents } from '../../support/webhooks';

async function partnerRows(ids: string[]) {
  return (await partnerTransfers(ids)).map((t) => ({
    idempotency_id: t.idempotencyId,
    outcome: t.outcome,
    requests: t.requests,
    created_at: t.createdAt,
  }));
}

async function webhookTypes(clientId: string) {
  const byId = new Map<string, string[]>();
  for (const e of await outboxEvents(clientId))
    byId.set(e.aggregateId, [...(byId.get(e.aggregateId) ?? []), e.eventType]);
  return byId;
}

describe('Cash-Outs executed in one batch', () => {
  it('accepted together, each is paid once and completed; the ledger chains every debit exactly', async () => {
    const api = await Integrator.create();
    await deposit(api, 1_000);
    const amounts = Array.from({ length: 40 }, (_, i) => (100 + i) / 100); // 1.00 … 1.39, all different
    const accepted = await Promise.all(amounts.map((amount) => createCashOut(api, { amount })));
    const done = await Promise.all(accepted.map((a) => settled(api, a.transactionId, undefined)));
    expect(done.map((d) => d.status)).toEqual(amounts.map(() => 'COMPLETED'));
    const ids = accepted.map((a) => a.transactionId);
    const partner = await partnerRows(ids);
    expect(partner).toHaveLength(40);
    expect(partner.every((p) => p.requests === 1 && p.outcome === 'SETTLED')).toBe(true);
    // Accepted together, they were sent in batches: fewer partner calls than payments.
    expect(new Set(partner.map((p) => p.created_at)).size).toBeLessThan(40);
    const books = await assertBooks(api);
    const debits = books.entries.filter((e) => e.type === 'PIX_OUT');
    expect(debits).toHaveLength(40);
    const spent = amounts.reduce((sum, a) => sum + Math.round(a * 100), 0);
    expect(books.balances.get(api.client.accounts[0]!.number)).toBe(100_000 - spent);
    // Each debit's balanceAfter follows from the one before, in posting order.
    let balance = 100_000;
    for (const e of debits) {
      balance -= e.amount;
      expect(e.balance_after).toBe(balance);
    }
    const events = await webhookTypes(api.client.clientId);
    for (const id of ids) expect(events.get(id)).toEqual(['CASHOUT_REQUESTED', 'CASHOUT_COMPLETED']);
  });

  it('one pass, one partner call: a payment the partner refuses ends only its own Cash-Out', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const inputs = batchInputs(12, 5);
    const ids = await acceptTogether(api, inputs);
    const done = await Promise.all(ids.map((id) => settled(api, id, undefined)));
    expect(done.map((d) => d.status)).toEqual(ids.map((_, i) => (i === 5 ? 'CANCELLED' : 'COMPLETED')));
    expect(done[5]).toMatchObject({ failure: { code: 'PAYEE_ACCOUNT_UNAVAILABLE' } });
    const partner = await partnerRows(ids);
    expect(partner).toHaveLength(12);
    expect(partner.every((p) => p.requests === 1)).toBe(true);
    expect(new Set(partner.map((p) => p.created_at)).size).toBe(1); // one sendPayments call
    const books = await assertBooks(api);
    const spent = inputs.reduce((sum, input, i) => sum + (i === 5 ? 0 : input.amountCents), 0);
    expect(books.balances.get(api.client.accounts[0]!.number)).toBe(10_000 - spent);
    expect(books.entries.filter((e) => e.type === 'PIX_OUT')).toHaveLength(11);
    expect(await holds(api.client.clientId)).toEqual([]);
    const events = await webhookTypes(api.client.clientId);
    for (const [i, id] of ids.entries())
      expect(events.get(id)).toEqual(['CASHOUT_REQUESTED', i === 5 ? 'CASHOUT_FAILED' : 'CASHOUT_COMPLETED']);
  });
});
