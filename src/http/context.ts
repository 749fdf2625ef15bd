/** Per-request context the router hands to every handler. */
import type { IRequest } from 'itty-router';

export interface RequestContext {
  env: Env;
  ctx: ExecutionContext;
  requestId: string;
  startedAt: number;
}

export type ApiRequest = IRequest;
export type Handler = (request: ApiRequest, rc: RequestContext) => Promise<Response> | Response;
