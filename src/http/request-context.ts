/** Per-request context the router hands to every handler. */
import type { IRequest } from 'itty-router';
import type { Actor } from '../domain/operators';

/**
 * What a changing operator request's audit record says beyond its action and path: what it
 * changed, before and after (never a secret). `written` when the handler stored the record in the
 * same batch or transaction as the change itself; otherwise the router stores it after the answer.
 */
export interface AuditNote {
  target?: string;
  before?: unknown;
  after?: unknown;
  written?: boolean;
}

export interface RequestContext {
  env: Env;
  ctx: ExecutionContext;
  requestId: string;
  startedAt: number;
  /** On operator routes: who is asking (src/http/admin-auth.ts). */
  actor?: Actor;
  /** On changing operator routes: filled by the handler for the audit record. */
  audit?: AuditNote;
}

export type ApiRequest = IRequest;
export type Handler = (request: ApiRequest, rc: RequestContext) => Promise<Response> | Response;
