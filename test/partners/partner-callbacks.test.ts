/**
 * A real partner's Pix callbacks (issue 17 §4) against the fake API Pix PSP of test/setup/fake-psp.ts,
 * through real HTTP: a callback is a hint, so money moves only on what the partner answers when read
 * again, and once; refunds settle or fail through it; a bank return is recorded whatever the balance
 * or a refund in flight (§5); the reconciliation sweep finds a Pix whose callback never came.
 * Authentication: partner-callback-auth.test.ts. Every exchange with the PSP validates against
 * the vendored bacen/pix-api document.
 */
import { env } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import { reconcilePartnerPix } from '../../src/cron/partner-notices';
import { COUNTER_CODE } from '../../src/domain/internal-code';
import { BANK_RETURN_LABEL } from '../../src/domain/statement';
import { getBalance, rebalance } from '../support/account';
import { createCashIn, getCashIn, waitFor } from '../support/cash-in';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { assertBooks, quiesce } from '../support/invariants';
import { tasks } from '../support/ledger-reads';
import {
  callback,
  newE2e,
  onboard,
  paidAtPsp,
  postCallback,
  psp,
  SECRET,
  statementOf,
} from '../support/partner-psp';
import { OUTCOME_MS } from '../support/wait';
import { newSink, received, waitUntil } from '../support/webhooks';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

