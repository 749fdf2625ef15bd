/**
 * Cash-Outs through a real partner's payout API (issue 17 §3): the partner declared in the test
 * environment sends with Efí's Pix Send (test/support/fake-efi-payout.ts, every exchange validated
 * against Efí's SDK schemas by the Node side). Through real HTTP: the Cash-Out is sent once under
 * its own id, completes with the end-to-end id the bank reports, fails with the mapped code and
 * its money back, and a payee Efí cannot express fails before anything is sent.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { accountOf, balanceOf, getBalance } from '../support/account';
import { waitFor } from '../support/cash-in';
import { createCashOut, getCashOut, settled } from '../support/cash-out';
import { assertBooks } from '../support/invariants';
import { callback, onboard, paidAtPsp, psp, statementOf } from '../support/partner-psp';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

async function funded(amount: number) {
  const api = await onboard();
  const { e2e } = await paidAtPsp(api, amount);
  expect((await callback(e2e))[0]?.outcomes).toEqual(['paid']);
  return api;
}

const sentAtPsp = (transactionId: string) =>
  waitFor(
    () => psp(`sent/${transactionId}`),
    (s) => s !== null,
  );

describe('Cash-Out through the payout adapter (Efí Pix Send)', () => {
  it('sends once under its own id and completes with the end-to-end id the bank reports', async () => {
    const api = await funded(100);
    const cashOut = await createCashOut(api, { amount: 40.5 });
    const sent = await sentAtPsp(cashOut.transactionId);
    expect(sent).toMatchObject({
      idEnvio: cashOut.transactionId.replace(/-/g, ''),
      valor: '40.50',
      status: 'EM_PROCESSAMENTO',
      chave: 'pagamentos@connectpsp.example',
    });
    expect((await getCashOut(api, cashOut.transactionId)).status).toBe('PROCESSING');
    await psp('payout', { transactionId: cashOut.transactionId, ok: true });
    const done = await settled(api, cashOut.transactionId);
    expect(done).toMatchObject({ status: 'COMPLETED', endToEndId: sent.endToEndId });
    // Once at the partner: a single send under the Cash-Out's own id, made.
    expect(await psp(`sent/${cashOut.transactionId}`)).toMatchObject({ status: 'REALIZADO', valor: '40.50' });
    expect((await statementOf(api)).map((e) => [e.type, e.amount])).toEqual([
      ['PIX_IN', 100],
      ['PIX_OUT', 40.5],
    ]);
    await assertBooks(api);
  });

  it('fails with the mapped code and gives the money back when the bank does not make it', async () => {
    const api = await funded(50);
    const cashOut = await createCashOut(api, { amount: 20 });
    await sentAtPsp(cashOut.transactionId);
    await psp('payout', { transactionId: cashOut.transactionId, ok: false });
    const done = await settled(api, cashOut.transactionId);
    expect(done).toMatchObject({ status: 'CANCELLED', failure: { code: 'PAYEE_BANK_REJECTED' } });
    expect(balanceOf(await getBalance(api), accountOf(api, 'TRANSACTIONAL').number).balance).toBe(50);
    await assertBooks(api);
  });

  it('a payment account Efí cannot pay fails before anything reaches the partner', async () => {
    const api = await funded(30);
    const cashOut = await createCashOut(api, {
      amount: 10,
      payee: {
        name: 'Ana Beneficiária',
        document: '12345678909',
        destination: {
          type: 'BANK_ACCOUNT',
          bankAccount: { ispb: '60701190', branch: '1', account: '12345-6', accountType: 'PAYMENT' },
        },
      },
    });
    const done = await settled(api, cashOut.transactionId);
    expect(done).toMatchObject({ status: 'CANCELLED', failure: { code: 'PAYEE_ACCOUNT_INVALID' } });
    expect(await psp(`sent/${cashOut.transactionId}`)).toBeNull();
    await assertBooks(api);
  });
});
