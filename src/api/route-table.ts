/**
 * A resource's route table: each documented operation bound to its handler. The router and the
 * OpenAPI document are both built from the tables (src/api/routes.ts), so an operation without a
 * handler, or a handler without an operation, stops the Worker from loading at all. A staging-only
 * operation is bound in the resource's `routes-staging.ts`, which only the staging entry's route
 * table (src/staging/routes.ts) imports: its handler is not in the production bundle.
 */
import type { ApiRequest, RequestContext } from '../http/context';
import type { OperationSpec } from '../openapi/operation';

export type Handler = (request: ApiRequest, rc: RequestContext) => Promise<Response> | Response;

export interface Route {
  spec: OperationSpec;
  handler: Handler;
}

/** The operations production routes: all but the staging-only ones. */
export function productionOnly(operations: readonly OperationSpec[]): OperationSpec[] {
  return operations.filter((op) => !op.stagingOnly);
}

/** The staging-only operations, routed by the staging entry alone. */
export function stagingOnly(operations: readonly OperationSpec[]): OperationSpec[] {
  return operations.filter((op) => op.stagingOnly);
}

export function bindRoutes(operations: readonly OperationSpec[], handlers: Record<string, Handler>): Route[] {
  const documented = new Set(operations.map((op) => op.operationId));
  for (const id of Object.keys(handlers))
    if (!documented.has(id)) throw new Error(`route table: handler for ${id}, which no operation documents`);
  return operations.map((spec) => {
    const handler = handlers[spec.operationId];
    if (!handler) throw new Error(`route table: ${spec.operationId} has no handler`);
    return { spec, handler };
  });
}
