/**
 * In staging with a real partner declared (the fake API Pix PSP, TEST_PSP_CERT), the sandbox acts
 * only on the sandbox partners' resources: paying, returning or expiring a real partner's charge,
 * depositing on an account at that partner, or authorizing its charge on the open-finance page
 * answers exactly like a nonexistent resource, and nothing moves. Money at a real bank moves only
 * on that bank's word.
 */
import { describe, expect, it } from 'vitest';
import { accountOf } from '../support/account';
import { createCashIn, getCashIn, waitFor } from '../support/cash-in';
import { createCashOut, getCashOut, settled } from '../support/cash-out';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { call, cashInBody, Integrator } from '../support/harness';
import { callback, onboard, paidAtPsp, psp } from '../support/partner-psp';

async function expectNotFound(res: Response, code: string) {
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(await res.json()).toMatchObject({ status: 404, code });
}

/** The client's balances, without the instant they were read at. */
async function balance(api: Integrator) {
  const { asOf: _asOf, ...rest } = (await (await api.get('/account/balance')).json()) as Record<
    string,
    unknown
  >;
  return rest;
}

describe("sandbox routes on a real partner's resources", () => {
  it("pay, return and expire of a real partner's Cash-In answer 404 CASHIN_NOT_FOUND; it stays unpaid here and at the PSP", async () => {
    const api = await onboard();
    const cashIn = await createCashIn(api, { amount: 50 });
    const before = await balance(api);
    await expectNotFound(
      await api.post(`/sandbox/cash-in/${cashIn.transactionId}/pay`, {}),
      'CASHIN_NOT_FOUND',
    );
    await expectNotFound(
      await api.post(`/sandbox/cash-in/${cashIn.internalCode}/pay`, {}),
      'CASHIN_NOT_FOUND',
    );
    await expectNotFound(
      await api.post(`/sandbox/cash-in/${cashIn.transactionId}/return`, { reason: 'FRAUD' }),
      'CASHIN_NOT_FOUND',
    );
    await expectNotFound(
      await api.post(`/sandbox/cash-in/${cashIn.transactionId}/expire`, {}),
      'CASHIN_NOT_FOUND',
    );
    // The same answer as an id that never existed.
    await expectNotFound(
      await api.post(`/sandbox/cash-in/${crypto.randomUUID()}/pay`, {}),
      'CASHIN_NOT_FOUND',
    );
    expect((await getCashIn(api, cashIn.transactionId)).status).toBe('AWAITING_PAYMENT');
    expect((await psp(`cob/${cashIn.transactionId}`)).status).toBe('ATIVA');
    expect(await balance(api)).toEqual(before);
  });

  it('a deposit on an account at the real partner answers 404 ACCOUNT_NOT_FOUND and credits nothing', async () => {
    const api = await onboard();
    const account = accountOf(api, 'TRANSACTIONAL');
    expect(account.bank.ispb).toBe(FAKE_PSP_ISPB);
    const before = await balance(api);
    await expectNotFound(
      await api.post(`/sandbox/accounts/${account.number}/deposit`, { amount: 1000 }),
      'ACCOUNT_NOT_FOUND',
    );
    expect(await balance(api)).toEqual(before);
  });

  it("a real partner's charge has no open-finance page, and authorizing one pays nothing", async () => {
    const api = await onboard();
    // The open-finance flow itself is refused on a real partner before anything is registered.
    const res = await api.post(
      '/cash-in',
      cashInBody({ amount: 12.5, openFinance: { redirectUrl: 'https://loja.example/r' } }),
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'RULE_VIOLATION' });
    // A standard charge there, addressed as an open-finance page would be, is no page either.
    const cashIn = await createCashIn(api, { amount: 12.5 });
    const pathname = `/open-finance/${cashIn.transactionId.slice(0, 22)}${cashIn.internalCode}`;
    await expectNotFound(await call(pathname), 'NOT_FOUND');
    await expectNotFound(
      await call(`${pathname}/authorize`, { method: 'POST', redirect: 'manual' }),
      'NOT_FOUND',
    );
    expect((await getCashIn(api, cashIn.transactionId)).status).toBe('AWAITING_PAYMENT');
    expect((await psp(`cob/${cashIn.transactionId}`)).status).toBe('ATIVA');
  });

  it("a bank return of a real partner's completed Cash-Out answers 404 CASHOUT_NOT_FOUND and gives nothing back", async () => {
    const api = await onboard();
    const { e2e } = await paidAtPsp(api, 30);
    expect((await callback(e2e))[0]?.outcomes).toEqual(['paid']);
    const cashOut = await createCashOut(api, { amount: 10 });
    await waitFor(
      () => psp(`sent/${cashOut.transactionId}`),
      (s) => s !== null,
    );
    await psp('payout', { transactionId: cashOut.transactionId, ok: true });
    expect((await settled(api, cashOut.transactionId)).status).toBe('COMPLETED');
    const before = await balance(api);
    await expectNotFound(
      await api.post(`/sandbox/cash-out/${cashOut.transactionId}/return`, { reason: 'FRAUD' }),
      'CASHOUT_NOT_FOUND',
    );
    expect((await getCashOut(api, cashOut.transactionId)).status).toBe('COMPLETED');
    expect(await balance(api)).toEqual(before);
  });

  it("a sandbox partner's resources still work for a client on both", async () => {
    const api = await Integrator.create();
    const cashIn = await createCashIn(api, { amount: 10 });
    expect((await api.post(`/sandbox/cash-in/${cashIn.transactionId}/pay`, {})).status).toBe(200);
    const account = accountOf(api, 'TRANSACTIONAL');
    expect((await api.post(`/sandbox/accounts/${account.number}/deposit`, { amount: 5 })).status).toBe(201);
  });
});
