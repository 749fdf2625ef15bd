// A small payer bank's expected outcomes as its usual share of everyone's, for the cohort scan.
// Its own seasonal baseline (hour slots × recent level) is learned from a few events per window, and
// can read 30 % off for hours (src/health/README.md (How the rules were tuned), Bank share), so a cohort losing 56 % can look
// 32 % short. Its share of the
// platform's payments is learned from thousands of events and moves with nothing common to all banks
// (the hour, the day, a holiday, a client's burst, a partner's outage): expected = its share × the
// outcomes of all the other banks in this very window.
import type { EntityOp } from '../windows/state';
import type { EntityView } from '../windows/views';

/**
 * The share is an exponentially weighted ratio over this many windows (2 days): a small bank's few
 * payments a window add up to hundreds, a share known to a few %.
 */
export const SHARE_WINDOWS = 576;

/** The share is used once the other banks' weighted outcomes reach this (before: the seasonal baseline). */
export const SHARE_MIN_REST = 2_000;

/**
 * Everyone's outcomes that carry a bank: the sum over the banks, not the platform's outcomes, which also
 * hold Cash-In failures that have no payer and so no bank (a charge the partner could not register, an
 * expiry), whose part of the total moves with the hour and the partners, not with the banks.
 */
export function bankOutcomes(banks: readonly EntityView[]): number {
  let n = 0;
  for (const v of banks) n += v.counts.settled + v.counts.failed;
  return n;
}

/** Learn one normal window: this bank's outcomes and the other banks'. */
export function learnShare(eo: EntityOp, own: number, rest: number): void {
  const d = 1 - 1 / SHARE_WINDOWS;
  const s = eo.share ?? [0, 0];
  eo.share = [s[0] * d + own, s[1] * d + rest];
}

/** Expected outcomes of the bank given the other banks' this window (null: not learned yet). */
export function shareExpected(eo: EntityOp, rest: number): number | null {
  const s = eo.share;
  if (!s || s[1] < SHARE_MIN_REST) return null;
  return (s[0] / s[1]) * rest;
}
