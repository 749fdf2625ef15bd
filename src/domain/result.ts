import type { ProblemShape } from './error-codes';

/**
 * What a Durable Object business operation answers across RPC: a success to send as is (and to
 * replay for its idempotency key), or a problem. Thrown errors do not cross RPC faithfully, so
 * expected failures travel as values.
 */
export type OperationResult<T = unknown> =
  | { ok: true; status: number; body: T; replayed: boolean }
  | { ok: false; problem: ProblemShape };

export const success = <T>(status: number, body: T): OperationResult<T> => ({
  ok: true,
  status,
  body,
  replayed: false,
});
export const failure = (problem: ProblemShape): OperationResult<never> => ({ ok: false, problem });
