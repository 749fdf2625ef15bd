/**
 * The route table's parts. An operation is declared once, in its own file, with its handler:
 * `export const createCashOut = route({ ...the OpenAPI operation }, handler)`. A resource lists its
 * routes in the document's order (its `routes.ts`), and src/api/routes.ts lists the resources: the
 * router, the OpenAPI document and OPERATIONS are all derived from that one table, so an operation
 * without a handler, or a handler without an operation, cannot be written.
 *
 * A staging-only operation is documented everywhere but routed by the staging entry alone
 * (src/staging/routes.ts): production's table holds its declaration without a handler, and the
 * handler is bound in a module only the staging entry imports, so it is not in the production
 * bundle.
 */

import { type Pipeline, pipeline, type TypedHandler } from '../http/pipeline';
import type { ApiRequest, RequestContext } from '../http/request-context';
import { requireStaging } from '../http/staging';
import type { OperationSpec } from '../openapi/operation';

export type Handler = (request: ApiRequest, rc: RequestContext) => Promise<Response> | Response;

export interface Route {
  spec: OperationSpec;
  handler: Handler;
}

/** A staging-only operation as production's table holds it: documented, without a handler. */
interface StagingOnly {
  spec: OperationSpec & { stagingOnly: true };
  handler?: undefined;
}

export type Entry = Route | StagingOnly;

export const isRoute = (entry: Entry): entry is Route => entry.handler !== undefined;

/** An operator operation names the least role it needs, so none can be routed unguarded. */
function requireRole(spec: OperationSpec): void {
  if ((spec.auth === 'operator') !== (spec.role !== undefined))
    throw new Error(`route table: ${spec.operationId} must name a role exactly when its auth is operator`);
}

/**
 * A production operation and its handler. The declaration runs the request's pipeline
 * (src/http/pipeline.ts: authentication, query names, idempotency key, body, signature), so the
 * handler receives the typed input and never authenticates or parses by itself.
 */
export function route<S extends OperationSpec>(
  spec: S,
  handler: TypedHandler<S>,
  steps: Pipeline<S> = {},
): Route {
  if (spec.stagingOnly) throw new Error(`route table: ${spec.operationId} is staging-only`);
  requireRole(spec);
  return { spec, handler: pipeline(spec, handler, steps) };
}

/**
 * An operation whose handler authenticates and reads the body itself: a partner's callback, whose
 * authentication depends on the partner's declaration (mTLS or a secret in the path) and must come
 * before anything of its body is read. The pipeline adds nothing else for it.
 */
export function selfAuthenticatingRoute(spec: OperationSpec, handler: Handler): Route {
  if (spec.auth !== 'partner' && spec.auth !== 'partnerSecret')
    throw new Error(`route table: ${spec.operationId} must declare its authentication to the pipeline`);
  return { spec, handler: pipeline(spec, ({ request, rc }) => handler(request, rc), {}, 'handler') };
}

/** Staging-only operations, as production's table holds them: documented, routed by staging alone. */
export function stagingOnly(operations: readonly OperationSpec[]): StagingOnly[] {
  for (const op of operations) {
    if (!op.stagingOnly) throw new Error(`route table: ${op.operationId} is not staging-only`);
    requireRole(op);
  }
  return operations.map((spec) => ({ spec }) as StagingOnly);
}

/**
 * A staging-only handler: the typed input of its operation's pipeline (`never` here so any
 * operation's handler fits the binding table; each receives what its own declaration implies).
 */
export type StagingHandler = (input: never) => Promise<Response> | Response;

/**
 * Staging-only operations bound to their handlers: in modules only the staging entry imports
 * (`routes-staging.ts`), so production neither routes them nor bundles their handlers. Each runs its
 * declaration's pipeline like any route, after `requireStaging` (a second fence: outside staging the
 * operation answers 404 before anything else is looked at).
 */
export function bindStagingRoutes(
  operations: readonly OperationSpec[],
  handlers: Record<string, StagingHandler>,
): Route[] {
  const documented = new Set(stagingOnly(operations).map((entry) => entry.spec.operationId));
  for (const id of Object.keys(handlers))
    if (!documented.has(id)) throw new Error(`route table: handler for ${id}, which no operation documents`);
  return operations.map((spec) => {
    const handler = handlers[spec.operationId] as TypedHandler<OperationSpec> | undefined;
    if (!handler) throw new Error(`route table: ${spec.operationId} has no handler`);
    return { spec, handler: pipeline(spec, handler, { before: requireStaging }) };
  });
}
