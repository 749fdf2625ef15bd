/** The request budget's pure parts: the Durable Object's token bucket and an isolate's lease pool. */
import { describe, expect, it } from 'vitest';
import { fullBucket, retryAfterSeconds, takeTokens } from '../../src/domain/token-bucket';
import {
  addLease,
  batchSize,
  blockedFor,
  emptyPool,
  leaseWant,
  POOL_TTL_MS,
  takeFromPool,
} from '../../src/domain/token-lease';

describe('token bucket', () => {
  it('starts with one second of budget and grants no more than it holds', () => {
    const bucket = fullBucket(10, 0);
    expect(takeTokens(bucket, 10, 4, 0)).toEqual({ granted: 4, retryAfterMs: 0 });
    expect(takeTokens(bucket, 10, 100, 0)).toEqual({ granted: 6, retryAfterMs: 0 });
    expect(takeTokens(bucket, 10, 1, 0)).toEqual({ granted: 0, retryAfterMs: 100 });
  });

  it('refills at the rate, exactly, in whole tokens only', () => {
    const bucket = fullBucket(3, 0);
    takeTokens(bucket, 3, 3, 0);
    // 3 per second = one token every 333⅓ ms: 333 ms is not enough, 334 ms is.
    expect(takeTokens(bucket, 3, 1, 333)).toEqual({ granted: 0, retryAfterMs: 1 });
    expect(takeTokens(bucket, 3, 1, 334)).toEqual({ granted: 1, retryAfterMs: 0 });
    // Sub-token remainders carry over: 1000 ms after the start, exactly 3 tokens were earned.
    expect(takeTokens(bucket, 3, 5, 1000).granted).toBe(2);
  });

  it('never holds more than one second of budget, however long it rested', () => {
    const bucket = fullBucket(5, 0);
    takeTokens(bucket, 5, 5, 0);
    expect(takeTokens(bucket, 5, 100, 3_600_000).granted).toBe(5);
    expect(takeTokens(bucket, 5, 1, 3_600_000).granted).toBe(0);
  });

  it('ignores a clock that steps back', () => {
    const bucket = fullBucket(1, 10_000);
    takeTokens(bucket, 1, 1, 10_000);
    expect(takeTokens(bucket, 1, 1, 5_000)).toEqual({ granted: 0, retryAfterMs: 1000 });
    expect(takeTokens(bucket, 1, 1, 11_000).granted).toBe(1);
  });

  it('applies a lower rate at once and a higher one from then on', () => {
    const bucket = fullBucket(100, 0);
    expect(takeTokens(bucket, 2, 100, 0).granted).toBe(2);
    expect(takeTokens(bucket, 2, 1, 0).retryAfterMs).toBe(500);
    // Raised to 50: the 100 ms since then refilled at 2/s (0.2 token), the rest at 50/s.
    expect(takeTokens(bucket, 50, 100, 100).granted).toBe(0);
    expect(takeTokens(bucket, 50, 100, 200).granted).toBe(5);
  });

  it('rounds Retry-After up to whole seconds, never below 1', () => {
    expect(retryAfterSeconds(0)).toBe(1);
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1000)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
  });
});

describe('lease pool', () => {
  it('leases one token per waiting request, and a batch only while the isolate is busy', () => {
    const pool = emptyPool(200);
    expect(batchSize(200)).toBe(10);
    expect(batchSize(3)).toBe(1);
    expect(leaseWant(pool, 1, 0)).toBe(1);
    expect(leaseWant(pool, 4, 0)).toBe(4);
    addLease(pool, { granted: 1, retryAfterMs: 0 }, 0);
    expect(leaseWant(pool, 1, POOL_TTL_MS - 1)).toBe(10);
    expect(leaseWant(pool, 1, POOL_TTL_MS)).toBe(1);
    expect(leaseWant(emptyPool(3), 50, 0)).toBe(3);
  });

  it('spends leased tokens until they run out or expire', () => {
    const pool = emptyPool(100);
    expect(takeFromPool(pool, 0)).toBe(false);
    addLease(pool, { granted: 2, retryAfterMs: 0 }, 0);
    expect(takeFromPool(pool, 1)).toBe(true);
    expect(takeFromPool(pool, 2)).toBe(true);
    expect(takeFromPool(pool, 3)).toBe(false);
    addLease(pool, { granted: 5, retryAfterMs: 0 }, 10);
    expect(takeFromPool(pool, 10 + POOL_TTL_MS)).toBe(false);
    expect(pool.tokens).toBe(0);
  });

  it('an empty grant blocks the pool for the bucket’s retry time', () => {
    const pool = emptyPool(4);
    addLease(pool, { granted: 0, retryAfterMs: 180 }, 1000);
    expect(blockedFor(pool, 1000)).toBe(180);
    expect(blockedFor(pool, 1179)).toBe(1);
    expect(blockedFor(pool, 1180)).toBe(0);
  });
});
