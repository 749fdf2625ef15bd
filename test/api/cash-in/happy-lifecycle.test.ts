import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { RefundAcceptedBody } from '../../../src/api/cash-in/schemas';
import type { CashInBody } from '../../../src/api/cash-in/shared';
import { createCashIn, getCashIn, payCashIn, problemCode, waitFor } from '../../support/cash-in';
import { admin, Integrator } from '../../support/harness';
import { ledgerStub } from '../../support/ledger';
import { accountBalance, ledgerEntries } from '../../support/ledger-reads';
import { addHold, setCashInExpiry, setTasksDue, wakeIn } from '../../support/ledger-writes';
import { newSink, sinkEvents } from '../../support/webhooks';

const E2E = /^E\d{8}\d{12}[A-Za-z0-9]{11}$/;
const D2E = /^D\d{8}\d{12}[A-Za-z0-9]{11}$/;

async function balance(clientId: string, number: string) {
  return (await accountBalance(clientId, number))!;
}

describe('Cash-In payment (AWAITING_PAYMENT → PAID)', () => {
  it('sets paidAt, endToEndId E…, payer.bankData and settlement, credits PIX_IN and emits CASHIN_PAID as GET', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const created = await createCashIn(api, { amount: 99.9, webhookUrl: sink.url });
    const before = await getCashIn(api, created.internalCode);
    expect(before).not.toHaveProperty('settlement');
    expect(before).not.toHaveProperty('endToEndId');
    expect(before).not.toHaveProperty('paidAt');
    expect(before.payer).not.toHaveProperty('bankData');

    const paid = await payCashIn(api, created.internalCode, {
      payer: {
        name: 'João Pagador',
        document: '98765432100',
        bankData: { ispb: '18236120', branch: '0001', account: '99887-6' },
      },
    });
    expect(paid.status).toBe('PAID');
    expect(paid.endToEndId).toMatch(E2E);
    expect(paid.endToEndId!.slice(1, 9)).toBe('18236120');
    expect(paid.paidAt).toMatch(/-03:00$/);
    expect(paid.payer.bankData).toEqual({
      ispb: '18236120',
      bank: 'Nu Pagamentos S.A.',
      branch: '0001',
      account: '99887-6',
    });
    const transactional = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    expect(paid.settlement).toEqual({
      ispb: transactional.bank.ispb,
      bank: transactional.bank.name,
      branch: transactional.branch,
      account: transactional.number,
    });
    expect(paid).not.toHaveProperty('reason');
    expect(await getCashIn(api, paid.endToEndId!)).toEqual(paid);
    expect(await balance(api.client.clientId, transactional.number)).toBe(9990);

    const evts = await sinkEvents(sink, 2);
    expect(evts.map((e) => e.type)).toEqual(['CASHIN_REQUESTED', 'CASHIN_PAID']);
    expect(evts[0]!.data.status).toBe('AWAITING_PAYMENT');
    expect(evts[1]!.data).toEqual(paid);
  });

  it('refuses to pay twice, after cancellation or after the window with 422 RULE_VIOLATION', async () => {
    const api = await Integrator.create();
    const a = await createCashIn(api);
    await payCashIn(api, a.internalCode);
    const again = await api.post(`/sandbox/cash-in/${a.internalCode}/pay`, {});
    expect(again.status).toBe(422);
    expect(await problemCode(again)).toBe('RULE_VIOLATION');

    const b = await createCashIn(api);
    expect((await api.post(`/cash-in/${b.internalCode}/cancel`, {})).status).toBe(200);
    expect(await problemCode(await api.post(`/sandbox/cash-in/${b.internalCode}/pay`, {}))).toBe(
      'RULE_VIOLATION',
    );

    const c = await createCashIn(api);
    await setCashInExpiry(api.client.clientId, { internalCode: c.internalCode }, Date.now() - 1000);
    expect(await problemCode(await api.post(`/sandbox/cash-in/${c.internalCode}/pay`, {}))).toBe(
      'RULE_VIOLATION',
    );
  });

  it('refunds a blocked payer automatically with PAYER_NOT_ALLOWED', async () => {
    const api = await Integrator.create();
    await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { blockedPayerDocuments: ['11122233396'] });
    const created = await createCashIn(api, { amount: 10 });
    await payCashIn(api, created.internalCode, { payer: { document: '11122233396' } });
    const done = await waitFor(
      () => getCashIn(api, created.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    expect(done.status).toBe('REFUNDED');
    expect(done.reason).toBe('PAYER_NOT_ALLOWED');
    expect(done.endToEndId).toMatch(D2E);
    expect(done.originalEndToEndId).toMatch(E2E);
    const transactional = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    expect(await balance(api.client.clientId, transactional.number)).toBe(0);
  });
});

