// A small bank's expected outcomes for the cohort scan (src/health/baselines/bank-share.ts): its usual share of
// the rest of the platform's outcomes in the same window, so that what is common to all banks (the
// hour, a holiday, a partner's outage) moves the expectation and only a loss of its own is seen.
import { describe, expect, it } from 'vitest';
import {
  learnShare,
  SHARE_MIN_REST,
  SHARE_WINDOWS,
  shareExpected,
} from '../../src/health/baselines/bank-share';
import type { EntityOp } from '../../src/health/windows/state';

const op = () => ({}) as EntityOp;

describe('bank share expectation', () => {
  it('is not used until the rest of the platform has been seen enough', () => {
    const eo = op();
    learnShare(eo, 3, 97);
    expect(shareExpected(eo, 100)).toBeNull();
    for (let i = 0; i < SHARE_MIN_REST / 97; i++) learnShare(eo, 3, 97);
    expect(shareExpected(eo, 100)).toBeCloseTo(100 * (3 / 97), 6);
  });

  it('follows the rest of the platform this window: a quiet hour or a partner outage halves it', () => {
    const eo = op();
    for (let i = 0; i < 200; i++) learnShare(eo, 4, 96);
    expect(shareExpected(eo, 96)).toBeCloseTo(4, 6);
    expect(shareExpected(eo, 48)).toBeCloseTo(2, 6);
  });

  it('forgets an old share over about SHARE_WINDOWS windows, not one window', () => {
    const eo = op();
    for (let i = 0; i < 2 * SHARE_WINDOWS; i++) learnShare(eo, 5, 95);
    learnShare(eo, 0, 95);
    expect(shareExpected(eo, 95)!).toBeGreaterThan(4.98);
    for (let i = 0; i < SHARE_WINDOWS; i++) learnShare(eo, 2, 98);
    const e = shareExpected(eo, 95)!;
    expect(e).toBeLessThan(4);
    expect(e).toBeGreaterThan(2);
  });
});
