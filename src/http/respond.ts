/** Turning Durable Object operation results into HTTP responses. */
import type { OperationResult } from '../domain/result';
import { json } from './json';
import { problem } from './problem';

export function operationResponse<T>(
  result: OperationResult<T>,
  present: (body: T) => unknown = (b) => b,
): Response {
  if (!result.ok) {
    const { code, detail, errors } = result.problem;
    // The ledger's own failure (logged there, rolled back): the router's 500 with its traceId.
    if (code === 'INTERNAL_ERROR') throw new Error(`ledger command failed: ${detail ?? ''}`);
    return problem(code, {
      ...(detail !== undefined && { detail }),
      ...(errors !== undefined && { errors }),
    });
  }
  return json(present(result.body), result.status, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
}
