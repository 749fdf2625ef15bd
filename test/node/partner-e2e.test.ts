import { describe, expect, it } from 'vitest';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { gatewayOnMockPsp } from '../support/gateway-on-mock-psp';

const gw = gatewayOnMockPsp('partner-e2e');
const { until, control, integrator } = gw;

const secretPath = () =>
  `/partners/${FAKE_PSP_ISPB}/webhook/${gw.psp.partnerVars[`PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET`]}/pix`;
async function callback(...endToEndIds: string[]) {
  const res = await fetch(`${gw.base}${secretPath()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await control('callback', { endToEndIds })),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { pix: { outcomes: string[] }[] }).pix.map((p) => p.outcomes);
}

describe('a bcb-api-pix partner through npm start', () => {
  it('pays a Cash-In on a re-read callback, refunds it, records a bank return in flight, and pays out', async () => {
    const api = await integrator('Loja Parceiro Real Ltda');
    const created = await api.post('/cash-in', {
      amount: 150.25,
      externalReference: `e2e-${Date.now()}`,
      payer: { name: 'Maria da Silva', document: '12345678909' },
      includeQrCodeImage: false,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const cashIn = (await created.json()) as any;

    // The payer pays at the PSP; the callback is a hint, the gateway reads the Pix again.
    const e2e = 'E60701190202611251200e2eTEST0001';
    await control('pay', { txid: cashIn.transactionId, endToEndId: e2e });
    expect(await callback(e2e)).toEqual([['paid']]);
    expect(await callback(e2e)).toEqual([['already-paid']]);
    expect(await api.get(`/cash-in/${cashIn.internalCode}`)).toMatchObject({
      status: 'PAID',
      endToEndId: e2e,
    });

    // A refund, in flight at the PSP, overtaken by a bank return (MED): recorded, never refused.
    const refund = await api.post(
      `/cash-in/${cashIn.internalCode}/refund`,
      { reason: 'MERCHANT_ERROR' },
      true,
    );
    expect(refund.status, await refund.clone().text()).toBe(202);
    const devolutionId = ((await refund.json()) as any).endToEndId;
    expect((await control(`pix/${e2e}`)).devolucoes).toMatchObject([
      { id: devolutionId, status: 'EM_PROCESSAMENTO' },
    ]);
    const med = await control('return', {
      endToEndId: e2e,
      id: 'MEDfraude0001',
      valor: '150.25',
      natureza: 'MED_FRAUDE',
    });
    expect(await callback(e2e)).toEqual([['already-paid', 'refund-checked', 'returned']]);
    expect(await api.get(`/cash-in/${cashIn.internalCode}`)).toMatchObject({
      status: 'REFUNDED',
      reason: 'FRAUD',
      endToEndId: med.rtrId,
    });
    // Our overtaken devolution could still leave: its money stays held until the network decides.
    // It refuses it (the bank returned everything already), and the hold goes.
    const transactional = (b: any) =>
      b.partners.flatMap((p: any) => p.accounts).find((a: any) => a.type === 'TRANSACTIONAL');
    expect(transactional(await api.get('/account/balance'))).toMatchObject({
      balance: 0,
      available: -150.25,
    });
    await control('devolution', { endToEndId: e2e, id: devolutionId, ok: false });
    await until(
      'the overtaken devolution ended',
      async () => transactional(await api.get('/account/balance')),
      (a) => a.available === 0,
    );

    // Money in again, then a Cash-Out through the partner's payout API (Efí Pix Send).
    const second = (await (
      await api.post('/cash-in', {
        amount: 80,
        externalReference: `e2e-2-${Date.now()}`,
        payer: { name: 'Maria da Silva', document: '12345678909' },
        includeQrCodeImage: false,
      })
    ).json()) as any;
    await control('pay', { txid: second.transactionId, endToEndId: 'E60701190202611251201e2eTEST0002' });
    expect(await callback('E60701190202611251201e2eTEST0002')).toEqual([['paid']]);
    const out = await api.post(
      '/cash-out',
      {
        amount: 30,
        externalReference: `e2e-out-${Date.now()}`,
        payee: {
          name: 'Ana Beneficiária',
          document: '12345678909',
          destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com' },
        },
      },
      true,
    );
    expect(out.status, await out.clone().text()).toBe(202);
    const { transactionId } = (await out.json()) as any;
    await until(
      'sent to the payout API',
      () => control(`sent/${transactionId}`),
      (s) => s !== null,
    );
    await control('payout', { transactionId, ok: true });
    const done = await until(
      'Cash-Out COMPLETED',
      () => api.get(`/cash-out/${transactionId}`),
      (c) => c.status === 'COMPLETED',
    );
    expect(done.endToEndId).toBe((await control(`sent/${transactionId}`)).endToEndId);

    expect((await control('invalid')).invalid).toEqual([]);
  });
});
