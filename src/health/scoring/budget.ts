// The false-alarm budget: how many tests the engine makes, and the per-test false rate each rule may
// have so that a platform of PLATFORM_SIZE raises at most FALSE_PER_ORIGIN_TYPE false incidents of
// each origin type in BUDGET_DAYS. README.md ("False-alarm budget") shows the arithmetic.
import type { SliceKind } from '../windows/views';
import { WINDOW_MS } from '../windows/window';

/** At most this many false incidents per origin type (bank, cohort, merchant, partner) ... */
export const FALSE_PER_ORIGIN_TYPE = 1;
/** ... in this many days ... */
export const BUDGET_DAYS = 90;
/**
 * ... of a platform this size: the largest of the bench family (20 payer banks, 5 partners, 12
 * clients; the outside benchmark had 15 banks). Each is watched on both operations in every window.
 * A cohort is one pooled test per horizon (3 and 6 windows) and one scan per operation and window.
 */
export const PLATFORM_SIZE: Record<SliceKind | 'cohort', number> = {
  institution: 20,
  partner: 5,
  client: 12,
  platform: 1,
  cohort: 3,
};
export const WINDOWS_PER_DAY = 86_400_000 / WINDOW_MS;

/**
 * Operation x family pairs on which one slice can be blamed in a single window's evidence (OBSERVED in
 * two windows): a partner on outcomes and failures of both operations and Cash-Out latency (5); a payer
 * bank on Cash-Out failures and latency (2: Cash-In failures and latency never blame it, and its missing
 * outcomes are INFERRED, three windows); a merchant on failures of both operations (2: latency never
 * blames it, its missing traffic is INFERRED); the platform on everything (7).
 */
export const TESTED_PAIRS: Record<SliceKind, number> = { partner: 5, institution: 2, client: 2, platform: 7 };

/** Simultaneous tests of one origin type over the budget's days (slices x pairs x windows). */
export function testsInBudget(
  kind: SliceKind | 'cohort',
  pairs = kind === 'cohort' ? 2 : TESTED_PAIRS[kind],
): number {
  return PLATFORM_SIZE[kind] * pairs * WINDOWS_PER_DAY * BUDGET_DAYS;
}

/** The per-test false rate the budget allows (a test: one slice, operation and family in one window). */
export function allowedRate(tests: number): number {
  return FALSE_PER_ORIGIN_TYPE / tests;
}

/** Upper tail of the standard normal, P(Z >= z) (Abramowitz-Stegun 7.1.26 on erfc, error < 1.5e-7). */
export function normalUpper(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const y = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erfc = y * Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/**
 * The one-window z a rule needs when an incident takes `windows` consecutive anomalous windows: under
 * the null the windows are independent once the common mode is divided out (expectations follow the
 * platform's intake, complements are judged in the same window), so a pattern's false rate is
 * P(Z >= z)^windows, and the budget asks P(Z >= z)^windows <= allowedRate(kind).
 */
export function budgetZ(tests: number, windows: number): number {
  const perWindow = allowedRate(tests) ** (1 / windows);
  let lo = 0;
  let hi = 10;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (normalUpper(mid) > perWindow) lo = mid;
    else hi = mid;
  }
  return hi;
}
