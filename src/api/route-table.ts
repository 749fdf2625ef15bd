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
import type { ApiRequest, RequestContext } from '../http/context';
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

/** A production operation and its handler. */
export function route(spec: OperationSpec, handler: Handler): Route {
  if (spec.stagingOnly) throw new Error(`route table: ${spec.operationId} is staging-only`);
  requireRole(spec);
  return { spec, handler };
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
 * Staging-only operations bound to their handlers: in modules only the staging entry imports
 * (`routes-staging.ts`), so production neither routes them nor bundles their handlers.
 */
export function bindStagingRoutes(
  operations: readonly OperationSpec[],
  handlers: Record<string, Handler>,
): Route[] {
  const documented = new Set(stagingOnly(operations).map((entry) => entry.spec.operationId));
  for (const id of Object.keys(handlers))
    if (!documented.has(id)) throw new Error(`route table: handler for ${id}, which no operation documents`);
  return operations.map((spec) => {
    const handler = handlers[spec.operationId];
    if (!handler) throw new Error(`route table: ${spec.operationId} has no handler`);
    return { spec, handler };
  });
}
