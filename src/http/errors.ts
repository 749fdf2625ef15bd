/** The thrown form of a problem inside a request; the router's error handler renders it. */
import type { ErrorCode } from '../domain/error-codes';

/** A domain or request failure on its way to becoming a Problem Details response. */
export class ProblemError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly extras: { errors?: Record<string, string[]>; headers?: Record<string, string> } = {},
  ) {
    super(detail ?? code);
  }
}
