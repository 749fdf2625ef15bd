/**
 * A real partner's charge is paid where the Pix network looks for it: the BR Code a Cash-In hands
 * out is the `pixCopiaECola` its PSP returned on `PUT /cob/{txid}`, naming the PSP's own location
 * (a payer's bank reads the payload there, signed with that PSP's certificate); the QR image encodes
 * exactly that string; the payer goes to the PSP as `devedor`; the gateway serves no payload of its
 * own for such a charge; a settled refund carries the network's rtrId; the declared partner is
 * named as declared. Every exchange with the fake PSP validates against bacen/pix-api 2.9.0.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseBrCode } from '../../src/domain/brcode';
import { clientKey } from '../../src/domain/location';
import { getBalance } from '../support/account';
import { createCashIn, getCashIn, problemCode, waitFor } from '../support/cash-in';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { call, cashInBody } from '../support/harness';
import { cashInRow } from '../support/ledger-reads';
import { callback, onboard, paidAtPsp, psp, statementOf } from '../support/partner-psp';
import { scan } from '../support/qr-scan';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

const RECEITA_EXAMPLE = '12ABC34501DE35';

describe("a real partner's BR Code", () => {
  it("answers the PSP's pixCopiaECola as copyAndPaste, and the QR decodes to exactly that", async () => {
    const api = await onboard();
    const res = await api.post(
      '/cash-in',
      cashInBody({ amount: 87.5, payer: { name: 'Maria da Silva', document: '12345678909' } }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as {
      transactionId: string;
      pixData: { copyAndPaste: string; qrCodeImageBase64: string };
    };
    const cob = await psp(`cob/${created.transactionId}`);
    expect(created.pixData.copyAndPaste).toBe(cob.pixCopiaECola);
    expect(scan(created.pixData.qrCodeImageBase64).text).toBe(cob.pixCopiaECola);
    // It names the PSP's location, not one of the gateway's.
    const parsed = parseBrCode(created.pixData.copyAndPaste);
    expect(parsed.ok && parsed.fields.merchantAccount.url).toBe(cob.location.replace('https://', ''));
    expect(created.pixData.copyAndPaste).not.toContain('/pix/qr/');
    // The payer went as devedor (a CPF, as the document's pattern intends: 11 digits).
    expect(cob.devedor).toEqual({ cpf: '12345678909', nome: 'Maria da Silva' });

    const again = await api.post(
      '/cash-in',
      cashInBody({ amount: 1, payer: { name: 'Nova Ltda', document: RECEITA_EXAMPLE.toLowerCase() } }),
    );
    expect(again.status).toBe(201);
    const second = (await again.json()) as { transactionId: string };
    // An alphanumeric CNPJ goes as devedor.cnpj, upper-case (2.9.0's ^[0-9A-Z]{14}$).
    expect((await psp(`cob/${second.transactionId}`)).devedor).toEqual({
      cnpj: RECEITA_EXAMPLE,
      nome: 'Nova Ltda',
    });
  });

  it('keeps the PSP location with the charge; the gateway serves no payload for it', async () => {
    const api = await onboard();
    const cashIn = await createCashIn(api, { amount: 10 });
    const cob = await psp(`cob/${cashIn.transactionId}`);
    const row = await cashInRow(api.client.clientId, cashIn.transactionId);
    expect(row?.pspLocation).toBe(cob.location.replace('https://', ''));
    // The gateway serves no payload of its own for it, under the client's key (which begins the
    // TxId) or a locator of the old format: only the PSP can sign what a payer's bank reads.
    const key = cashIn.transactionId.slice(0, 22);
    expect((await call(`/pix/qr/${key}${cashIn.internalCode}`)).status).toBe(404);
    expect((await call(`/pix/qr/${clientKey(api.client.clientId)}${cashIn.internalCode}`)).status).toBe(404);
  });

  it('refuses an open-finance Cash-In on a real partner before anything reaches the PSP', async () => {
    const api = await onboard();
    const body = cashInBody({ amount: 10, openFinance: { redirectUrl: 'https://shop.example/back' } });
    const res = await api.post('/cash-in', body);
    expect(res.status).toBe(422);
    expect(await problemCode(res)).toBe('RULE_VIOLATION');
    const list = await api.get(`/cash-in/${encodeURIComponent(String(body.externalReference))}`);
    expect(list.status).toBe(404);
  });

  it('a token the PSP revoked (403 AcessoNegado) is replaced once and the Cash-In is created', async () => {
    const api = await onboard();
    // (401 from an OAuth2 gateway, which the document does not declare: bcb-api-pix-conformance.test.ts.)
    const before = (await psp('revoke-tokens', {})).tokensIssued as number;
    const cashIn = await createCashIn(api, { amount: 3 });
    expect((await psp(`cob/${cashIn.transactionId}`)).status).toBe('ATIVA');
    expect((await psp('revoke-tokens', {})).tokensIssued).toBeGreaterThan(before);
  });
});

describe("a real partner's refund and names", () => {
  it("a refunded Cash-In carries the PSP's rtrId as endToEndId, in its view, lookup and statement", async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 25);
    await callback(e2e);
    const refund = await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, {
      reason: 'MERCHANT_ERROR',
    });
    expect(refund.status).toBe(202);
    const devolutionId = ((await refund.json()) as { endToEndId: string }).endToEndId;
    await psp('devolution', { endToEndId: e2e, id: devolutionId, ok: true });
    const view = await waitFor(
      () => getCashIn(api, cashIn.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    const rtrId = (await psp(`pix/${e2e}`)).devolucoes[0].rtrId as string;
    expect(rtrId).toMatch(/^D09089356\d{12}[A-Za-z0-9]{11}$/);
    expect(rtrId).not.toBe(devolutionId);
    expect(view).toMatchObject({ status: 'REFUNDED', endToEndId: rtrId, originalEndToEndId: e2e });
    // Found by the network's id too.
    expect((await getCashIn(api, rtrId)).transactionId).toBe(cashIn.transactionId);
    const out = (await statementOf(api)).find((e) => e.type === 'PIX_REFUND_OUT');
    expect(out?.endToEndId).toBe(rtrId);
  });

  it('GET /account/balance names the declared partner as declared, like the settlement does', async () => {
    const api = await onboard();
    const balance = await getBalance(api);
    expect(balance.partners).toHaveLength(1);
    expect(balance.partners[0]).toMatchObject({ ispb: FAKE_PSP_ISPB, bank: 'PSP de Testes S.A.' });
    const { cashIn, e2e } = await paidAtPsp(api, 5);
    await callback(e2e);
    expect((await getCashIn(api, cashIn.internalCode)).settlement).toMatchObject({
      ispb: FAKE_PSP_ISPB,
      bank: 'PSP de Testes S.A.',
    });
  });
});