describe('partner Pix callbacks', () => {
  it('pay a Cash-In only once the partner confirms the Pix, and only once', async () => {
    const api = await onboard();
    const cashIn = await createCashIn(api, { amount: 150.25 });
    // Its TxId carries a counter code (src/domain/internal-code.ts): the callback naming it reaches it.
    expect(cashIn.internalCode).toMatch(COUNTER_CODE);
    expect(cashIn.transactionId.slice(22, 29)).toBe(cashIn.internalCode);
    const e2e = newE2e();
    // Forged: the partner has no such Pix, whatever the body says.
    const forged = {
      pix: [
        { endToEndId: e2e, txid: cashIn.transactionId, valor: '150.25', horario: new Date().toISOString() },
      ],
    };
    const refused = await postCallback(forged, { secret: SECRET });
    expect(refused.status).toBe(200);
    expect(await refused.json()).toEqual({ pix: [{ endToEndId: e2e, outcomes: ['not-confirmed'] }] });
    expect((await getCashIn(api, cashIn.internalCode)).status).toBe('AWAITING_PAYMENT');

    await psp('pay', { txid: cashIn.transactionId, endToEndId: e2e });
    // The body may lie about the amount: the partner's answer is what counts.
    const lying = { pix: [{ ...forged.pix[0], valor: '999999.99' }] };
    const paid = await postCallback(lying, { secret: SECRET });
    expect(await paid.json()).toEqual({ pix: [{ endToEndId: e2e, outcomes: ['paid'] }] });
    const view = await getCashIn(api, cashIn.internalCode);
    expect(view).toMatchObject({ status: 'PAID', endToEndId: e2e, amount: 150.25 });
    expect(view.settlement).toMatchObject({ ispb: FAKE_PSP_ISPB, bank: 'PSP de Testes S.A.' });

    // Replayed (and sent twice in one body): nothing moves again.
    expect(await callback(e2e, e2e)).toEqual([{ endToEndId: e2e, outcomes: ['already-paid'] }]);
    const entries = (await statementOf(api)).filter((e) => e.type === 'PIX_IN');
    expect(entries.map((e) => [e.amount, e.endToEndId])).toEqual([[150.25, e2e]]);
    await assertBooks(api);
  });

  it('leaves the Cash-In and the client statement untouched when the partner reports another amount than the charge', async () => {
    const api = await onboard();
    const cashIn = await createCashIn(api, { amount: 10 });
    const e2e = newE2e();
    await psp('pay', { txid: cashIn.transactionId, endToEndId: e2e, valor: '1.00' });
    expect(await callback(e2e)).toEqual([{ endToEndId: e2e, outcomes: ['amount-mismatch'] }]);
    expect((await getCashIn(api, cashIn.internalCode)).status).toBe('AWAITING_PAYMENT');
    expect(await statementOf(api)).toEqual([]);
  });

  it('settles a refund the partner reports devolved, once', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 42);
    await callback(e2e);
    const refund = await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, {
      reason: 'MERCHANT_ERROR',
    });
    expect(refund.status, await refund.clone().text()).toBe(202);
    const devolutionId = ((await refund.json()) as { endToEndId: string }).endToEndId;
    expect((await psp(`pix/${e2e}`)).devolucoes).toMatchObject([
      { id: devolutionId, status: 'EM_PROCESSAMENTO' },
    ]);

    await psp('devolution', { endToEndId: e2e, id: devolutionId, ok: true });
    const [result] = await callback(e2e);
    // The refund poll may have seen it first: either way it is booked once.
    expect(result?.outcomes[0]).toBe('already-paid');
    const view = await waitFor(
      () => getCashIn(api, cashIn.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    // Settled, the refund is known by the network's id for it: the PSP's rtrId, not the id we chose.
    const rtrId = (await psp(`pix/${e2e}`)).devolucoes[0].rtrId as string;
    expect(rtrId).not.toBe(devolutionId);
    expect(view).toMatchObject({ status: 'REFUNDED', endToEndId: rtrId, originalEndToEndId: e2e });
    expect((await callback(e2e))[0]?.outcomes).toEqual(['already-paid', 'already-recorded']);
    expect((await statementOf(api)).map((e) => [e.type, e.amount, e.endToEndId])).toEqual([
      ['PIX_IN', 42, e2e],
      ['PIX_REFUND_OUT', 42, rtrId],
    ]);
    await assertBooks(api);
  });

  it('a refund its callback settled leaves no poll behind to read the partner again', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 17);
    await callback(e2e);
    const refund = await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, {
      reason: 'MERCHANT_ERROR',
    });
    expect(refund.status, await refund.clone().text()).toBe(202);
    const devolutionId = ((await refund.json()) as { endToEndId: string }).endToEndId;
    const poll = `poll-refund:${cashIn.transactionId}`;
    // In flight: the poll is there for a callback that may never come.
    expect((await tasks(api.client.clientId)).filter((t) => t.id === poll)).toHaveLength(1);
    await psp('devolution', { endToEndId: e2e, id: devolutionId, ok: true });
    await callback(e2e);
    // Settled by the callback's read: at once, and its poll went in the same transaction.
    expect((await getCashIn(api, cashIn.internalCode)).status).toBe('REFUNDED');
    expect((await tasks(api.client.clientId)).filter((t) => t.id === poll)).toEqual([]);
    await assertBooks(api);
  });

  it('fails a refund the partner did not make: CASHIN_REFUND_FAILED and a Cash-In the client can refund again', async () => {
    const api = await onboard();
    const sink = newSink();
    const { cashIn, e2e } = await paidAtPsp(api, 30, { webhookUrl: sink.url });
    await callback(e2e);
    const refund = await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, {
      reason: 'MERCHANT_ERROR',
    });
    const devolutionId = ((await refund.json()) as { endToEndId: string }).endToEndId;
    await psp('devolution', { endToEndId: e2e, id: devolutionId, ok: false });
    await callback(e2e);
    const view = await waitFor(
      () => getCashIn(api, cashIn.internalCode),
      (c) => c.refundFailure !== undefined,
    );
    expect(view).toMatchObject({ status: 'PAID', refundFailure: { code: 'PAYEE_BANK_REJECTED' } });
    const events = await waitUntil(
      async () => (await received(sink)).map((r) => JSON.parse(r.body) as { eventType: string; data: any }),
      (list) => list.some((e) => e.eventType === 'CASHIN_REFUND_FAILED'),
    );
    expect(events.find((e) => e.eventType === 'CASHIN_REFUND_FAILED')?.data).toMatchObject({
      status: 'PAID',
      refundFailure: { code: 'PAYEE_BANK_REJECTED' },
    });
    expect((await getBalance(api)).totals.transactional).toBe(30);
    // The client can act: a new refund is accepted.
    const again = await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, {
      reason: 'MERCHANT_ERROR',
    });
    expect(again.status).toBe(202);
  });
});

