/**
 * A client's request budget (docs/contract.md, Rate limits) as a token bucket: it holds at most one second's
 * worth of requests and refills continuously at `ratePerSecond`. Tokens are counted in thousandths, so a
 * refill of `rate × elapsed ms` is an exact integer and no rounding drifts the budget.
 */

const MILLI = 1_000;

export interface TokenBucket {
  ratePerSecond: number;
  /** Thousandths of a token. */
  milliTokens: number;
  updatedAt: number;
}

export interface TokenGrant {
  /** 0 to `want`: never more than the bucket holds. */
  granted: number;
  /** When nothing is granted, the milliseconds until one whole token is back; otherwise 0. */
  retryAfterMs: number;
}

export function fullBucket(ratePerSecond: number, now: number): TokenBucket {
  return { ratePerSecond, milliTokens: ratePerSecond * MILLI, updatedAt: now };
}

function refill(bucket: TokenBucket, now: number): void {
  // One second refills a whole bucket, so capping the elapsed time keeps the product small; a
  // clock that steps back refills nothing.
  const elapsed = Math.min(Math.max(0, now - bucket.updatedAt), MILLI);
  bucket.milliTokens = Math.min(
    bucket.ratePerSecond * MILLI,
    bucket.milliTokens + elapsed * bucket.ratePerSecond,
  );
  bucket.updatedAt = Math.max(bucket.updatedAt, now);
}

/**
 * Takes up to `want` whole tokens at `now`. The time since the last take refills at the rate that
 * applied then; a new `ratePerSecond` (the operator changed it) applies from now on and shrinks the
 * bucket at once when it is lower.
 */
export function takeTokens(
  bucket: TokenBucket,
  ratePerSecond: number,
  want: number,
  now: number,
): TokenGrant {
  refill(bucket, now);
  if (ratePerSecond !== bucket.ratePerSecond) {
    bucket.ratePerSecond = ratePerSecond;
    bucket.milliTokens = Math.min(bucket.milliTokens, ratePerSecond * MILLI);
  }
  const granted = Math.max(0, Math.min(Math.floor(want), Math.floor(bucket.milliTokens / MILLI)));
  bucket.milliTokens -= granted * MILLI;
  const retryAfterMs = granted > 0 ? 0 : Math.max(0, Math.ceil((MILLI - bucket.milliTokens) / ratePerSecond));
  return { granted, retryAfterMs };
}

/** The `Retry-After` header is in whole seconds: rounded up, and never 0 (that would invite a retry storm). */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / MILLI));
}
