/**
 * The one function that writes error bodies: RFC 7807 Problem Details (docs/contract.md, Errors).
 */
import { ERROR_CATALOG, PROBLEM_CONTENT_TYPE } from '../contract/error-catalog';
import type { ErrorCode } from '../domain/error-codes';

const TYPE_BASE = 'https://connectpsp.com.br/problems/';

export interface ProblemInit {
  detail?: string;
  errors?: Record<string, string[]>;
  instance?: string;
  traceId?: string;
  headers?: Record<string, string>;
}

export function problem(code: ErrorCode, init: ProblemInit = {}): Response {
  const { status, title } = ERROR_CATALOG[code];
  const body: Record<string, unknown> = {
    type: `${TYPE_BASE}${code.toLowerCase().replace(/_/g, '-')}`,
    title,
    status,
    code,
  };
  if (init.detail !== undefined) body.detail = init.detail;
  if (init.errors !== undefined) body.errors = init.errors;
  if (init.instance !== undefined) body.instance = init.instance;
  if (init.traceId !== undefined) body.traceId = init.traceId;
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...init.headers },
  });
}

/**
 * The ApplicationToken 401s (docs/contract.md, Authentication): Problem Details without `code`, the title
 * saying whether the token is missing or invalid and `detail` saying why.
 */
export function applicationTokenProblem(kind: 'missing' | 'invalid', detail: string): Response {
  const title = kind === 'missing' ? 'ApplicationToken header is missing' : 'ApplicationToken is invalid';
  return new Response(
    JSON.stringify({ type: `${TYPE_BASE}application-token-${kind}`, title, status: 401, detail }),
    { status: 401, headers: { 'content-type': PROBLEM_CONTENT_TYPE } },
  );
}

/** The JWT 401 (docs/contract.md, Authentication): no body, the reason in WWW-Authenticate. */
export function bearerChallenge(reason?: string): Response {
  const value =
    reason === undefined ? 'Bearer' : `Bearer error="invalid_token", error_description="${reason}"`;
  return new Response(null, { status: 401, headers: { 'www-authenticate': value } });
}
