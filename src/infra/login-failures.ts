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
 */
import { afterFailure, type FailureBudget, failureBlockedFor } from '../domain/failure-budget';

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

/** Counts one failed sign-in against the request's source. */
export function recordLoginFailure(request: Request, now = Date.now()): void {
  const source = sourceOf(request);
  if (sources.size >= MAX_SOURCES && !sources.has(source)) {
    for (const [key, paidAt] of sources) if (paidAt <= now) sources.delete(key);
    if (sources.size >= MAX_SOURCES) sources.clear();
  }
  sources.set(source, afterFailure(FAILED_LOGIN_BUDGET, sources.get(source) ?? now, now));
}
