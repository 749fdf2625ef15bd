/**
 * A Cash-Out's object dies between every two steps of its execution (crash points of
 * durable-objects/ledger/crash-points.ts: after reading limits, after reserving, after recording
 * SENDING, after the partner accepted the payment, after reading its outcome) and recovers by
 * itself, through the runtime's retry of the failed alarm. Whatever the point: one payment at the
 * partner, requested once (recovery asks before sending again), one PIX_OUT, no hold left, one
 * final event. test/api/cash-out/error-crash-steps.test.ts covers the same stages by rewriting storage.
 */
import { evictDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { CrashPoint } from '../../durable-objects/ledger/crash-points';
import { acceptTogether, batchInputs, createCashOut, deposit, magicKey, settled } from '../support/cash-out';
import { armCrash, crashedAt, waitForCrash } from '../support/crash';
import { admin, Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { ledgerStub } from '../support/ledger';
import { partnerTransfer, partnerTransfers } from '../support/ledger-reads';
import { outboxEvents } from '../support/webhooks';

const STEPS: CrashPoint[] = [
  'cash-out.checked',
  'cash-out.approved',
  'cash-out.sending',
  'cash-out.payment-sent',
  'cash-out.status-read',
];

async function partnerRequests(transactionId: string) {
  return (await partnerTransfers([transactionId])).map(({ kind, outcome, requests }) => ({
    kind,
    outcome,
    requests,
  }));
}

async function webhookTypes(clientId: string, transactionId: string) {
  return (await outboxEvents(clientId, transactionId)).map((e) => e.eventType);
}

describe('a Cash-Out whose object dies between two steps', () => {
  for (const point of STEPS) {
    it(`completes once after a crash at ${point}`, async () => {
      const api = await Integrator.create();
      await deposit(api, 100);
      await armCrash(api, point);
      const accepted = await createCashOut(api, { amount: 25 });
      const done = await settled(api, accepted.transactionId, ['COMPLETED', 'CANCELLED']);
      expect(await crashedAt(api, point)).toBeDefined();
      expect(done.status).toBe('COMPLETED');
      expect(await partnerRequests(accepted.transactionId)).toEqual([
        { kind: 'PAYMENT', outcome: 'SETTLED', requests: 1 },
      ]);
      const books = await assertBooks(api);
      expect(books.entries.map((e) => [e.type, e.balance_after])).toEqual([
        ['TRANSFER_IN', 10_000],
        ['PIX_OUT', 7_500],
      ]);
      expect(await webhookTypes(api.client.clientId, accepted.transactionId)).toEqual([
        'CASHOUT_REQUESTED',
        'CASHOUT_COMPLETED',
      ]);
    });
  }

  for (const point of ['cash-out.payment-sent', 'cash-out.status-read'] as const) {
    it(`ends CANCELLED once, money released, when the partner failed it and the object died at ${point}`, async () => {
      const api = await Integrator.create();
      await deposit(api, 100);
      await armCrash(api, point);
      const accepted = await createCashOut(api, {
        amount: 25,
        payee: { name: 'Ana', document: '12345678909', destination: magicKey('PAYEE_ACCOUNT_UNAVAILABLE') },
      });
      const done = await settled(api, accepted.transactionId, ['COMPLETED', 'CANCELLED']);
      expect(await crashedAt(api, point)).toBeDefined();
      expect(done).toMatchObject({ status: 'CANCELLED', failure: { code: 'PAYEE_ACCOUNT_UNAVAILABLE' } });
      expect(await partnerRequests(accepted.transactionId)).toEqual([
        { kind: 'PAYMENT', outcome: 'FAILED', requests: 1 },
      ]);
      const books = await assertBooks(api);
      expect(books.entries.map((e) => e.type)).toEqual(['TRANSFER_IN']);
      expect(books.balances.get(api.client.accounts[0]!.number)).toBe(10_000);
      expect(await webhookTypes(api.client.clientId, accepted.transactionId)).toEqual([
        'CASHOUT_REQUESTED',
        'CASHOUT_FAILED',
      ]);
    });
  }

  for (const point of STEPS) {
    it(`a batch whose pass dies at ${point} loses and duplicates nothing`, async () => {
      const api = await Integrator.create();
      await deposit(api, 100);
      await armCrash(api, point);
      const inputs = batchInputs(6, 2);
      const ids = await acceptTogether(api, inputs);
      const done = await Promise.all(ids.map((id) => settled(api, id, ['COMPLETED', 'CANCELLED'])));
      expect(await crashedAt(api, point)).toBeDefined();
      expect(done.map((d) => d.status)).toEqual(ids.map((_, i) => (i === 2 ? 'CANCELLED' : 'COMPLETED')));
      for (const [i, id] of ids.entries()) {
        expect(await partnerRequests(id)).toEqual([
          { kind: 'PAYMENT', outcome: i === 2 ? 'FAILED' : 'SETTLED', requests: 1 },
        ]);
        expect(await webhookTypes(api.client.clientId, id)).toEqual([
          'CASHOUT_REQUESTED',
          i === 2 ? 'CASHOUT_FAILED' : 'CASHOUT_COMPLETED',
        ]);
      }
      const books = await assertBooks(api);
      expect(books.entries.filter((e) => e.type === 'PIX_OUT')).toHaveLength(5);
      const spent = inputs.reduce((sum, input, i) => sum + (i === 2 ? 0 : input.amountCents), 0);
      expect(books.balances.get(api.client.accounts[0]!.number)).toBe(10_000 - spent);
    });
  }

  it('completes once after dying on the first answer and again on the settled one', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    await armCrash(api, 'cash-out.status-read');
    const accepted = await createCashOut(api, { amount: 25 });
    const first = await waitForCrash(api, 'cash-out.status-read');
    await armCrash(api, 'cash-out.status-read');
    const second = await waitForCrash(api, 'cash-out.status-read', first);
    const done = await settled(api, accepted.transactionId, ['COMPLETED', 'CANCELLED']);
    expect(done.status).toBe('COMPLETED');
    const { settlesAt: settles_at } = (await partnerTransfer(accepted.transactionId))!;
    // However the first death fell, the second one came after the partner had settled it (the
    // runtime retries a failed alarm after seconds): the outcome was read and not yet recorded.
    expect(second).toBeGreaterThanOrEqual(settles_at);
    expect(await partnerRequests(accepted.transactionId)).toEqual([
      { kind: 'PAYMENT', outcome: 'SETTLED', requests: 1 },
    ]);
    const books = await assertBooks(api);
    expect(books.entries.map((e) => e.type)).toEqual(['TRANSFER_IN', 'PIX_OUT']);
  });

  it('a PENDING Cash-Out survives eviction with its reservation; approved, it dies before sending and still pays once', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { approvalThreshold: 20 });
    const accepted = await createCashOut(api, { amount: 25 });
    await settled(api, accepted.transactionId, ['PENDING']);
    await evictDurableObject(ledgerStub(api.client.clientId));
    // The reservation outlived the object: only 75 can still be swept.
    const sweep = await api.signedPost('/account/rebalance/sweep', { amount: 75.01 });
    expect(sweep.status).toBe(422);
    await armCrash(api, 'cash-out.approved');
    const approve = await admin(
      `/admin/clients/${api.client.clientId}/cash-out/${accepted.transactionId}/approve`,
      'POST',
    );
    expect(approve.status).toBe(200);
    const done = await settled(api, accepted.transactionId, ['COMPLETED', 'CANCELLED']);
    expect(await crashedAt(api, 'cash-out.approved')).toBeDefined();
    expect(done.status).toBe('COMPLETED');
    expect(await partnerRequests(accepted.transactionId)).toEqual([
      { kind: 'PAYMENT', outcome: 'SETTLED', requests: 1 },
    ]);
    await assertBooks(api);
  });

  it('an object evicted right after the 202 loses nothing: the retry with the same key replays it', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const key = crypto.randomUUID();
    const body = {
      amount: 30,
      externalReference: `crash-${crypto.randomUUID().slice(0, 8)}`,
      payee: {
        name: 'Ana',
        document: '12345678909',
        destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
      },
    };
    const first = await api.signedPost('/cash-out', body, { 'x-idempotency-key': key });
    expect(first.status).toBe(202);
    // As if the answer never reached the integrator: the object dies and the request is sent again.
    await evictDurableObject(ledgerStub(api.client.clientId));
    const again = await api.signedPost('/cash-out', body, { 'x-idempotency-key': key });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const accepted = (await first.json()) as { transactionId: string };
    expect(((await again.json()) as { transactionId: string }).transactionId).toBe(accepted.transactionId);
    expect((await settled(api, accepted.transactionId)).status).toBe('COMPLETED');
    const books = await assertBooks(api);
    expect(books.cashOuts).toHaveLength(1);
    expect(books.entries.map((e) => e.type)).toEqual(['TRANSFER_IN', 'PIX_OUT']);
  });
});
