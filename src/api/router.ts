/**
 * The HTTP surface: every route of a route table, registered once: production's (./routes.ts) here,
 * the staging entry's (src/staging/routes.ts) in src/staging/router.ts. Errors leave
 * through one handler with three tiers: responses decided early (auth), our Problem errors, and
 * anything unexpected (logged, 500 INTERNAL_ERROR with a trace id and nothing internal).
 */
import { Router } from 'itty-router';
import { EarlyResponse } from '../http/auth';
import { ProblemError } from '../http/errors';
import { problem } from '../http/problem';
import type { ApiRequest, RequestContext } from '../http/request-context';
import { errorFields, log, loggablePath, pathAndQuery } from '../infra/log';
import { guardOperator } from './operator-guard';
import type { Route } from './route-table';
import { ROUTES } from './routes';

type Args = [RequestContext];

export function errorResponse(error: unknown, request: ApiRequest, rc: RequestContext): Response {
  if (error instanceof EarlyResponse) return error.response;
  if (error instanceof ProblemError) {
    return problem(error.code, {
      ...(error.detail !== undefined && { detail: error.detail }),
      ...error.extras,
    });
  }
  log('error', 'unhandled error', {
    requestId: rc.requestId,
    path: loggablePath(pathAndQuery(request.url)),
    ...errorFields(error),
  });
  return problem('INTERNAL_ERROR', {
    detail: 'An unexpected error occurred; retry with backoff and quote the traceId to support',
    traceId: rc.requestId,
    instance: new URL(request.url).pathname,
  });
}

/** `{param}` as itty-router writes it. */
const ittyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const params = (path: string) => (path.match(/\{/g) ?? []).length;

export type ApiRouter = ReturnType<typeof Router<ApiRequest, Args>>;

/** Methods `router` registers for a path, to tell 405 from 404. */
export function allowedMethodsOf(router: ApiRouter, pathname: string): string[] {
  const methods = new Set<string>();
  for (const [method, pattern] of router.routes) {
    if (method !== 'ALL' && pattern.test(pathname)) methods.add(method);
  }
  return [...methods];
}

/** A router of exactly `routes`, then 405 for a known path's other methods and 404 for the rest. */
export function buildRouter(routes: readonly Route[]): ApiRouter {
  const router = Router<ApiRequest, Args>({ catch: errorResponse });
  // Fixed paths before parameterised ones (itty-router takes the first match): /cash-in/summary
  // before /cash-in/{id}. The sort is stable, so the table's order decides among equals.
  for (const { spec, handler } of [...routes].sort((a, b) => params(a.spec.path) - params(b.spec.path)))
    router[spec.method](ittyPath(spec.path), guardOperator(spec, handler, errorResponse));
  router.all('*', (request: ApiRequest) => {
    const { pathname } = new URL(request.url);
    const allowed = allowedMethodsOf(router, pathname);
    if (allowed.length > 0) {
      return problem('METHOD_NOT_ALLOWED', {
        detail: `${request.method} is not allowed on ${pathname}`,
        headers: { allow: allowed.join(', ') },
      });
    }
    return problem('NOT_FOUND', { detail: `No route for ${request.method} ${pathname}` });
  });
  return router;
}

/** The production API's router. */
export const router = buildRouter(ROUTES);

/** Methods the production router registers for a path. */
export function allowedMethods(pathname: string): string[] {
  return allowedMethodsOf(router, pathname);
}
