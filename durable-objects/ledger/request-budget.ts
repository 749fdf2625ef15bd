/**
 * The one bucket of a client's rateLimitPerSecond (src/http/rate-limit.ts leases from it), in the
 * object's memory only: no storage write per request. An evicted object starts again with a full
 * bucket, at most one extra second's budget.
 */
import { fullBucket, type TokenBucket, type TokenGrant, takeTokens } from '../../src/domain/token-bucket';

export class RequestBudget {
  private bucket: TokenBucket | undefined;

  /** Grants an isolate up to `want` requests of the budget at `ratePerSecond` (the caller's view). */
  lease(ratePerSecond: number, want: number, now = Date.now()): TokenGrant {
    this.bucket ??= fullBucket(ratePerSecond, now);
    return takeTokens(this.bucket, ratePerSecond, want, now);
  }
}