describe('POST /cash-in/{id}/refund (spec §4.6)', () => {
  it('answers 202 with exactly the listed fields, then REFUNDED with a PIX_REFUND_OUT and CASHIN_REFUNDED', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const created = await createCashIn(api, { amount: 40, webhookUrl: sink.url });
    const paid = await payCashIn(api, created.internalCode);
    const res = await api.signedPost(`/cash-in/${created.transactionId}/refund`, {
      reason: 'CUSTOMER_REQUEST',
      description: 'pedido cancelado',
    });
    expect(res.status).toBe(202);
    const body = (await res.json()) as RefundAcceptedBody;
    expect(Object.keys(body).sort()).toEqual(
      [
        'transactionId',
        'internalCode',
        'externalReference',
        'endToEndId',
        'status',
        'amount',
        'requestedAt',
        'message',
      ].sort(),
    );
    expect(body.status).toBe('PROCESSING');
    expect(body.endToEndId).toMatch(D2E);
    expect(body.amount).toBe(40);
    expect((await getCashIn(api, created.internalCode)).status).toBe('PAID');

    const second = await api.signedPost(`/cash-in/${created.transactionId}/refund`, { reason: 'FRAUD' });
    expect(second.status).toBe(422);
    const problem = (await second.json()) as Record<string, string>;
    expect(problem.code).toBe('REFUND_NOT_ALLOWED');
    expect(problem.detail).toMatch(/in progress/);

    const done = await waitFor(
      () => getCashIn(api, created.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    expect(done.status).toBe('REFUNDED');
    expect(done.reason).toBe('CUSTOMER_REQUEST');
    expect(done.endToEndId).toBe(body.endToEndId);
    expect(done.originalEndToEndId).toBe(paid.endToEndId);
    expect(done.refundedAt).toMatch(/-03:00$/);
    expect(done.settlement).toEqual(paid.settlement);
    expect(await getCashIn(api, body.endToEndId)).toEqual(done);
    const evts = await sinkEvents(sink, 3);
    expect(evts.map((e) => e.type)).toEqual(['CASHIN_REQUESTED', 'CASHIN_PAID', 'CASHIN_REFUNDED']);
    expect(evts[2]!.data).toEqual(done);
    const entries = await ledgerEntries(api.client.clientId);
    expect(entries).toMatchObject([
      { type: 'PIX_IN', direction: 'CREDIT', amount: 4000, balanceAfter: 4000 },
      { type: 'PIX_REFUND_OUT', direction: 'DEBIT', amount: 4000, balanceAfter: 0 },
    ]);
  });

  it('names the case in REFUND_NOT_ALLOWED: not paid, expired, cancelled, already refunded', async () => {
    const api = await Integrator.create();
    const awaiting = await createCashIn(api);
    const expired = await createCashIn(api);
    await api.post(`/sandbox/cash-in/${expired.internalCode}/expire`, {});
    const cancelled = await createCashIn(api);
    await api.post(`/cash-in/${cancelled.internalCode}/cancel`, {});
    const refunded = await createCashIn(api);
    await payCashIn(api, refunded.internalCode);
    await api.post(`/sandbox/cash-in/${refunded.internalCode}/return`, { reason: 'FRAUD' });
    const cases: [string, RegExp][] = [
      [awaiting.internalCode, /not paid/],
      [expired.internalCode, /expired/],
      [cancelled.internalCode, /cancelled/],
      [refunded.internalCode, /already refunded/],
    ];
    for (const [id, detail] of cases) {
      const res = await api.signedPost(`/cash-in/${id}/refund`, { reason: 'FRAUD' });
      expect(res.status).toBe(422);
      const body = (await res.json()) as Record<string, string>;
      expect(body.code).toBe('REFUND_NOT_ALLOWED');
      expect(body.detail).toMatch(detail);
    }
  });

  it('answers MISSING_E2E before the payment endToEndId exists', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api);
    const paid = await payCashIn(api, created.internalCode, { deferEndToEndId: true });
    expect(paid.status).toBe('PAID');
    expect(paid).not.toHaveProperty('endToEndId');
    const res = await api.signedPost(`/cash-in/${created.internalCode}/refund`, { reason: 'FRAUD' });
    expect(res.status).toBe(422);
    expect(await problemCode(res)).toBe('MISSING_E2E');
  });

  it('moves nothing and answers 422 RULE_VIOLATION when the TRANSACTIONAL balance cannot cover it', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api, { amount: 30 });
    await payCashIn(api, created.internalCode);
    const transactional = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    // Someone else's money movement took the balance below the refund (e.g. a Cash-Out).
    await addHold(api.client.clientId, {
      id: 'test-hold',
      accountNumber: transactional.number,
      amount: 2000,
      ref: 'test',
      createdAt: 0,
    });
    const res = await api.signedPost(`/cash-in/${created.internalCode}/refund`, { reason: 'FRAUD' });
    expect(res.status).toBe(422);
    expect(await problemCode(res)).toBe('RULE_VIOLATION');
    expect((await getCashIn(api, created.internalCode)).status).toBe('PAID');
    expect(await balance(api.client.clientId, transactional.number)).toBe(3000);
  });

  it('checks JWT, ApplicationToken, body, then DigitalSignature, in that order', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api);
    await payCashIn(api, created.internalCode);
    const path = `/cash-in/${created.internalCode}/refund`;
    const invalidBody = await api.post(path, { reason: 'NOPE' });
    expect(invalidBody.status).toBe(400);
    const unsigned = await api.post(path, { reason: 'FRAUD' });
    expect(unsigned.status).toBe(401);
    expect(await problemCode(unsigned)).toBe('DIGITAL_SIGNATURE_REQUIRED');
    const wrong = await api.post(path, { reason: 'FRAUD' }, { digitalsignature: 'ab'.repeat(32) });
    expect(wrong.status).toBe(401);
    expect(await problemCode(wrong)).toBe('DIGITAL_SIGNATURE_INVALID');
    const noAppToken = await api.post(path, { reason: 'NOPE' }, { applicationtoken: '' });
    expect(noAppToken.status).toBe(401);
    expect(await noAppToken.json()).not.toHaveProperty('code');
    expect((await admin(`/admin/clients/${api.client.clientId}/crypto-token`, 'DELETE')).status).toBe(204);
    const noToken = await api.signedPost(path, { reason: 'FRAUD' });
    expect(noToken.status).toBe(403);
    expect(await problemCode(noToken)).toBe('CRYPTO_TOKEN_NOT_CONFIGURED');
    const rotated = (await (
      await admin(`/admin/clients/${api.client.clientId}/crypto-token`, 'POST')
    ).json()) as { cryptoToken: string };
    api.client.cryptoToken = rotated.cryptoToken;
    expect((await api.signedPost(path, { reason: 'FRAUD' })).status).toBe(202);
  });

  it('honours the idempotency key: the replay returns the same 202', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api);
    await payCashIn(api, created.internalCode);
    const key = crypto.randomUUID();
    const first = await api.signedPost(
      `/cash-in/${created.internalCode}/refund`,
      { reason: 'FRAUD' },
      { 'x-idempotency-key': key },
    );
    expect(first.status).toBe(202);
    const replay = await api.signedPost(
      `/cash-in/${created.internalCode}/refund`,
      { reason: 'FRAUD' },
      { 'x-idempotency-key': key },
    );
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(await first.json());
  });
});

