/**
 * Archiving runs everywhere (issue 16: every read answers the same across the archive, so there is no
 * production switch any more): the operator call archives with production configuration too.
 */
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { createCashIn, payCashIn } from '../support/cash-in';
import { ADMIN_TOKEN, BASE, Integrator } from '../support/harness';

const production = { ...env, ENVIRONMENT: 'production', PIX_LOCATION_HOST: 'pix.example.com.br' } as Env;

function archiveIn(environment: Env, clientId: string): Promise<Response> {
  const request = new Request(`${BASE}/admin/clients/${clientId}/archive`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ before: new Date(Date.now() + 1).toISOString() }),
  }) as Request<unknown, IncomingRequestCfProperties>;
  return worker.fetch(request, environment, createExecutionContext());
}

describe('archiving in production', () => {
  it('the operator call archives with production configuration (no ARCHIVE_ENABLED switch)', async () => {
    const api = await Integrator.create();
    const c = await createCashIn(api);
    await payCashIn(api, c.internalCode as string);
    const res = await archiveIn(
      { ...production, ARCHIVE_ENABLED: undefined } as unknown as Env,
      api.client.clientId,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ archivedTransactions: 1 });
  });
});
