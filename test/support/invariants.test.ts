/**
 * The invariant checker has teeth: on real books it passes, and each kind of broken book — money
 * invented, an event lost, a hold left behind, a partner that paid differently — makes it fail.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createCashIn, getCashIn, payCashIn, waitFor } from './cash-in';
import { createCashOut, deposit, settled } from './cash-out';
import { Integrator } from './harness';
import { assertBooks } from './invariants';
import { sqlRows } from './ledger';

describe('assertBooks', () => {
  it('passes on real books and fails on each kind of broken one', async () => {
    const api = await Integrator.create();
    const id = api.client.clientId;
    await deposit(api, 100);
    const out = await createCashOut(api, { amount: 30 });
    await settled(api, out.transactionId);
    const cashIn = await createCashIn(api, { amount: 20 });
    await payCashIn(api, cashIn.internalCode);
    await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, { reason: 'FRAUD' });
    await waitFor(
      () => getCashIn(api, cashIn.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    await assertBooks(api);

    const t = api.client.accounts[0]!.number;
    const breakages: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        'a balance that is not its last balanceAfter',
        () => sqlRows(id, 'UPDATE accounts SET balance = balance + 1 WHERE number = ?', t),
        () => sqlRows(id, 'UPDATE accounts SET balance = balance - 1 WHERE number = ?', t),
      ],
      [
        'a Cash-Out debited twice',
        () =>
          sqlRows(
            id,
            `INSERT INTO ledger_entries (id, account_number, type, direction, amount, balance_after, ref, created_at)
             SELECT 'ENTDUP', account_number, type, direction, amount, balance_after - amount, ref, created_at + 1
               FROM ledger_entries WHERE type = 'PIX_OUT'`,
          ),
        () => sqlRows(id, "DELETE FROM ledger_entries WHERE id = 'ENTDUP'"),
      ],
      [
        'a state change without its event',
        // The event is its outbox row while its payload is held, then its delivery row.
        async () => {
          for (const table of ['outbox', 'webhook_deliveries'])
            await sqlRows(
              id,
              `UPDATE ${table} SET event_type = 'X_CASHOUT_COMPLETED' WHERE event_type = 'CASHOUT_COMPLETED'`,
            );
        },
        async () => {
          for (const table of ['outbox', 'webhook_deliveries'])
            await sqlRows(
              id,
              `UPDATE ${table} SET event_type = 'CASHOUT_COMPLETED' WHERE event_type = 'X_CASHOUT_COMPLETED'`,
            );
        },
      ],
      [
        'a hold left behind',
        () => sqlRows(id, "INSERT INTO holds VALUES ('stray', ?, 1, 'cash-out:nope', 0)", t),
        () => sqlRows(id, "DELETE FROM holds WHERE id = 'stray'"),
      ],
      [
        'a payment the partner failed but the ledger debited',
        () =>
          env.DB.prepare("UPDATE sandbox_transfers SET outcome = 'FAILED' WHERE idempotency_id = ?")
            .bind(out.transactionId)
            .run(),
        () =>
          env.DB.prepare("UPDATE sandbox_transfers SET outcome = 'SETTLED' WHERE idempotency_id = ?")
            .bind(out.transactionId)
            .run(),
      ],
      [
        'a refund debited under another devolution',
        () => sqlRows(id, "UPDATE cash_ins SET refund_end_to_end_id = 'D-none' WHERE status = 'REFUNDED'"),
        async () => {
          const [row] = await sqlRows<{ end_to_end_id: string }>(
            id,
            "SELECT end_to_end_id FROM ledger_entries WHERE type = 'PIX_REFUND_OUT'",
          );
          await sqlRows(
            id,
            "UPDATE cash_ins SET refund_end_to_end_id = ? WHERE status = 'REFUNDED'",
            row!.end_to_end_id,
          );
        },
      ],
    ];
    for (const [what, breakIt, repair] of breakages) {
      await breakIt();
      await expect(assertBooks(api), what).rejects.toThrow();
      await repair();
      await assertBooks(api);
    }
  });
});
