import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayAfter } from '../../src/webhooks/retry-schedule';

const s = 1_000;
const min = 60 * s;
const h = 60 * min;

describe('webhook retry schedule (decisions §6)', () => {
  it('retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
    expect(RETRY_DELAYS_MS).toEqual([5 * s, 5 * min, 30 * min, 2 * h, 5 * h, 10 * h, 10 * h]);
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayAfter)).toEqual([...RETRY_DELAYS_MS]);
    expect(retryDelayAfter(8)).toBeUndefined();
    expect(retryDelayAfter(9)).toBeUndefined();
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('has no delay before any attempt was made', () => {
    expect(retryDelayAfter(0)).toBeUndefined();
  });
});
