/**
 * Failed sign-ins are limited per source (the client's IP as the edge reports it in
 * `CF-Connecting-IP`), never per client: a wrong secret sent with a merchant's client id must not
 * spend that merchant's request budget, or anyone who knows the id could lock it out. A source over
 * its failure budget gets 429 RATE_LIMITED for every attempt, right or wrong, until it has waited;
 * other sources and the client's authenticated traffic are untouched.
 *
 * The count lives in the isolate (one number per source, bounded): a source's requests reach the
 * same Cloudflare location and mostly the same isolate, so a brute force is slowed to about the
 * budget per isolate it reaches, which against a 122-bit GUID secret is far beyond enough, and
 * costs no storage write on the login path.
 *
 * A sign-in reserves its failure before the secret is checked (the check awaits storage): a burst of
 * concurrent wrong secrets from one source is then counted exactly, the budget's 20 and no more, and a
 * sign-in that proves its secret gives the reservation back.
 */
import { afterFailure, type FailureBudget, failureBlockedFor, refundFailure } from '../domain/failure-budget';

export const FAILED_LOGIN_BUDGET: FailureBudget = { burst: 20, intervalMs: 3_000 };
const MAX_SOURCES = 50_000;
/** Per source: the instant its failures are paid off. */
const sources = new Map<string, number>();

/** Self-hosted behind a proxy, the proxy must set (overwrite) CF-Connecting-IP: docs/operating.md. */
export function sourceOf(request: Request): string {
  return request.headers.get('cf-connecting-ip')?.trim() || 'unknown';
}

/** Milliseconds the request's source must still wait (0: it may try now). */
export function loginSourceBlocked(request: Request, now = Date.now()): number {
  const paidAt = sources.get(sourceOf(request));
  return paidAt === undefined ? 0 : failureBlockedFor(FAILED_LOGIN_BUDGET, paidAt, now);
}

/** A sign-in attempt counted as a failure until `succeeded()` gives it back. */
export interface LoginAttempt {
  succeeded(): void;
}

/**
 * Counts the attempt as a failure at once, unless the source is over its budget: then the
 * milliseconds it must still wait, and nothing is counted.
 */
export function reserveLoginFailure(
  request: Request,
  now = Date.now(),
): LoginAttempt | { blockedMs: number } {
  const blockedMs = loginSourceBlocked(request, now);
  if (blockedMs > 0) return { blockedMs };
  const source = sourceOf(request);
  recordFailure(source, now);
  return {
    succeeded: () => {
      const paidAt = sources.get(source);
      if (paidAt === undefined) return;
      const refunded = refundFailure(FAILED_LOGIN_BUDGET, paidAt);
      if (refunded <= Date.now()) sources.delete(source);
      else sources.set(source, refunded);
    },
  };
}

function recordFailure(source: string, now: number): void {
  if (sources.size >= MAX_SOURCES && !sources.has(source)) {
    for (const [key, paidAt] of sources) if (paidAt <= now) sources.delete(key);
    if (sources.size >= MAX_SOURCES) sources.clear();
  }
  sources.set(source, afterFailure(FAILED_LOGIN_BUDGET, sources.get(source) ?? now, now));
}
