import { evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SandboxPartner } from '../../../src/partners/sandbox';
import { createCashOut, deposit, settled } from '../../support/cash-out';
import { admin, Integrator } from '../../support/harness';
import { ledgerStub, sqlRows } from '../../support/ledger';
import { outboxEvents } from '../../support/webhooks';

/**
 * Parks a real Cash-Out right after its reservation (approval threshold), then rewrites its stage
 * to the step under test — as if the object had died there — and lets recovery run.
 */
async function crashAt(stage: 'RECEIVED' | 'APPROVED' | 'SENDING' | 'SENT', partnerReceivedIt: boolean) {
  const api = await Integrator.create();
  await deposit(api, 100);
  await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { approvalThreshold: 1 });
  const accepted = await createCashOut(api, { amount: 25 });
  await settled(api, accepted.transactionId, ['PENDING']);
  await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { approvalThreshold: null });
  const [row] = await sqlRows<{ partner_ispb: string }>(
    api.client.clientId,
    'SELECT partner_ispb FROM cash_outs',
  );
  const ispb = row!.partner_ispb;
  if (partnerReceivedIt) {
    await new SandboxPartner(ispb, env).sendPayment({
      idempotencyId: accepted.transactionId,
      amountCents: 2500,
      payee: {
        name: 'x',
        document: '12345678909',
        destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
      },
      description: null,
    });
  }
  await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
    const sql = state.storage.sql;
    if (stage === 'RECEIVED') {
      // Died before the reservation committed: no hold, no partner yet.
      sql.exec('DELETE FROM holds');
      sql.exec(
        "UPDATE cash_outs SET stage = 'RECEIVED', status = 'PROCESSING', partner_ispb = NULL, settlement = NULL",
      );
    } else {
      sql.exec("UPDATE cash_outs SET stage = ?, status = 'PROCESSING'", stage);
    }
    // Due for the executor, as it was when the object died.
    sql.exec('UPDATE cash_outs SET next_at = ?', Date.now());
    sql.exec(
      "INSERT OR REPLACE INTO tasks (id, kind, ref, due_at, attempts) VALUES ('cash-out-exec:all', 'cash-out-exec', 'all', ?, 0)",
      Date.now(),
    );
  });
  await evictDurableObject(ledgerStub(api.client.clientId));
  await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) =>
    state.storage.setAlarm(Date.now() + 20),
  );
  const done = await settled(api, accepted.transactionId, ['COMPLETED', 'CANCELLED'], 15_000);
  const transfers = await env.DB.prepare('SELECT requests FROM sandbox_transfers WHERE idempotency_id = ?')
    .bind(accepted.transactionId)
    .all();
  const entries = await sqlRows<{ type: string; balance_after: number }>(
    api.client.clientId,
    'SELECT type, balance_after FROM ledger_entries ORDER BY seq',
  );
  const holds = await sqlRows(api.client.clientId, 'SELECT * FROM holds');
  const events = await outboxEvents(api.client.clientId);
  return { done, transfers: transfers.results, entries, holds, events: events.map((e) => e.eventType) };
}

describe('Cash-Out crash at each step of execution', () => {
  const cases: [Parameters<typeof crashAt>[0], boolean][] = [
    ['RECEIVED', false],
    ['APPROVED', false],
    ['SENDING', false],
    ['SENDING', true],
    ['SENT', true],
  ];
  for (const [stage, received] of cases) {
    it(`recovers from a crash in ${stage}${received ? ' after the partner got it' : ''}: paid once, nothing lost`, async () => {
      const r = await crashAt(stage, received);
      expect(r.done.status).toBe('COMPLETED');
      // One payment at the partner, requested once: recovery asked before it sent again.
      expect(r.transfers).toEqual([{ requests: 1 }]);
      expect(r.entries.map((e) => [e.type, e.balance_after])).toEqual([
        ['TRANSFER_IN', 10_000],
        ['PIX_OUT', 7_500],
      ]);
      expect(r.holds).toEqual([]);
      expect(r.events.filter((e) => e.startsWith('CASHOUT_'))).toEqual([
        'CASHOUT_REQUESTED',
        'CASHOUT_COMPLETED',
      ]);
    });
  }
});
