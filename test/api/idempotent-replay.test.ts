/**
 * Every idempotent route replays its first answer byte for byte (docs/contract.md, Idempotency), also
 * after the transaction moved on (paid, completed, refunded) and after the archive took it: a replay
 * rebuilt from the transaction as it is now would show its new status and fail here. Each test checks
 * the books against the sandbox partner's before the archive takes the transactions.
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/recurrence';
import { brtDate } from '../../src/domain/time';
import { accountOf } from '../support/account';
import { getCashIn, payCashIn, waitFor } from '../support/cash-in';
import { cashOutBody, deposit, settled } from '../support/cash-out';
import { batchItems } from '../support/cash-out-batch';
import { admin, cashInBody, Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { archiveNow } from '../support/psp-books';
import { recurrenceBody } from '../support/recurrence';

/** The headers the contract names on an answer, and its exact bytes. */
async function answer(res: Response) {
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    replayed: res.headers.get('idempotent-replayed'),
    text: await res.text(),
  };
}

/** Sends the request again under its key and expects the first answer's bytes, marked replayed. */
async function expectReplay(send: () => Promise<Response>, first: Awaited<ReturnType<typeof answer>>) {
  const again = await answer(await send());
  expect(again).toEqual({ ...first, replayed: 'true' });
}

const keyed = () => ({ 'x-idempotency-key': crypto.randomUUID() });

