/**
 * Archiving is off in production unless ARCHIVE_ENABLED is "on" (lists and summaries do not read the
 * archive yet, issue 16): the operator call answers 503 and the alarm never arms the archive task.
 */
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { isArchiveEnabled } from '../../src/config';
import worker from '../../src/index';
import { ADMIN_TOKEN, BASE, Integrator } from '../support/harness';

const production = { ...env, ENVIRONMENT: 'production', PIX_LOCATION_HOST: 'pix.example.com.br' } as Env;

function archiveIn(environment: Env, clientId: string): Promise<Response> {
  const request = new Request(`${BASE}/admin/clients/${clientId}/archive`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ before: new Date().toISOString() }),
  }) as Request<unknown, IncomingRequestCfProperties>;
  return worker.fetch(request, environment, createExecutionContext());
}

describe('archiving switch', () => {
  it('runs in staging, and in production only with ARCHIVE_ENABLED "on"', () => {
    expect(isArchiveEnabled(env)).toBe(true);
    expect(isArchiveEnabled(production)).toBe(false);
    expect(isArchiveEnabled({ ...production, ARCHIVE_ENABLED: 'yes' } as Env)).toBe(false);
    expect(isArchiveEnabled({ ...production, ARCHIVE_ENABLED: 'on' } as Env)).toBe(true);
  });

  it('the operator call answers 503 in production while it is off', async () => {
    const api = await Integrator.create();
    const res = await archiveIn(production, api.client.clientId);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string; detail: string }).detail).toMatch(/ARCHIVE_ENABLED/);
  });
});
