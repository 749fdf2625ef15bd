/**
 * Worker entry points: HTTP (fetch), cron sweeps (scheduled) and queue consumers (queue). The
 * Durable Object classes are exported from here for the runtime.
 */

import { env as startupEnv } from 'cloudflare:workers';
import { loggablePath } from './api/partners/handlers';
import { errorResponse, router } from './api/router';
import { assertConfig } from './config';
import { handleConsole, isConsolePath } from './console/routes';
import { handleBenchSeed, isBenchSeedRequest } from './http/bench-seed';
import type { ApiRequest, RequestContext } from './http/context';
import { log } from './infra/log';
import { consumeObservations, HEALTH_QUEUES } from './queues/health-consumer';
import { consumeWebhooks, WEBHOOK_QUEUES } from './queues/webhook-consumer';
import { sweepAllClients } from './sweep';

export { ClientLedger } from '../durable-objects/client-ledger';

import { reconcilePartnerPix } from '../durable-objects/partner-notices';
import { returnPartnerHeld } from '../durable-objects/partner-unapplied';
import { reconcileClosedDays } from '../durable-objects/reconciliation-cron';

export { HealthAnalyzer } from '../durable-objects/health-analyzer';

// A misconfigured deployment refuses to start at all (decisions §5): nothing is served from it.
assertConfig(startupEnv);

export default {
  async fetch(request, env, ctx): Promise<Response> {
    assertConfig(env);
    const rc: RequestContext = { env, ctx, requestId: crypto.randomUUID(), startedAt: Date.now() };
    // The operator console is HTML with its own session auth, outside the JSON API's router.
    let response: Response = isConsolePath(new URL(request.url).pathname)
      ? await handleConsole(request, env)
      : isBenchSeedRequest(request, env)
        ? await handleBenchSeed(request, env).catch((error) =>
            errorResponse(error, request as ApiRequest, rc),
          )
        : await router.fetch(request, rc);
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
      path: loggablePath(new URL(request.url).pathname),
      status: response.status,
      durationMs: Date.now() - rc.startedAt,
    });
    return response;
  },

  async scheduled(_controller, env, ctx): Promise<void> {
    assertConfig(env);
    ctx.waitUntil(sweepAllClients(env));
    ctx.waitUntil(reconcilePartnerPix(env));
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