describe('bank-initiated returns (decisions §4)', () => {
  for (const reason of ['FRAUD', 'CUSTOMER_REQUEST', 'OTHER']) {
    it(`PAID → REFUNDED with reason ${reason}`, async () => {
      const api = await Integrator.create();
      const created = await createCashIn(api);
      const paid = await payCashIn(api, created.internalCode);
      const res = await api.post(`/sandbox/cash-in/${created.internalCode}/return`, { reason });
      expect(res.status).toBe(200);
      const body = (await res.json()) as CashInBody;
      expect(body.status).toBe('REFUNDED');
      expect(body.reason).toBe(reason);
      expect(body.endToEndId).toMatch(D2E);
      expect(body.originalEndToEndId).toBe(paid.endToEndId);
    });
  }
});

describe('cancellation and expiry (decisions §5)', () => {
  it('cancels only AWAITING_PAYMENT, with cancelledAt and CASHIN_CANCELLED', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const created = await createCashIn(api, { webhookUrl: sink.url });
    const res = await api.post(`/cash-in/${created.internalCode}/cancel`, {});
    expect(res.status).toBe(200);
    const body = (await res.json()) as CashInBody;
    expect(body.status).toBe('CANCELLED');
    expect(body.cancelledAt).toMatch(/-03:00$/);
    expect(body).not.toHaveProperty('settlement');
    const again = await api.post(`/cash-in/${created.internalCode}/cancel`, {});
    expect(again.status).toBe(422);
    expect(await problemCode(again)).toBe('RULE_VIOLATION');
    expect((await sinkEvents(sink, 2)).map((e) => e.type)).toEqual(['CASHIN_REQUESTED', 'CASHIN_CANCELLED']);
  });

  it('sandbox expire ends the window now: EXPIRED, expiredAt identical on GET, list and event', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const created = await createCashIn(api, { webhookUrl: sink.url });
    const res = await api.post(`/sandbox/cash-in/${created.internalCode}/expire`, {});
    expect(res.status).toBe(200);
    const expired = (await res.json()) as CashInBody;
    expect(expired.status).toBe('EXPIRED');
    expect(expired).not.toHaveProperty('settlement');
    const got = await getCashIn(api, created.internalCode);
    const day = new Date().toISOString().slice(0, 10);
    const list = (await (await api.get(`/cash-in?from=2020-01-01&to=2100-01-01`)).json()) as { items: any[] };
    const evts = await sinkEvents(sink, 2);
    expect(got.expiredAt).toBe(expired.expiredAt);
    expect(list.items.find((i) => i.transactionId === created.transactionId).expiredAt).toBe(
      expired.expiredAt,
    );
    expect(evts.at(-1)!.type).toBe('CASHIN_EXPIRED');
    expect(evts.at(-1)!.data.expiredAt).toBe(expired.expiredAt);
    expect(day).toBeTruthy();
  });

  it('expires by alarm with no manual trigger, after the 5-minute grace, keeping expiredAt = window end', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api, { expirationInMinutes: 1 });
    const windowEnd = Date.now() - 6 * 60_000;
    // Move the clock of this charge back 6 minutes: the window ended, and so did the grace.
    await setCashInExpiry(api.client.clientId, { internalCode: created.internalCode }, windowEnd);
    await setTasksDue(api.client.clientId, { kind: 'expire-cash-in' }, Date.now() + 100);
    await wakeIn(api.client.clientId, 100);
    const done = await waitFor(
      () => getCashIn(api, created.internalCode),
      (c) => c.status === 'EXPIRED',
    );
    expect(done.status).toBe('EXPIRED');
    expect(Date.parse(done.expiredAt)).toBe(windowEnd);
  });

  it('accepts a late settlement in flight during the grace but not a sandbox pay after the window', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api);
    const windowEnd = Date.now() - 60_000;
    await setCashInExpiry(api.client.clientId, { internalCode: created.internalCode }, windowEnd);
    expect((await api.post(`/sandbox/cash-in/${created.internalCode}/pay`, {})).status).toBe(422);
    const stub: any = ledgerStub(api.client.clientId);
    const settle = (instance: any) =>
      instance.settleCashIn({ id: created.internalCode, source: 'network', initiatedAt: windowEnd - 1000 });
    const late: any = await (runInDurableObject as any)(stub, settle);
    expect(late.ok).toBe(true);
    expect((await getCashIn(api, created.internalCode)).status).toBe('PAID');
  });
});