describe('idempotent replays are the first answer, whatever the transaction became', () => {
  it('POST /cash-in (BR Code with its QR image): after PAID, after REFUNDED and after the archive took it', async () => {
    const api = await Integrator.create();
    const key = keyed();
    const body = cashInBody({ includeQrCodeImage: true });
    const send = () => api.post('/cash-in', body, key);
    const first = await answer(await send());
    expect(first).toMatchObject({ status: 201, replayed: null });
    expect(first.text).toContain('"qrCodeImageBase64":"iVBOR');
    const { internalCode } = JSON.parse(first.text) as { internalCode: string };

    await payCashIn(api, internalCode);
    await expectReplay(send, first);
    const refund = await api.signedPost(`/cash-in/${internalCode}/refund`, { reason: 'CUSTOMER_REQUEST' });
    expect(refund.status).toBe(202);
    await waitFor(
      () => getCashIn(api, internalCode),
      (c) => c.status === 'REFUNDED',
    );
    await expectReplay(send, first);
    await assertBooks(api);
    expect(await archiveNow(api)).toBeGreaterThan(0);
    expect((await api.get(`/cash-in/${internalCode}`)).status).toBe(200);
    await expectReplay(send, first);
  });

  it('POST /cash-in: the BR Code of the first answer replayed after the merchant text changed, a new key names the new one', async () => {
    const api = await Integrator.create({ merchantName: 'Loja Antiga Ltda', merchantCity: 'Sao Paulo' });
    const key = keyed();
    const body = cashInBody({ includeQrCodeImage: false });
    const send = () => api.post('/cash-in', body, key);
    const first = await answer(await send());
    expect(first.text).toContain('LOJA ANTIGA LTDA');
    const patched = await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', {
      merchantName: 'Loja Nova Ltda',
      merchantCity: 'Campinas',
    });
    expect(patched.status).toBe(200);
    await expectReplay(send, first);
    const otherKey = keyed();
    const other = cashInBody({ includeQrCodeImage: false });
    const renamed = await answer(await api.post('/cash-in', other, otherKey));
    expect(renamed.text).toContain('LOJA NOVA LTDA');
    await expectReplay(send, first);
    await expectReplay(() => api.post('/cash-in', other, otherKey), renamed);
  });

  it('POST /cash-in (open finance): its paymentUrl replayed after PAID and archived', async () => {
    const api = await Integrator.create();
    const key = keyed();
    const body = cashInBody({ openFinance: { redirectUrl: 'https://loja.example.com.br/volta' } });
    const send = () => api.post('/cash-in', body, key);
    const first = await answer(await send());
    expect(first.status).toBe(201);
    expect(first.text).toContain('"openFinanceData":{"paymentUrl":"http');
    const { internalCode } = JSON.parse(first.text) as { internalCode: string };
    await payCashIn(api, internalCode);
    await expectReplay(send, first);
    await assertBooks(api); // the hot books: it reads no archive
    expect(await archiveNow(api)).toBeGreaterThan(0);
    await expectReplay(send, first);
  });

  it('POST /cash-in/{id}/refund: the 202 (PROCESSING) replayed after REFUNDED and archived', async () => {
    const api = await Integrator.create();
    const created = await api.post('/cash-in', cashInBody({ includeQrCodeImage: false }));
    const { internalCode } = (await created.json()) as { internalCode: string };
    await payCashIn(api, internalCode);
    const key = keyed();
    const send = () => api.signedPost(`/cash-in/${internalCode}/refund`, { reason: 'FRAUD' }, key);
    const first = await answer(await send());
    expect(first.status).toBe(202);
    expect(first.text).toContain('"status":"PROCESSING"');
    await waitFor(
      () => getCashIn(api, internalCode),
      (c) => c.status === 'REFUNDED',
    );
    await expectReplay(send, first);
    await assertBooks(api); // the hot books: it reads no archive
    expect(await archiveNow(api)).toBeGreaterThan(0);
    await expectReplay(send, first);
  });

  it('POST /cash-out: the 202 (PROCESSING) replayed after COMPLETED and archived', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const key = keyed();
    const body = cashOutBody({ amount: 12.34 });
    const send = () => api.signedPost('/cash-out', body, key);
    const first = await answer(await send());
    expect(first.status).toBe(202);
    const { transactionId } = JSON.parse(first.text) as { transactionId: string };
    expect((await settled(api, transactionId)).status).toBe('COMPLETED');
    await expectReplay(send, first);
    await assertBooks(api); // the hot books: it reads no archive
    expect(await archiveNow(api)).toBeGreaterThan(0);
    await expectReplay(send, first);
  });

  it('POST /cash-out/batch: the 202 replayed after every item settled and was archived', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const key = keyed();
    const items = batchItems(3);
    const send = () => api.signedPost('/cash-out/batch', { items }, key);
    const first = await answer(await send());
    expect(first.status).toBe(202);
    const accepted = JSON.parse(first.text) as { items: { transactionId: string }[] };
    for (const item of accepted.items)
      expect((await settled(api, item.transactionId)).status).toBe('COMPLETED');
    await expectReplay(send, first);
    await assertBooks(api); // the hot books: it reads no archive
    expect(await archiveNow(api)).toBeGreaterThan(0);
    await expectReplay(send, first);
  });

  it('POST /account/rebalance/top-up: the 201 replayed after later movements changed the balances', async () => {
    const api = await Integrator.create();
    const proprietary = accountOf(api, 'PROPRIETARY');
    expect((await api.post(`/sandbox/accounts/${proprietary.number}/deposit`, { amount: 50 })).status).toBe(
      201,
    );
    const key = keyed();
    const send = () => api.signedPost('/account/rebalance/top-up', { amount: 10 }, key);
    const first = await answer(await send());
    expect(first.status).toBe(201);
    expect((await api.signedPost('/account/rebalance/top-up', { amount: 5 })).status).toBe(201);
    await expectReplay(send, first);
    await assertBooks(api);
  });

  it('POST /recurrences and POST /recurrences/{id}/charges: replayed after APPROVED, a failed attempt and PAID', async () => {
    const api = await Integrator.create();
    const start = addDays(brtDate(Date.now()), 5);
    const key = keyed();
    const body = recurrenceBody({ startDate: start });
    const create = () => api.post('/recurrences', body, key);
    const first = await answer(await create());
    expect(first.status).toBe(201);
    expect(first.text).toContain('"status":"WAITING_AUTHORIZATION"');
    const { recurrenceId } = JSON.parse(first.text) as { recurrenceId: string };
    expect((await api.post(`/sandbox/recurrences/${recurrenceId}/approve`, {})).status).toBe(200);
    await expectReplay(create, first);

    const chargeKey = keyed();
    const chargeBody = { amount: 29.9, dueDate: start, externalReference: `cobr-${crypto.randomUUID()}` };
    const charge = () => api.post(`/recurrences/${recurrenceId}/charges`, chargeBody, chargeKey);
    const charged = await answer(await charge());
    expect(charged.status).toBe(201);
    expect(charged.text).toContain('"failedAttempts":0');
    const { transactionId, internalCode } = JSON.parse(charged.text) as {
      transactionId: string;
      internalCode: string;
    };
    expect((await api.post(`/sandbox/cash-in/${transactionId}/fail-attempt`, {})).status).toBe(200);
    await payCashIn(api, internalCode);
    expect((await getCashIn(api, internalCode)).recurrence).toMatchObject({ failedAttempts: 1 });
    await expectReplay(charge, charged);
    await assertBooks(api);
    expect(await archiveNow(api)).toBeGreaterThan(0);
    await expectReplay(charge, charged);
  });
});
