/**
 * The webhook URL guard at request time: POST /cash-in `webhookUrl` and PATCH /admin/clients
 * `healthWebhookUrl`. Staging through the normal harness; production semantics by calling the
 * Worker's fetch handler with ENVIRONMENT=production.
 */
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { ADMIN_TOKEN, admin, BASE, cashInBody, Integrator } from '../support/harness';
import { newSink } from '../support/webhooks';

const production = { ...env, ENVIRONMENT: 'production', PIX_LOCATION_HOST: 'pix.example.com.br' } as Env;

function inProduction(path: string, init: RequestInit): Promise<Response> {
  const request = new Request(`${BASE}${path}`, init) as Request<unknown, IncomingRequestCfProperties>;
  return worker.fetch(request, production, createExecutionContext());
}

async function validationFields(res: Response) {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
  expect(body.code).toBe('VALIDATION_ERROR');
  return body.errors;
}

describe('POST /cash-in webhookUrl', () => {
  it('in staging accepts a local receiver and refuses what is not an http(s) URL', async () => {
    const api = await Integrator.create();
    for (const webhookUrl of ['not a url', 'ftp://example.com/hook', 'javascript:alert(1)']) {
      const errors = await validationFields(await api.post('/cash-in', cashInBody({ webhookUrl })));
      expect(Object.keys(errors), webhookUrl).toEqual(['webhookUrl']);
    }
    const local = await api.post('/cash-in', cashInBody({ webhookUrl: newSink().url }));
    expect(local.status).toBe(201);
  });

  it('in production refuses http, loopback, private, link-local and metadata targets with 400 naming webhookUrl', async () => {
    const api = await Integrator.create();
    for (const webhookUrl of [
      'http://hooks.example.com/pix',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://metadata.google.internal/computeMetadata/v1',
      'https://[::ffff:127.0.0.1]/hook',
      'https://2130706433/hook',
    ]) {
      const res = await inProduction('/cash-in', {
        method: 'POST',
        headers: api.headers(),
        body: JSON.stringify(cashInBody({ webhookUrl })),
      });
      const errors = await validationFields(res);
      expect(Object.keys(errors), webhookUrl).toEqual(['webhookUrl']);
      expect(errors.webhookUrl![0]).toMatch(/^webhookUrl must/);
    }
  });
});

describe('PATCH /admin/clients/{clientId} healthWebhookUrl', () => {
  it('is checked by the same guard', async () => {
    const api = await Integrator.create();
    const path = `/admin/clients/${api.client.clientId}`;
    const patch = (healthWebhookUrl: string | null) => ({
      method: 'PATCH',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ healthWebhookUrl }),
    });
    const refused = await validationFields(await inProduction(path, patch('https://192.168.0.10/health')));
    expect(Object.keys(refused)).toEqual(['healthWebhookUrl']);
    const accepted = await inProduction(path, patch('https://hooks.example.com/health'));
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as Record<string, unknown>).healthWebhookUrl).toBe(
      'https://hooks.example.com/health',
    );
    const staging = await admin(path, 'PATCH', { healthWebhookUrl: 'http://localhost:4000/health' });
    expect(staging.status).toBe(200);
    expect((await admin(path, 'PATCH', { healthWebhookUrl: null })).status).toBe(200);
  });
});
