/** The API's answer to a source over its failed sign-in budget (src/infra/login-failures.ts). */
import { retryAfterSeconds } from '../domain/token-bucket';
import { type LoginAttempt, reserveLoginFailure } from '../infra/login-failures';
import { ProblemError } from './errors';

/**
 * Reserves the attempt's failure before any credential is looked at; throws 429 RATE_LIMITED while
 * the request's source is over its failure budget.
 */
export function reserveLoginAttempt(request: Request, now = Date.now()): LoginAttempt {
  const attempt = reserveLoginFailure(request, now);
  if (!('blockedMs' in attempt)) return attempt;
  const seconds = retryAfterSeconds(attempt.blockedMs);
  throw new ProblemError(
    'RATE_LIMITED',
    `Too many failed sign-ins from this source; retry after ${seconds} s`,
    {
      headers: { 'retry-after': String(seconds) },
    },
  );
}
