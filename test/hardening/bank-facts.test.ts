/**
 * Money facts from the bank are recorded, never refused (issue 17 §5): a devolution the payer's bank
 * makes on its own (MED claim, customer request) when the balance cannot cover it takes the balance
 * below zero, visibly in the statement and the balance, and our own operations still cannot spend
 * what is not there; a bank return that overtakes the client's own refund in flight supersedes it,
 * and if the partner settles that refund too, the second outflow is recorded as well.
 */
import { describe, expect, it } from 'vitest';
import { BANK_RETURN_LABEL } from '../../src/domain/statement';
import { accountOf, fullStatement, getBalance } from '../support/account';
import { createCashIn, payCashIn, waitFor } from '../support/cash-in';
import { createCashOut, settled } from '../support/cash-out';
import { Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';

async function bankReturn(api: Integrator, id: string, reason: string) {
  // The payment's end-to-end id may be assigned just after it settles.
  return waitFor(
    () => api.post(`/sandbox/cash-in/${id}/return`, { reason }),
    (res) => res.status !== 422,
  );
}

describe('bank returns are facts', () => {
  it('is recorded when the balance cannot cover it: the balance goes negative, our debits stay refused', async () => {
    const api = await Integrator.create();
    const cashIn = await createCashIn(api, { amount: 100 });
    await payCashIn(api, cashIn.internalCode);
    const payout = await createCashOut(api, { amount: 80 });
    expect((await settled(api, payout.transactionId)).status).toBe('COMPLETED');

    const res = await bankReturn(api, cashIn.internalCode, 'FRAUD');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'REFUNDED', reason: 'FRAUD' });

    const balance = await getBalance(api);
    expect(balance.totals.transactional).toBe(-80);
    const statement = await fullStatement(api, accountOf(api, 'TRANSACTIONAL').number);
    expect(statement.at(-1)).toMatchObject({
      type: 'PIX_REFUND_OUT',
      direction: 'DEBIT',
      typeRaw: BANK_RETURN_LABEL,
      amount: 100,
      balanceAfter: -80,
    });
    // Nothing of ours can spend from a negative balance.
    const next = await createCashOut(api, { amount: 10 });
    const outcome = await settled(api, next.transactionId);
    expect(outcome).toMatchObject({ status: 'CANCELLED', failure: { code: 'INSUFFICIENT_FUNDS' } });
    // Money coming in is credited whatever the balance: a payment brings it back toward zero.
    const later = await createCashIn(api, { amount: 30 });
    await payCashIn(api, later.internalCode);
    expect((await getBalance(api)).totals.transactional).toBe(-50);
    await assertBooks(api);
  });

  it('books our devolution the partner settled even when a bank return took its held money since', async () => {
    const api = await Integrator.create();
    const a = await createCashIn(api, { amount: 100 });
    await payCashIn(api, a.internalCode);
    const b = await createCashIn(api, { amount: 100 });
    await payCashIn(api, b.internalCode);
    const spend = await createCashOut(api, { amount: 100 });
    expect((await settled(api, spend.transactionId)).status).toBe('COMPLETED');
    // Our refund of A holds the last 100; the bank then returns B on its own before it settles.
    const refund = await api.signedPost(`/cash-in/${a.internalCode}/refund`, { reason: 'MERCHANT_ERROR' });
    expect(refund.status).toBe(202);
    expect((await bankReturn(api, b.internalCode, 'FRAUD')).status).toBe(200);
    // The partner settles A's devolution: the money has left, so it is booked, not held back.
    const refunded = await waitFor(
      () => api.get(`/cash-in/${a.internalCode}`).then((r) => r.json() as Promise<{ status: string }>),
      (x) => x.status === 'REFUNDED',
    );
    expect(refunded.status).toBe('REFUNDED');
    expect((await getBalance(api)).totals.transactional).toBe(-100);
    await assertBooks(api);
  });

  it('supersedes a refund in flight; if the partner settles that refund too, both outflows are booked', async () => {
    const api = await Integrator.create();
    const cashIn = await createCashIn(api, { amount: 50 });
    await payCashIn(api, cashIn.internalCode);
    await waitFor(
      () =>
        api.get(`/cash-in/${cashIn.internalCode}`).then((r) => r.json() as Promise<{ endToEndId?: string }>),
      (c) => c.endToEndId !== undefined,
    );
    const refund = await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, {
      reason: 'MERCHANT_ERROR',
    });
    expect(refund.status).toBe(202);
    const refundE2e = ((await refund.json()) as { endToEndId: string }).endToEndId;

    // The payer's bank returns it before the client's devolution settles: recorded, not refused.
    const returned = await api.post(`/sandbox/cash-in/${cashIn.internalCode}/return`, {
      reason: 'CUSTOMER_REQUEST',
    });
    expect(returned.status, await returned.clone().text()).toBe(200);
    const view = (await returned.json()) as { status: string; reason: string; endToEndId: string };
    expect(view).toMatchObject({ status: 'REFUNDED', reason: 'CUSTOMER_REQUEST' });
    expect(view.endToEndId).not.toBe(refundE2e);

    // The sandbox partner settles the client's devolution anyway (it does not know of the return).
    const account = accountOf(api, 'TRANSACTIONAL').number;
    const outs = await waitFor(
      async () => (await fullStatement(api, account)).filter((i) => i.type === 'PIX_REFUND_OUT'),
      (list) => list.length === 2,
    );
    expect(outs.map((i) => [i.endToEndId, i.typeRaw, i.amount])).toEqual([
      [view.endToEndId, BANK_RETURN_LABEL, 50],
      [refundE2e, BANK_RETURN_LABEL, 50],
    ]);
    expect((await getBalance(api)).totals.transactional).toBe(-50);
    const final = (await (await api.get(`/cash-in/${cashIn.internalCode}`)).json()) as Record<
      string,
      unknown
    >;
    expect(final).toMatchObject({
      status: 'REFUNDED',
      reason: 'CUSTOMER_REQUEST',
      endToEndId: view.endToEndId,
    });
    await assertBooks(api);
  });
});
