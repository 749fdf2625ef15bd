/**
 * PUT /admin/partners/{ispb}/webhook (issue 17 §2 "Webhook registration"): the gateway tells a real
 * partner its callback URL through API Pix `PUT /webhook/{chave}` (validated against the vendored
 * document), built with the partner's callback authentication, and the URL the partner got is one
 * whose callbacks this gateway accepts.
 */
import { describe, expect, it } from 'vitest';
import { expectDocumented } from '../openapi/conformance';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { admin, call } from '../support/harness';
import { psp, SECRET } from '../support/partner-psp';

const KEY = 'cobranca@connectpsp.example';
const path = `/admin/partners/${FAKE_PSP_ISPB}/webhook`;

describe('registering our callback URL at a partner', () => {
  it('registers the secret-path URL at the partner and answers it masked', async () => {
    const res = await admin(path, 'PUT', { baseUrl: 'https://api.connectpsp.example/' });
    const body = await expectDocumented(res, 'put', '/admin/partners/{ispb}/webhook');
    expect(body).toMatchObject({
      ispb: FAKE_PSP_ISPB,
      webhookUrl: `https://api.connectpsp.example/partners/${FAKE_PSP_ISPB}/webhook/***`,
      authentication: 'secretPath',
    });
    expect(JSON.stringify(body)).not.toContain(SECRET);
    const registered = (await psp(`webhook/${encodeURIComponent(KEY)}`)).webhookUrl as string;
    expect(registered).toBe(`https://api.connectpsp.example/partners/${FAKE_PSP_ISPB}/webhook/${SECRET}`);
    // What the partner posts to ({webhookUrl}/pix) authenticates here.
    const callback = await call(`${new URL(registered).pathname}/pix`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pix: [] }),
    });
    expect(callback.status).toBe(200);
  });

  it('refuses a sandbox or unknown partner (404), a non-operator (401) and a base URL with a path (400)', async () => {
    expect(
      (await admin('/admin/partners/31880826/webhook', 'PUT', { baseUrl: 'https://a.example' })).status,
    ).toBe(404);
    const anonymous = await call(path, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ baseUrl: 'https://a.example' }),
    });
    expect(anonymous.status).toBe(401);
    const withPath = await admin(path, 'PUT', { baseUrl: 'https://a.example/partners' });
    expect(withPath.status).toBe(400);
    expect(((await withPath.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
  });

  it('answers 503 when the partner refuses it', async () => {
    await psp('fail-next', { match: '/webhook/', status: 400, name: 'WebhookOperacaoInvalida' });
    const res = await admin(path, 'PUT', { baseUrl: 'https://api.connectpsp.example' });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
  });
});