describe('bank returns through partner callbacks', () => {
  it('are recorded while the client refund is in flight, and that refund settling too is booked as well', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 150.25);
    await callback(e2e);
    const refund = await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, {
      reason: 'MERCHANT_ERROR',
    });
    expect(refund.status).toBe(202);
    const devolutionId = ((await refund.json()) as { endToEndId: string }).endToEndId;

    const med = await psp('return', {
      endToEndId: e2e,
      id: 'MEDfraude0001',
      valor: '150.25',
      natureza: 'MED_FRAUDE',
    });
    // Our devolution still in flight is read again; the bank's is recorded.
    expect((await callback(e2e))[0]?.outcomes).toEqual(['already-paid', 'refund-checked', 'returned']);
    const view = await getCashIn(api, cashIn.internalCode);
    expect(view).toMatchObject({ status: 'REFUNDED', reason: 'FRAUD', endToEndId: med.rtrId });

    // The partner settles the overtaken client devolution as well: money left twice, booked twice.
    await psp('devolution', { endToEndId: e2e, id: devolutionId, ok: true });
    await waitFor(
      async () => (await statementOf(api)).length,
      (n) => n === 3,
    );
    await callback(e2e);
    const statement = await statementOf(api);
    expect(statement.map((e) => [e.type, e.amount, e.balanceAfter])).toEqual([
      ['PIX_IN', 150.25, 150.25],
      ['PIX_REFUND_OUT', 150.25, 0],
      ['PIX_REFUND_OUT', 150.25, -150.25],
    ]);
    expect(statement.slice(1).every((e) => e.typeRaw === BANK_RETURN_LABEL)).toBe(true);
    expect((await getBalance(api)).totals.transactional).toBe(-150.25);
    await assertBooks(api);
  });

  it('are not undone by a refund the partner refuses after the return came in (startRefund re-reads)', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 25);
    await callback(e2e);
    await psp('hold-next-devolution', {});
    const refunding = api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, { reason: 'MERCHANT_ERROR' });
    // The refund now waits on the partner, its money held.
    await waitUntil(
      () => psp('devolution-held'),
      (p) => p.held === true,
      OUTCOME_MS,
      'the refund’s devolution request to be held at the PSP',
    );
    const med = await psp('return', {
      endToEndId: e2e,
      id: 'MEDfraude0002',
      valor: '25.00',
      natureza: 'MED_FRAUDE',
    });
    expect((await callback(e2e))[0]?.outcomes).toEqual(['already-paid', 'returned']);
    // Only now does the partner refuse the devolution.
    expect(await psp('release-devolution', {})).toEqual({ released: true });
    // The refund the call started was overtaken, not refused: nothing of the return is reset.
    expect((await refunding).status).toBe(202);
    expect(await getCashIn(api, cashIn.internalCode)).toMatchObject({
      status: 'REFUNDED',
      reason: 'FRAUD',
      endToEndId: med.rtrId,
    });
    expect((await getBalance(api)).totals.transactional).toBe(0);
    // The overtaken devolution is followed until the partner says it never made it; then its hold goes.
    await quiesce(api);
    await assertBooks(api);
  });

  it('are recorded when the balance cannot cover them, at the amount the bank returned', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 100);
    await callback(e2e);
    // The client moved most of it to its PROPRIETARY account: 20.00 left where the return lands.
    const swept = await rebalance(api, 'sweep', { amount: 80 });
    expect(swept.status, await swept.clone().text()).toBe(201);

    await psp('return', { endToEndId: e2e, id: 'MEDoper0001', valor: '60.00', natureza: 'MED_OPERACIONAL' });
    expect((await callback(e2e))[0]?.outcomes).toEqual(['already-paid', 'returned']);
    // Less than the whole Cash-In went back: it stays PAID (docs/contract.md, Disputes).
    const partly = await getCashIn(api, cashIn.internalCode);
    expect(partly.status).toBe('PAID');
    expect(partly.reason).toBeUndefined();
    // A second return of the rest ends it REFUNDED, and replays: each booked once.
    await psp('return', { endToEndId: e2e, id: 'MEDoper0002', valor: '40.00', natureza: 'MED_OPERACIONAL' });
    expect((await callback(e2e))[0]?.outcomes).toEqual(['already-paid', 'already-recorded', 'returned']);
    expect(await getCashIn(api, cashIn.internalCode)).toMatchObject({ status: 'REFUNDED', reason: 'OTHER' });
    expect((await callback(e2e))[0]?.outcomes).toEqual([
      'already-paid',
      'already-recorded',
      'already-recorded',
    ]);

    const balance = await getBalance(api);
    expect(balance.totals).toMatchObject({ transactional: -80, proprietary: 80 });
    const statement = await statementOf(api);
    expect(statement.map((e) => [e.type, e.amount, e.balanceAfter])).toEqual([
      ['PIX_IN', 100, 100],
      ['TRANSFER_OUT', 80, 20],
      ['PIX_REFUND_OUT', 60, -40],
      ['PIX_REFUND_OUT', 40, -80],
    ]);
    await assertBooks(api);
  });
});

describe('the reconciliation sweep', () => {
  it('pays a Cash-In whose callback never came, from the partner list', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 12.34);
    // A minute and a half later the sweep's window (it ends a minute before now) holds the payment.
    await reconcilePartnerPix(env, Date.now() + 90_000);
    expect(await getCashIn(api, cashIn.internalCode)).toMatchObject({ status: 'PAID', endToEndId: e2e });
    await reconcilePartnerPix(env, Date.now() + 150_000);
    expect((await statementOf(api)).filter((e) => e.type === 'PIX_IN')).toHaveLength(1);
  });
});
