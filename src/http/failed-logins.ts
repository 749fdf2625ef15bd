/** The API's answer to a source over its failed sign-in budget (src/infra/login-failures.ts). */
import { retryAfterSeconds } from '../domain/token-bucket';
import { loginSourceBlocked } from '../infra/login-failures';
import { ProblemError } from './errors';

export { recordLoginFailure } from '../infra/login-failures';

/** Throws 429 RATE_LIMITED while the request's source is over its failure budget. */
export function checkLoginSource(request: Request, now = Date.now()): void {
  const blocked = loginSourceBlocked(request, now);
  if (blocked === 0) return;
  const seconds = retryAfterSeconds(blocked);
  throw new ProblemError(
    'RATE_LIMITED',
    `Too many failed sign-ins from this source; retry after ${seconds} s`,
    {
      headers: { 'retry-after': String(seconds) },
    },
  );
}
