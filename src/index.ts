/**
 * The production Worker's entry points: HTTP (fetch), cron sweeps (scheduled) and queue consumers
 * (queue). The Durable Object classes are exported from here for the runtime. The staging entry
 * (src/staging/index.ts) serves the same handlers with its own route table and ledger, adding the
 * staging-only machinery (sandbox, fault injection, bench seeding, crash points) that this module
 * never imports, so the production bundle does not contain it (`npm run check:bundle`).
 */

import { env as startupEnv } from 'cloudflare:workers';
import { type ApiRouter, router } from './api/router';
import { assertConfig } from './config';
import { handleConsole, isConsolePath } from './console/routes';
import { sweepAllClients } from './cron/sweep';
import type { RequestContext } from './http/request-context';
import { log, loggablePath, pathAndQuery } from './infra/log';
import { consumeObservations, HEALTH_QUEUES } from './queues/health-consumer';
import { consumeWebhooks, WEBHOOK_QUEUES } from './queues/webhook-consumer';

export { ArchiveRegistry } from '../durable-objects/archive-registry';
export { ClientLedger } from '../durable-objects/client-ledger';

import { sweepPartnerInfractions } from './cron/partner-infractions';
import { reconcilePartnerPix } from './cron/partner-notices';
import { returnPartnerHeld } from './cron/partner-unapplied';
import { reconcileClosedDays } from './cron/reconciliation-cron';

export { HealthAnalyzer } from '../durable-objects/health-analyzer';

// A misconfigured deployment refuses to start at all (docs/contract.md, Environments and configuration):
// nothing is served from it.
assertConfig(startupEnv);

/** How a request reaches the code that answers it. */
export type Route = (request: Request, rc: RequestContext) => Promise<Response>;

/** The operator console, else the API's `router`. */
export function routeTo(api: ApiRouter): Route {
  return async (request, rc) =>
    // The operator console is HTML with its own session auth, outside the JSON API's router.
    isConsolePath(new URL(request.url).pathname)
      ? handleConsole(request, rc.env, rc.requestId)
      : api.fetch(request, rc);
}

/** One request through `route`: the configuration check, a request id, one access log line. */
export async function serve(
  route: Route,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
): Promise<Response> {
  assertConfig(env);
  const rc: RequestContext = { env, ctx, requestId: crypto.randomUUID(), startedAt: Date.now() };
  let response: Response = await route(request, rc);
  if (response.headers.get('x-request-id') === null) {
    try {
      response.headers.set('x-request-id', rc.requestId);
    } catch {
      response = new Response(response.body, response);
      response.headers.set('x-request-id', rc.requestId);
    }
  }
  log('info', 'request', {
    requestId: rc.requestId,
    method: request.method,
    path: loggablePath(pathAndQuery(request.url)),
    status: response.status,
    durationMs: Date.now() - rc.startedAt,
  });
  return response;
}

const production = routeTo(router);

export const worker = {
  fetch: (request, env, ctx) => serve(production, request, env, ctx),

  async scheduled(_controller, env, ctx): Promise<void> {
    assertConfig(env);
    ctx.waitUntil(sweepAllClients(env));
    ctx.waitUntil(reconcilePartnerPix(env));
    ctx.waitUntil(sweepPartnerInfractions(env));
    ctx.waitUntil(returnPartnerHeld(env));
    ctx.waitUntil(reconcileClosedDays(env));
  },

  async queue(batch, env): Promise<void> {
    assertConfig(env);
    if (WEBHOOK_QUEUES.has(batch.queue)) return consumeWebhooks(batch, env);
    if (HEALTH_QUEUES.has(batch.queue)) return consumeObservations(batch, env);
    batch.ackAll();
  },
} satisfies ExportedHandler<Env>;

export default worker;
