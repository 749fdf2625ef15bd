/**
 * MED disputes on the sandbox partner, through real HTTP (docs/contract.md, Disputes): the block is
 * held at once, available money may go below zero and no Cash-Out spends it, ACCEPTED returns the
 * money through the bank-return path (the hold consumed, never counted twice), REJECTED releases
 * it, a dispute racing a refund never returns the money twice, and an archived Cash-In comes back
 * to be disputed. Each ends with the books equal to the sandbox PSP's (assertBooks).
 */
import { describe, expect, it } from 'vitest';
import type { CashInBody } from '../../../src/api/cash-in/shared';
import {
  accountOf,
  balanceOf,
  cents,
  deposit,
  fullStatement,
  getBalance,
  rebalance,
} from '../../support/account';
import { createCashIn, getCashIn, payCashIn, problemCode } from '../../support/cash-in';
import { createCashOut, settled } from '../../support/cash-out';
import { admin, Integrator } from '../../support/harness';
import { assertBooks, quiesce, total } from '../../support/invariants';
import { outboxEvents } from '../../support/webhooks';

async function paid(api: Integrator, amount: number) {
  const created = await createCashIn(api, { amount });
  await payCashIn(api, created.internalCode);
  return created.internalCode;
}

const openDispute = (api: Integrator, id: string, body: Record<string, unknown> = {}) =>
  api.post(`/sandbox/cash-in/${id}/dispute`, body);
const closeDispute = (api: Integrator, id: string, outcome: string) =>
  api.post(`/sandbox/cash-in/${id}/dispute/close`, { outcome });

async function transactional(api: Integrator) {
  const number = accountOf(api, 'TRANSACTIONAL').number;
  return balanceOf(await getBalance(api), number) as {
    balance: number;
    available?: number;
    blocked?: number;
  };
}

async function disputeEvents(api: Integrator, transactionId: string) {
  return (await outboxEvents(api.client.clientId, transactionId))
    .map((e) => e.eventType)
    .filter((t) => t.startsWith('CASHIN_DISPUTE_') || t === 'CASHIN_REFUNDED');
}

