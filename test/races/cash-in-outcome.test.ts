/**
 * The sandbox payment, the expiry and the cancellation of one Cash-In fired together (issue 9,
 * races): exactly one of them happens — PAID, EXPIRED or CANCELLED — the other two are refused with
 * 422 RULE_VIOLATION, money arrives only if it was paid, and the Cash-In has exactly the event of
 * the transition that won.
 */
import { describe, expect, it } from 'vitest';
import { sleep } from '../support/account';
import { createCashIn, getCashIn, problemCode } from '../support/cash-in';
import { Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { tasks } from '../support/ledger-reads';

const WINNER_OF = { pay: 'PAID', expire: 'EXPIRED', cancel: 'CANCELLED' } as const;

describe('pay vs expire vs cancel on one Cash-In', () => {
  it('exactly one outcome wins each race, and money arrives only when it is PAID', async () => {
    const api = await Integrator.create();
    const created = [];
    for (let i = 0; i < 15; i++) created.push(await createCashIn(api, { amount: 10 + i }));
    const winners: string[] = [];
    for (const [i, c] of created.entries()) {
      // Rotate who goes first, with a growing head start, so each transition gets its chance to
      // win (the payment reads the client's blocked payers first, so without a head start it loses).
      // In the last three rounds the others are sent once the first is answered: each transition
      // wins at least once however slow the machine, and the races before decide the rest.
      const headStart = [0, 2, 10, 30, undefined][Math.floor(i / 3)];
      const calls = {
        pay: () => api.post(`/sandbox/cash-in/${c.internalCode}/pay`, {}),
        expire: () => api.post(`/sandbox/cash-in/${c.internalCode}/expire`, {}),
        cancel: () => api.post(`/cash-in/${c.internalCode}/cancel`, {}),
      };
      const order = (['pay', 'expire', 'cancel'] as const).map((_, k, all) => all[(i + k) % 3]!);
      const first = calls[order[0]!]();
      const started = headStart === undefined ? first : sleep(headStart);
      const responses = await Promise.all([
        first,
        ...order.slice(1).map((name) => started.then(() => calls[name]())),
      ]);
      const won = order.filter((_, k) => responses[k]!.status === 200);
      expect(won, `round ${i}: ${responses.map((r) => r.status)}`).toHaveLength(1);
      for (const [k, r] of responses.entries()) {
        if (r.status === 200) {
          expect(((await r.json()) as { status: string }).status).toBe(WINNER_OF[order[k]!]);
        } else {
          expect(r.status).toBe(422);
          expect(await problemCode(r)).toBe('RULE_VIOLATION');
        }
      }
      const final = await getCashIn(api, c.internalCode);
      expect(final.status).toBe(WINNER_OF[won[0]!]);
      winners.push(final.status);
    }
    expect(new Set(winners)).toEqual(new Set(['PAID', 'EXPIRED', 'CANCELLED']));
    const books = await assertBooks(api);
    const paid = created.filter((_, i) => winners[i] === 'PAID');
    expect(books.entries.map((e) => e.ref).sort()).toEqual(
      paid.map((c) => `cash-in:${c.transactionId}`).sort(),
    );
    const balance = [...books.balances.values()].reduce((s, b) => s + b, 0);
    expect(balance).toBe(paid.reduce((s, c) => s + Math.round(c.amount * 100), 0));
    // Nothing is left to happen later: no expiry is still scheduled for any of them.
    expect((await tasks(api.client.clientId, 'expire-cash-in')).map((t) => t.id)).toEqual([]);
  });
});
