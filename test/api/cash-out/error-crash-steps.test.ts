import { evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SandboxPartner } from '../../../src/partners/sandbox';
import { createCashOut, deposit, settled } from '../../support/cash-out';
import { admin, Integrator } from '../../support/harness';
import { ledgerStub } from '../../support/ledger';
import { cashOuts, holds as holdRows, ledgerEntries, partnerTransfers } from '../../support/ledger-reads';
import { asCashOutDiedAt } from '../../support/ledger-writes';
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
  const [row] = await cashOuts(api.client.clientId);
  const ispb = row!.partnerIspb!;
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
  // Died at `stage`, and due for the executor as it was then.
  await asCashOutDiedAt(api.client.clientId, stage);
  await evictDurableObject(ledgerStub(api.client.clientId));
  await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) =>
    state.storage.setAlarm(Date.now() + 20),
  );
  const done = await settled(api, accepted.transactionId, ['COMPLETED', 'CANCELLED']);
  const transfers = {
    results: (await partnerTransfers([accepted.transactionId])).map(({ requests }) => ({ requests })),
  };
  const entries = (await ledgerEntries(api.client.clientId)).map((e) => ({
    type: e.type,
    balance_after: e.balanceAfter,
  }));
  const holds = await holdRows(api.client.clientId);
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
