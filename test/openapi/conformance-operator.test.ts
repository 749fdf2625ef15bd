/** Operator API and public (unauthenticated) endpoints against the served OpenAPI document. */
import { describe, expect, it } from 'vitest';
import type { CashInCreatedBody } from '../../src/api/cash-in/create-cash-in';
import type { CashOutAcceptedBody } from '../../src/api/cash-out/schemas';
import { parseBrCode } from '../../src/domain/brcode';
import { createCashIn } from '../support/cash-in';
import { cashOutBody, deposit, settled } from '../support/cash-out';
import { admin, call, cashInBody, Integrator } from '../support/harness';
import { expectDocumented } from './conformance';

describe('operator responses conform to the document', () => {
  it('onboarding, read, patch, credentials', async () => {
    const created = await expectDocumented(
      await admin('/admin/clients', 'POST', { name: 'Loja Documentada Ltda' }),
      'post',
      '/admin/clients',
    );
    const path = `/admin/clients/${created?.clientId}`;
    await expectDocumented(await admin(path), 'get', '/admin/clients/{clientId}');
    const patched = await expectDocumented(
      await admin(path, 'PATCH', {
        limits: { daily: 1000, monthly: null },
        approvalThreshold: 50,
        blockedPayerDocuments: ['12345678909'],
        healthWebhookUrl: 'https://loja.example.com.br/health',
        rateLimitPerSecond: 100,
      }),
      'patch',
      '/admin/clients/{clientId}',
    );
    expect(patched?.approvalThreshold).toBe(50);
    await expectDocumented(
      await admin(`${path}/crypto-token`, 'POST'),
      'post',
      '/admin/clients/{clientId}/crypto-token',
    );
    await expectDocumented(
      await admin(`${path}/crypto-token`, 'DELETE'),
      'delete',
      '/admin/clients/{clientId}/crypto-token',
    );
    await expectDocumented(
      await admin(`${path}/application-token`, 'DELETE'),
      'delete',
      '/admin/clients/{clientId}/application-token',
    );
  });

  it('approve and reject PENDING Cash-Outs; webhook deliveries; partner faults', async () => {
    const api = await Integrator.create();
    const path = `/admin/clients/${api.client.clientId}`;
    await deposit(api, 100);
    await admin(path, 'PATCH', { approvalThreshold: 1 });
    const a = (await (await api.signedPost('/cash-out', cashOutBody())).json()) as CashOutAcceptedBody;
    const b = (await (await api.signedPost('/cash-out', cashOutBody())).json()) as CashOutAcceptedBody;
    await settled(api, a.transactionId, ['PENDING']);
    await settled(api, b.transactionId, ['PENDING']);
    await admin(path, 'PATCH', { approvalThreshold: null });
    await expectDocumented(
      await admin(`${path}/cash-out/${a.internalCode}/approve`, 'POST'),
      'post',
      '/admin/clients/{clientId}/cash-out/{id}/approve',
    );
    const rejected = await expectDocumented(
      await admin(`${path}/cash-out/${b.internalCode}/reject`, 'POST'),
      'post',
      '/admin/clients/{clientId}/cash-out/{id}/reject',
    );
    expect(rejected?.failure.code).toBe('APPROVAL_REJECTED');

    await createCashIn(api);
    const deliveries = await expectDocumented(
      await admin(`${path}/webhook-deliveries?limit=1`),
      'get',
      '/admin/clients/{clientId}/webhook-deliveries',
    );
    const eventId = deliveries?.items[0]?.eventId ?? 'none';
    const retry = await admin(`${path}/webhook-deliveries/${eventId}/retry`, 'POST');
    expect([200, 422]).toContain(retry.status);
    await expectDocumented(retry, 'post', '/admin/clients/{clientId}/webhook-deliveries/{eventId}/retry');

    const fault = await admin('/admin/partners/56431109/faults', 'POST', {
      operation: 'CASH_IN',
      failureRate: 0,
      minutes: 1,
    });
    await expectDocumented(fault, 'post', '/admin/partners/{ispb}/faults');
    await expectDocumented(
      await admin('/admin/partners/56431109/faults', 'DELETE'),
      'delete',
      '/admin/partners/{ispb}/faults',
    );
  });
});

describe('public endpoints conform to the document', () => {
  it('token, BR Code location, key set, open-finance page and redirects', async () => {
    const api = await Integrator.create();
    await expectDocumented(
      await call('/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: api.client.clientId, clientSecret: api.client.clientSecret }),
      }),
      'post',
      '/auth/token',
    );
    const charge = await createCashIn(api);
    const brCode = parseBrCode(charge.pixData!.copyAndPaste);
    const location = new URL(`http://${brCode.ok ? brCode.fields.merchantAccount.url : ''}`);
    await expectDocumented(await call(location.pathname), 'get', '/pix/qr/{locator}');
    await expectDocumented(await call('/pix/qr/AAAAAAAAAAAAAAAAAAAAAAZZZZZZZ'), 'get', '/pix/qr/{locator}');
    await expectDocumented(await call('/.well-known/jwks.json'), 'get', '/.well-known/jwks.json');

    const open = (await (
      await api.post(
        '/cash-in',
        cashInBody({ openFinance: { redirectUrl: 'https://loja.example.com.br/retorno' } }),
      )
    ).json()) as CashInCreatedBody;
    const page = new URL(open.openFinanceData!.paymentUrl).pathname;
    await expectDocumented(await call(page), 'get', '/open-finance/{locator}');
    await expectDocumented(
      await call(`${page}/decline`, { method: 'POST', redirect: 'manual' }),
      'post',
      '/open-finance/{locator}/decline',
    );
    await expectDocumented(
      await call(`${page}/authorize`, { method: 'POST', redirect: 'manual' }),
      'post',
      '/open-finance/{locator}/authorize',
    );
    await expectDocumented(await call(page), 'get', '/open-finance/{locator}');
    await expectDocumented(
      await call(`${page}/authorize`, { method: 'POST', redirect: 'manual' }),
      'post',
      '/open-finance/{locator}/authorize',
    );
    await expectDocumented(await call('/open-finance/nope'), 'get', '/open-finance/{locator}');
  });
});
