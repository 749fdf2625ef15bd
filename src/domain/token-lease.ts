/**
 * The tokens one Worker isolate has leased from a client's budget (the bucket lives in the client's
 * Durable Object, which alone decides). Spending from a local pool saves a Durable Object round
 * trip on most requests of a busy client; because leased tokens expire after POOL_TTL_MS, tokens
 * an isolate leased but did not use vanish instead of being spent later, so at most the tokens
 * granted in the last POOL_TTL_MS can be admitted beyond the budget's own burst.
 */
import type { TokenGrant } from './token-bucket';

export const POOL_TTL_MS = 250;

export interface LeasePool {
  /** The rate the tokens were leased under; a pool of another rate is discarded, not reused. */
  ratePerSecond: number;
  tokens: number;
  expiresAt: number;
  /** The bucket was empty: nothing can be leased before this instant. */
  blockedUntil: number;
  leasedAt: number;
}

export function emptyPool(ratePerSecond: number): LeasePool {
  return { ratePerSecond, tokens: 0, expiresAt: 0, blockedUntil: 0, leasedAt: -Infinity };
}

/** Tokens leased beyond the requests waiting: about 1/20 of a second's budget. */
export function batchSize(ratePerSecond: number): number {
  return Math.max(1, Math.ceil(ratePerSecond / 20));
}

/** Spends one pooled token when the pool has an unexpired one. */
export function takeFromPool(pool: LeasePool, now: number): boolean {
  if (now >= pool.expiresAt) pool.tokens = 0;
  if (pool.tokens === 0) return false;
  pool.tokens -= 1;
  return true;
}

/** Milliseconds until the Durable Object can grant a token again; 0 when a lease may be tried. */
export function blockedFor(pool: LeasePool, now: number): number {
  return Math.max(0, pool.blockedUntil - now);
}

/**
 * How many tokens to ask for: one per waiting request, plus a batch only when this isolate used
 * up its previous lease within POOL_TTL_MS. An isolate that sees a request now and then leases one
 * token at a time, so tokens that would expire unused are never taken from the other isolates.
 */
export function leaseWant(pool: LeasePool, waiting: number, now: number): number {
  const busy = now - pool.leasedAt < POOL_TTL_MS;
  const want = Math.max(1, waiting) + (busy ? batchSize(pool.ratePerSecond) - 1 : 0);
  return Math.min(want, pool.ratePerSecond);
}

export function addLease(pool: LeasePool, grant: TokenGrant, now: number): void {
  pool.leasedAt = now;
  pool.tokens += grant.granted;
  pool.expiresAt = now + POOL_TTL_MS;
  if (grant.granted === 0) pool.blockedUntil = now + grant.retryAfterMs;
}
