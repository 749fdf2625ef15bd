/**
 * Money movements over one balance fired together (issue 9, races): Cash-Outs, sweeps
 * (TRANSACTIONAL → PROPRIETARY), top-ups (PROPRIETARY → TRANSACTIONAL) and a refund on a
 * single-partner client whose TRANSACTIONAL balance cannot cover them all. Whatever the
 * interleaving: no balance ever goes below zero, a sweep never takes money a Cash-Out or a refund
 * holds, every refusal is the contract's (INSUFFICIENT_FUNDS, INSUFFICIENT_*_FUNDS,
 * RULE_VIOLATION), and the final balances are exactly what the accepted operations add up to.
 */
import { describe, expect, it } from 'vitest';
import { accountOf, deposit } from '../support/account';
import { createCashIn, payCashIn, problemCode } from '../support/cash-in';
import { cashOutBody, settled } from '../support/cash-out';
import { Integrator } from '../support/harness';
import { assertBooks, quiesce } from '../support/invariants';

const ALFA = '31880826';

type Op =
  | { kind: 'cashOut'; amount: number }
  | { kind: 'sweep' | 'topUp'; amount: number }
  | { kind: 'refund'; code: string; amount: number };

async function fire(api: Integrator, op: Op) {
  switch (op.kind) {
    case 'cashOut':
      return api.signedPost('/cash-out', cashOutBody({ amount: op.amount / 100 }));
    case 'sweep':
      return api.signedPost('/account/rebalance/sweep', { amount: op.amount / 100 });
    case 'topUp':
      return api.signedPost('/account/rebalance/top-up', { amount: op.amount / 100 });
    case 'refund':
      return api.signedPost(`/cash-in/${op.code}/refund`, { reason: 'MERCHANT_ERROR' });
  }
}

describe('rebalances, refunds and Cash-Outs racing over one balance', () => {
  for (const round of [1, 2, 3]) {
    it(`round ${round}: every account adds up to what was accepted, none below zero`, async () => {
      const api = await Integrator.create({ partners: [ALFA] });
      const t = accountOf(api, 'TRANSACTIONAL').number;
      const p = accountOf(api, 'PROPRIETARY').number;
      await deposit(api, t, 100);
      await deposit(api, p, 30);
      const cashIn = await createCashIn(api, { amount: 20 });
      await payCashIn(api, cashIn.internalCode);
      // TRANSACTIONAL 120.00, PROPRIETARY 30.00; asked for: 8 × 15 out, 4 × 10 swept, a 20 refund,
      // 3 × 10 topped up — more than there is, in an order only the runtime decides.
      const ops: Op[] = [
        ...Array.from({ length: 8 }, (_, i): Op => ({ kind: 'cashOut', amount: 1500 + i })),
        ...Array.from({ length: 4 }, (): Op => ({ kind: 'sweep', amount: 1000 })),
        ...Array.from({ length: 3 }, (): Op => ({ kind: 'topUp', amount: 1000 })),
        { kind: 'refund' as const, code: cashIn.internalCode as string, amount: 2000 },
      ].sort(() => Math.random() - 0.5);
      const responses = await Promise.all(ops.map((op) => fire(api, op)));

      let tBalance = 12_000;
      let pBalance = 3_000;
      let refused = 0;
      for (const [i, op] of ops.entries()) {
        const res = responses[i]!;
        if (op.kind === 'cashOut') {
          expect(res.status).toBe(202);
          const { transactionId } = (await res.json()) as { transactionId: string };
          const done = await settled(api, transactionId, undefined);
          if (done.status === 'COMPLETED') tBalance -= op.amount;
          else {
            refused++;
            expect(done).toMatchObject({ status: 'CANCELLED', failure: { code: 'INSUFFICIENT_FUNDS' } });
          }
        } else if (op.kind === 'refund') {
          if (res.status === 202) tBalance -= op.amount;
          else {
            refused++;
            expect(res.status).toBe(422);
            expect(await problemCode(res)).toBe('RULE_VIOLATION');
          }
        } else {
          const [from, to] = op.kind === 'sweep' ? [-1, 1] : [1, -1];
          if (res.status === 201) {
            tBalance += from * op.amount;
            pBalance += to * op.amount;
          } else {
            refused++;
            expect(res.status).toBe(422);
            expect(await problemCode(res)).toBe(
              op.kind === 'sweep' ? 'INSUFFICIENT_TRANSACTIONAL_FUNDS' : 'INSUFFICIENT_PROPRIETARY_FUNDS',
            );
          }
        }
      }
      await quiesce(api);
      const books = await assertBooks(api);
      expect(books.balances.get(t)).toBe(tBalance);
      expect(books.balances.get(p)).toBe(pBalance);
      // Nothing is created or lost: 150 came in, what left is exactly the PIX money out.
      const out = books.entries
        .filter((e) => e.type === 'PIX_OUT' || e.type === 'PIX_REFUND_OUT')
        .reduce((s, e) => s + e.amount, 0);
      expect(tBalance + pBalance).toBe(15_000 - out);
      // 180.00 asked out of TRANSACTIONAL against 150.00 that could ever reach it: some were refused.
      expect(refused).toBeGreaterThan(0);
    });
  }
});