describe('MED disputes (sandbox)', () => {
  it('ACCEPTED after the money was paid out: available below zero, no Cash-Out spends it, later Cash-Ins cover it', async () => {
    const api = await Integrator.create();
    const code = await paid(api, 100);
    const out = await createCashOut(api, { amount: 100 });
    expect((await settled(api, out.transactionId)).status).toBe('COMPLETED');

    const opened = await openDispute(api, code);
    expect(opened.status).toBe(201);
    const disputed = (await opened.json()) as CashInBody;
    expect(disputed.status).toBe('PAID');
    expect(disputed.dispute).toMatchObject({ status: 'OPEN', blockedAmount: 100 });
    expect(Date.parse(disputed.dispute!.respondBy) - Date.parse(disputed.dispute!.openedAt)).toBe(
      72 * 3_600_000,
    );
    expect(await transactional(api)).toMatchObject({ balance: 0, available: -100, blocked: 100 });

    // A Cash-In comes, but the block still covers it: a Cash-Out above available is cancelled.
    await paid(api, 30);
    const blockedOut = await createCashOut(api, { amount: 20 });
    const refused = await settled(api, blockedOut.transactionId);
    expect(refused.status).toBe('CANCELLED');
    expect(refused.failure?.code).toBe('INSUFFICIENT_FUNDS');
    // A sweep above available TRANSACTIONAL money is refused; a top-up never is.
    expect(await problemCode(await rebalance(api, 'sweep', { amount: 1 }))).toBe(
      'INSUFFICIENT_TRANSACTIONAL_FUNDS',
    );
    await deposit(api, accountOf(api, 'PROPRIETARY').number, 5);
    expect((await rebalance(api, 'top-up', { amount: 5 })).status).toBe(201);
    expect((await rebalance(api, 'sweep', { amount: 5 })).status).toBe(422);
    expect(await transactional(api)).toMatchObject({ balance: 35, available: -65, blocked: 100 });
    // A refund of the disputed Cash-In would pay it back twice.
    const refund = await api.signedPost(`/cash-in/${code}/refund`, { reason: 'FRAUD' });
    expect(await problemCode(refund)).toBe('REFUND_NOT_ALLOWED');

    const closed = await closeDispute(api, code, 'ACCEPTED');
    expect(closed.status).toBe(200);
    const returned = (await closed.json()) as CashInBody;
    expect(returned).toMatchObject({ status: 'REFUNDED', reason: 'FRAUD', dispute: { status: 'ACCEPTED' } });
    expect(returned.dispute!.closedAt).toBeDefined();
    // Returned once: the hold is consumed, not subtracted again.
    expect(await transactional(api)).toMatchObject({ balance: -65, available: -65, blocked: 0 });

    await paid(api, 80);
    const covered = await createCashOut(api, { amount: 15 });
    expect((await settled(api, covered.transactionId)).status).toBe('COMPLETED');
    expect(await transactional(api)).toMatchObject({ balance: 0, available: 0, blocked: 0 });
    expect(await disputeEvents(api, disputed.transactionId)).toEqual([
      'CASHIN_DISPUTE_OPENED',
      'CASHIN_DISPUTE_CLOSED',
      'CASHIN_REFUNDED',
    ]);
    await quiesce(api);
    const books = await assertBooks(api);
    expect(total(books, 'PIX_REFUND_OUT')).toBe(cents(100));
  });

  it('REJECTED releases the hold in the closing transaction; a defense before it is forwarded once', async () => {
    const api = await Integrator.create();
    const code = await paid(api, 50);
    expect((await openDispute(api, code, { amount: 20 })).status).toBe(201);
    expect(await transactional(api)).toMatchObject({ balance: 50, available: 30, blocked: 20 });
    const tooMuch = await createCashOut(api, { amount: 40 });
    expect((await settled(api, tooMuch.transactionId)).failure?.code).toBe('INSUFFICIENT_FUNDS');

    const defense = await api.signedPost(`/cash-in/${code}/dispute/defense`, {
      text: 'Deposit from own account',
    });
    expect(defense.status).toBe(202);
    expect(((await defense.json()) as CashInBody).dispute).toMatchObject({ status: 'DEFENDED' });
    const again = await api.signedPost(`/cash-in/${code}/dispute/defense`, { text: 'Again' });
    expect(again.status).toBe(422);
    expect(await problemCode(again)).toBe('RULE_VIOLATION');

    const closed = (await (await closeDispute(api, code, 'REJECTED')).json()) as CashInBody;
    expect(closed).toMatchObject({ status: 'PAID', dispute: { status: 'REJECTED', blockedAmount: 20 } });
    expect(await transactional(api)).toMatchObject({ balance: 50, available: 50, blocked: 0 });
    const fits = await createCashOut(api, { amount: 40 });
    expect((await settled(api, fits.transactionId)).status).toBe('COMPLETED');
    expect(await disputeEvents(api, closed.transactionId)).toEqual([
      'CASHIN_DISPUTE_OPENED',
      'CASHIN_DISPUTE_UPDATED',
      'CASHIN_DISPUTE_CLOSED',
    ]);
    await quiesce(api);
    await assertBooks(api);
  });

  it('a dispute racing a refund of the same Cash-In: the money leaves once', async () => {
    const api = await Integrator.create();
    const code = await paid(api, 60);
    const [refund, dispute] = await Promise.all([
      api.signedPost(`/cash-in/${code}/refund`, { reason: 'CUSTOMER_REQUEST' }),
      openDispute(api, code),
    ]);
    expect(dispute.status).toBe(201);
    const disputed = (await dispute.json()) as CashInBody;
    // Whichever came first: a refund in flight leaves nothing to block, a dispute refuses the refund.
    if (refund.status === 202) expect(disputed.dispute!.blockedAmount).toBe(0);
    else expect(await problemCode(refund)).toBe('REFUND_NOT_ALLOWED');
    await quiesce(api);
    const accepted = await closeDispute(api, code, 'ACCEPTED');
    expect([200, 422]).toContain(accepted.status);
    await quiesce(api);
    const books = await assertBooks(api);
    expect(total(books, 'PIX_REFUND_OUT')).toBe(cents(60));
    expect(await transactional(api)).toMatchObject({ balance: 0, available: 0, blocked: 0 });
  });

  it('a dispute on an archived Cash-In brings it back, and it stays hot while open', async () => {
    const api = await Integrator.create();
    const code = await paid(api, 45);
    const archived = await admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
      before: new Date(Date.now() + 1).toISOString(),
    });
    expect(((await archived.json()) as { archivedTransactions: number }).archivedTransactions).toBe(1);
    expect((await openDispute(api, code)).status).toBe(201);
    expect(await transactional(api)).toMatchObject({ balance: 45, available: 0, blocked: 45 });
    await admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
      before: new Date(Date.now() + 1).toISOString(),
    });
    const list = await api.get('/disputes?from=2000-01-01&to=2100-12-31&status=OPEN');
    expect(list.status).toBe(200);
    expect(((await list.json()) as { items: CashInBody[] }).items.map((c) => c.internalCode)).toEqual([code]);
    const closed = (await (await closeDispute(api, code, 'ACCEPTED')).json()) as CashInBody;
    expect(closed.status).toBe('REFUNDED');
    expect((await getCashIn(api, code)).dispute?.status).toBe('ACCEPTED');
    await quiesce(api);
    // The payment's entry is archived: the statement reads across the archive, as the books do.
    const statement = await fullStatement(api, accountOf(api, 'TRANSACTIONAL').number);
    expect(statement.map((e) => [e.type, e.amount, e.balanceAfter])).toEqual([
      ['PIX_IN', 45, 45],
      ['PIX_REFUND_OUT', 45, 0],
    ]);
    expect(await transactional(api)).toMatchObject({ balance: 0, available: 0, blocked: 0 });
  });
});

