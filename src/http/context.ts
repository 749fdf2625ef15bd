/** Per-request context the router hands to every handler. */
import type { IRequest } from 'itty-router';
import type { ClientLedger } from '../../durable-objects/client-ledger';

export interface RequestContext {
  env: Env;
  ctx: ExecutionContext;
  requestId: string;
  startedAt: number;
}

export type ApiRequest = IRequest;
export type Handler = (request: ApiRequest, rc: RequestContext) => Promise<Response> | Response;

/** The client's Durable Object. */
export function ledgerOf(env: Env, clientId: string) {
  return (env.CLIENT_LEDGER as DurableObjectNamespace<ClientLedger>).getByName(clientId);
}

/** Public origin of this deployment as the request saw it (scheme + host). */
export function publicOrigin(request: Request): string {
  return new URL(request.url).origin;
}
