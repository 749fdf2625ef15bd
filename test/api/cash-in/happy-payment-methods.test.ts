import { describe, expect, it } from 'vitest';
import type { CashInCreatedBody } from '../../../src/api/cash-in/create-cash-in';
import { parseBrCode } from '../../../src/domain/brcode';
import { createCashIn, getCashIn } from '../../support/cash-in';
import { call, cashInBody, Integrator } from '../../support/harness';
import { verifiedLocationPayload } from '../../support/location-jws';

describe('BR Code location (decisions §5)', () => {
  it('serves the charge as an ES256 JWS verifiable with /.well-known/jwks.json', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api, { amount: 12.34 });
    const parsed = parseBrCode(created.pixData!.copyAndPaste);
    expect(parsed.ok).toBe(true);
    const location = parsed.ok ? (parsed.fields.merchantAccount.url ?? '') : '';
    expect(location.length).toBeLessThanOrEqual(77);
    const url = new URL(`http://${location}`);
    const body = await verifiedLocationPayload(url.pathname);
    expect(body.txid).toBe(created.transactionId);
    expect(body.valor.original).toBe('12.34');
    expect(body.status).toBe('ATIVA');
    expect((await call('/pix/qr/AAAAAAAAAAAAAAAAAAAAAAZZZZZZZ')).status).toBe(404);
  });
});

describe('open-finance flow (spec §4.4)', () => {
  it('returns paymentUrl instead of pixData; the page authorizes, pays and redirects', async () => {
    const api = await Integrator.create();
    const res = await api.post(
      '/cash-in',
      cashInBody({ amount: 77.7, openFinance: { redirectUrl: 'https://loja.example/retorno?x=1' } }),
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as CashInCreatedBody;
    expect(created.pixData).toBeUndefined();
    const paymentUrl = new URL(created.openFinanceData!.paymentUrl);
    const pageRes = await call(paymentUrl.pathname);
    expect(pageRes.status).toBe(200);
    const html = await pageRes.text();
    expect(html).toContain('R$ 77,70');
    expect(html).toContain('Loja Teste Ltda');
    const authorize = await call(`${paymentUrl.pathname}/authorize`, { method: 'POST', redirect: 'manual' });
    expect(authorize.status).toBe(303);
    const location = new URL(authorize.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('https://loja.example/retorno');
    expect(location.searchParams.get('x')).toBe('1');
    expect(location.searchParams.get('transactionId')).toBe(created.transactionId);
    expect(location.searchParams.get('status')).toBe('PAID');
    expect((await getCashIn(api, created.internalCode)).status).toBe('PAID');
    expect((await call(paymentUrl.pathname)).status).toBe(410);
  });
});