describe('MED disputes: refusals', () => {
  it('bad input names the field and opens nothing; state refusals answer 422', async () => {
    const api = await Integrator.create();
    const code = await paid(api, 10);
    for (const amount of [0, -1, 1.234, 10.01, 'x']) {
      const res = await openDispute(api, code, { amount });
      expect(res.status, `amount ${amount}`).toBe(400);
      const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.errors)).toEqual(['amount']);
    }
    expect((await openDispute(api, code, { extra: 1 })).status).toBe(400);
    expect((await getCashIn(api, code)).dispute).toBeUndefined();
    expect(await transactional(api)).toMatchObject({ available: 10, blocked: 0 });

    const noDispute = await api.signedPost(`/cash-in/${code}/dispute/defense`, { text: 'x' });
    expect(await problemCode(noDispute)).toBe('RULE_VIOLATION');
    expect(await problemCode(await closeDispute(api, code, 'REJECTED'))).toBe('RULE_VIOLATION');
    const unpaid = await createCashIn(api, { amount: 5 });
    expect(await problemCode(await openDispute(api, unpaid.internalCode))).toBe('RULE_VIOLATION');
    expect((await closeDispute(api, code, 'MAYBE')).status).toBe(400);

    expect((await openDispute(api, code)).status).toBe(201);
    for (const text of ['', 'x'.repeat(2001), 5]) {
      const res = await api.signedPost(`/cash-in/${code}/dispute/defense`, { text });
      expect(res.status).toBe(400);
      expect(Object.keys(((await res.json()) as { errors: object }).errors)).toEqual(['text']);
    }
    expect((await api.post(`/cash-in/${code}/dispute/defense`, { text: 'unsigned' })).status).not.toBe(202);
    expect(await problemCode(await openDispute(api, code))).toBe('RULE_VIOLATION');
    const other = await Integrator.create();
    expect(await problemCode(await other.signedPost(`/cash-in/${code}/dispute/defense`, { text: 'x' }))).toBe(
      'CASHIN_NOT_FOUND',
    );
    expect((await other.get('/disputes?from=2000-01-01&to=2100-12-31')).status).toBe(200);
    const badStatus = await api.get('/disputes?from=2000-01-01&to=2100-12-31&status=NOPE');
    expect(Object.keys(((await badStatus.json()) as { errors: object }).errors)).toEqual(['status']);
    expect((await getCashIn(api, code)).dispute?.status).toBe('OPEN');
  });
});
