/**
 * Two entries, one document: the production router (src/index.ts) routes exactly the operations
 * that are not staging-only, the staging router (src/staging/index.ts) routes every documented
 * operation, and the production Worker answers a staging-only path like an unknown one even when
 * run with ENVIRONMENT=staging (its bundle has no sandbox to serve it).
 */
import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { router as productionRouter } from '../../src/api/router';
import { OPERATIONS } from '../../src/api/routes';
import production from '../../src/index';
import { router as stagingRouter } from '../../src/staging/router';

/** itty patterns (`/cash-in/:id`) as OpenAPI templates (`/cash-in/{id}`). */
const template = (pattern: string) => pattern.replace(/:(\w+)\+?/g, '{$1}');
const routed = (router: typeof productionRouter) =>
  router.routes
    .filter(([method]) => method !== 'ALL')
    .map(([method, , , pattern]) => `${method} ${template(pattern || '/')}`)
    .sort();
const keys = (ops: typeof OPERATIONS) => ops.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort();

describe('the production and staging entries', () => {
  it('production routes every operation but the staging-only ones', () => {
    expect(routed(productionRouter)).toEqual(keys(OPERATIONS.filter((op) => !op.stagingOnly)));
    expect(OPERATIONS.filter((op) => op.stagingOnly).length).toBeGreaterThanOrEqual(9);
  });

  it('staging routes every documented operation', () => {
    expect(routed(stagingRouter)).toEqual(keys(OPERATIONS));
  });

  it('the production Worker has no sandbox, whatever ENVIRONMENT says', async () => {
    const res = await production.fetch(
      new Request('http://gateway.test/sandbox/accounts/0001/deposit', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"amount":1}',
      }) as Request<unknown, IncomingRequestCfProperties>,
      env,
      createExecutionContext(),
    );
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('NOT_FOUND');
  });
});
