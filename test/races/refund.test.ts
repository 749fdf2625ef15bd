/**
 * Refunds fired together (issue 9, races): on one Cash-In under different keys, under one key,
 * against a bank-initiated return, and on two Cash-Ins whose refunds together exceed what the
 * account has available. Each ends in exactly one devolution per Cash-In at most, never more money
 * out than in, and books that reconcile (test/support/invariants.ts).
 */
import { describe, expect, it } from 'vitest';
import { accountOf } from '../support/account';
import { createCashIn, getCashIn, payCashIn, problemCode, waitFor } from '../support/cash-in';
import { Integrator } from '../support/harness';
import { assertBooks, quiesce } from '../support/invariants';
import { partnerTransfers } from '../support/ledger-reads';

async function paid(api: Integrator, amount: number) {
  const created = await createCashIn(api, { amount });
  await payCashIn(api, created.internalCode);
  return created;
}

const refund = (api: Integrator, code: string, headers: Record<string, string> = {}) =>
  api.signedPost(`/cash-in/${code}/refund`, { reason: 'MERCHANT_ERROR' }, headers);

async function devolutionsOf(endToEndIds: string[]) {
  return (await partnerTransfers(endToEndIds))
    .filter((t) => t.kind === 'DEVOLUTION')
    .map((t) => ({ idempotency_id: t.idempotencyId, amount: t.amount, requests: t.requests }));
}

describe('refunds racing on one Cash-In', () => {
  it('ten refunds under different keys: one 202, nine REFUND_NOT_ALLOWED, one devolution', async () => {
    const api = await Integrator.create();
    const created = await paid(api, 40);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        refund(api, created.internalCode, { 'x-idempotency-key': crypto.randomUUID() }),
      ),
    );
    const accepted = responses.filter((r) => r.status === 202);
    expect(accepted).toHaveLength(1);
    for (const r of responses.filter((x) => x.status !== 202)) {
      expect(r.status).toBe(422);
      expect(await problemCode(r)).toBe('REFUND_NOT_ALLOWED');
    }
    const { endToEndId } = (await accepted[0]!.json()) as { endToEndId: string };
    await quiesce(api);
    expect((await getCashIn(api, created.internalCode)).status).toBe('REFUNDED');
    expect(await devolutionsOf([endToEndId])).toEqual([
      { idempotency_id: endToEndId, amount: 4000, requests: 1 },
    ]);
    const books = await assertBooks(api);
    expect(books.entries.map((e) => [e.type, e.amount])).toEqual([
      ['PIX_IN', 4000],
      ['PIX_REFUND_OUT', 4000],
    ]);
    // Once REFUNDED, still no second refund.
    expect(await problemCode(await refund(api, created.internalCode))).toBe('REFUND_NOT_ALLOWED');
  });

  it('ten refunds under one key: one refund; every 202 is the same answer, the rest IDEMPOTENCY_KEY_IN_PROGRESS', async () => {
    const api = await Integrator.create();
    const created = await paid(api, 25);
    const key = crypto.randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => refund(api, created.internalCode, { 'x-idempotency-key': key })),
    );
    const bodies = new Set<string>();
    for (const r of responses) {
      if (r.status === 202) bodies.add(await r.text());
      else {
        expect(r.status).toBe(409);
        expect(await problemCode(r)).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
      }
    }
    expect(bodies.size).toBe(1);
    const { endToEndId } = JSON.parse([...bodies][0]!) as { endToEndId: string };
    await quiesce(api);
    expect(await devolutionsOf([endToEndId])).toEqual([
      { idempotency_id: endToEndId, amount: 2500, requests: 1 },
    ]);
    const books = await assertBooks(api);
    expect(books.entries.filter((e) => e.type === 'PIX_REFUND_OUT')).toHaveLength(1);
  });

  it('a client refund and a bank-initiated return together: exactly one devolution, the other refused', async () => {
    for (let round = 0; round < 4; round++) {
      const api = await Integrator.create();
      const created = await paid(api, 18);
      const [mine, bank] = await Promise.all([
        refund(api, created.internalCode),
        api.post(`/sandbox/cash-in/${created.internalCode}/return`, { reason: 'FRAUD' }),
      ]);
      // Exactly one wins; the loser is refused with its own contract code.
      expect([mine.status, bank.status].filter((s) => s < 300)).toHaveLength(1);
      if (mine.status !== 202) expect(await problemCode(mine)).toBe('REFUND_NOT_ALLOWED');
      if (bank.status !== 200) expect(await problemCode(bank)).toBe('RULE_VIOLATION');
      await quiesce(api);
      const done = await getCashIn(api, created.internalCode);
      expect(done.status).toBe('REFUNDED');
      expect(done.reason).toBe(mine.status === 202 ? 'MERCHANT_ERROR' : 'FRAUD');
      const books = await assertBooks(api);
      expect(books.entries.map((e) => e.type)).toEqual(['PIX_IN', 'PIX_REFUND_OUT']);
    }
  });
});

describe('refunds racing over one balance', () => {
  it('two refunds that together exceed the available balance: exactly one is accepted', async () => {
    const api = await Integrator.create();
    const a = await paid(api, 40);
    const b = await paid(api, 30);
    // Leave 50 on the TRANSACTIONAL account: either refund fits, both do not.
    const sweep = await api.signedPost('/account/rebalance/sweep', { amount: 20 });
    expect(sweep.status).toBe(201);
    const responses = await Promise.all([refund(api, a.internalCode), refund(api, b.internalCode)]);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([202, 422]);
    const refused = responses.find((r) => r.status === 422)!;
    expect(await problemCode(refused)).toBe('RULE_VIOLATION');
    await quiesce(api);
    const [finalA, finalB] = [await getCashIn(api, a.internalCode), await getCashIn(api, b.internalCode)];
    expect([finalA.status, finalB.status].sort()).toEqual(['PAID', 'REFUNDED']);
    const books = await assertBooks(api);
    const t = accountOf(api, 'TRANSACTIONAL').number;
    const refundedAmount = finalA.status === 'REFUNDED' ? 4000 : 3000;
    expect(books.balances.get(t)).toBe(5000 - refundedAmount);
    // The one left PAID can be refunded once money comes back.
    await api.signedPost('/account/rebalance/top-up', { amount: 20 });
    const late = await refund(api, finalA.status === 'PAID' ? a.internalCode : b.internalCode);
    expect(late.status).toBe(202);
    await waitFor(
      () => getCashIn(api, finalA.status === 'PAID' ? a.internalCode : b.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    await quiesce(api);
    const after = await assertBooks(api);
    expect(after.balances.get(t)).toBe(0);
  });
});
