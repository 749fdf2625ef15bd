// Which evidence may blame which origin, and how much of it is needed. Every threshold is named here
// with the reason for its value: an alarm must be earned (src/health/README.md (How the rules were tuned) has the history).

import type { Operation } from '../types';
import type { CodeLayer } from '../windows/code-layers';
import type { SliceKind } from '../windows/views';
import { budgetZ, testsInBudget } from './budget';
import type { Eval, Family } from './evaluate';

/**
 * A merchant's own volume swings with its business (campaigns, a betting client's matches, a slow
 * drift of its conversion): a MERCHANT is blamed for missing traffic only when at least half of it is
 * gone (an integration that stopped, not a quiet hour). Partners and banks keep the 20 % gate.
 */
export const MERCHANT_MIN_DROP = 0.5;

/**
 * The daily shape is a median over days, and the median of two days is their mean: a merchant's own
 * day swings (a campaign, a betting night's bursts at 3-6x), and one such evening in the warm-up makes
 * the next evening's expectation half again too high (a betting client reads "52 % down" on its first
 * judged evening). Until an hour has this many days (a median that one day cannot
 * move), a merchant's expectation uses its lowest day: volumes are judged only for drops, and a merchant
 * that stops still shows against its quieter day. Partners and banks carry many merchants and keep the
 * plain median.
 */
export const MERCHANT_MEDIAN_DAYS = 3;

/**
 * Settlement latency is produced by partners, banks and the network, never by a merchant: a slow
 * merchant is always a symptom of something upstream, so latency never makes a MERCHANT anomalous.
 */
export const MERCHANT_LATENCY_EVIDENCE = false;

/**
 * A Cash-In settlement's latency is measured from the charge's creation (the gateway reports settlement
 * time minus request time): it is the payer deciding when to pay (lognormal, median about a minute, a
 * tail of hours when charges live for a day), not a partner's or a bank's service time. Its window mean
 * follows the creation curve (a window's settlements come from earlier, busier minutes when traffic
 * falls: the evening and the night), and a few late payers dominate it; in a family of worlds it opened
 * bank, partner and cohort incidents on no-fault days at a per-world rate of about one a day. So it is
 * no evidence at all: the analyzer does not count it (a bank or partner that stops settling still shows
 * in missing outcomes). Cash-Out latency, the partner's and the payee bank's own processing, stays.
 */
export const CASH_IN_LATENCY_EVIDENCE = false;

/**
 * A Cash-In failure is a charge the partner could not register, or payer behaviour (expirations,
 * returns): weak evidence. It can point at a partner or the platform (they register charges), never on
 * its own at a merchant or a payer bank, whose Cash-In is judged on settlements that stop arriving.
 */
export const CASH_IN_ERRORS_BLAME_LEAVES = false;

/**
 * A leaf origin (merchant, payer bank, cohort) blamed only for missing activity (INFERRED) must show it
 * in one more consecutive window than the lifecycle's two (docs/contract.md, PIX health): absence at a leaf
 * is the noisiest signal there is (night volumes, weekday and holiday shifts the baseline has not seen yet),
 * and errors or slowness observed at the origin still open in two.
 */
export const LEAF_INFERRED_EXTRA_WINDOWS = 1;

/**
 * New transactions are created by merchants at our gateway: fewer of them is evidence against a merchant
 * (its intake) or the platform (ours), never against a partner or a bank, which only see a transaction
 * after it exists. Their own activity is judged on outcomes, scaled by the intake (INTAKE_PRIOR).
 */
export const CREATED_BLAMES: readonly SliceKind[] = ['client', 'platform'];

/**
 * A calendar day (a holiday, a bridge day, a final on TV) removes up to half of the whole platform's new
 * transactions for every client alike, exactly like a partial failure of our intake would, and calendar
 * effects compound (a holiday on a Sunday keeps ~40 % of a weekday's intake). Our own intake failing stops
 * most requests: without a calendar, the platform is blamed for missing intake only beyond 75 %.
 */
export const PLATFORM_INTAKE_MIN_DROP = 0.75;

/**
 * An open platform incident opened on intake (>= PLATFORM_INTAKE_MIN_DROP) stays open on the relaxed
 * test only while intake is still at least half that far down. The relaxed test's own 10 % is inside
 * the calendar's range (a quiet afternoon after our outage, with a level frozen since before it, reads
 * 15 % low), and would keep a finished outage from resolving (observed: 25 minutes late).
 */
export const PLATFORM_INTAKE_HOLD_DROP = PLATFORM_INTAKE_MIN_DROP / 2;

/**
 * An open cohort stays open on its members' pooled outcomes only while they are at least 30 % short
 * (three quarters of the 40 % its strict test opens at). Its small banks' levels are frozen from the
 * cohort's first windows, and an evening's traffic falls under them: after a fault found early (by the
 * CUSUM scan), the four banks read 23-24 % short on the relaxed test two windows in three (resolved
 * 10 minutes late), where the fault itself had them 70 % short.
 */
export const COHORT_HOLD_DROP = 0.3;

/** Does a relaxed evaluation keep an open incident at this kind of origin hurt? */
export function keepsOpen(kind: SliceKind | 'cohort', family: Family, e: Eval): boolean {
  if (!e.anomalous) return false;
  if (family === 'created' && kind === 'platform') return (e.deviation ?? 0) <= -PLATFORM_INTAKE_HOLD_DROP;
  if (family === 'outcomes' && kind === 'cohort') return (e.deviation ?? 0) <= -COHORT_HOLD_DROP;
  return true;
}

/**
 * Outcomes follow intake: a quiet holiday, a client's campaign or burst moves both. A slice's expected
 * outcomes are scaled by its intake ratio (created observed / expected; for a bank, the platform's, as a
 * Cash-In charge has no bank yet), so only outcomes missing beyond what intake explains are judged. The
 * ratio is shrunk towards 1 by this many pseudo-transactions, so a handful of charges at night cannot
 * swing it.
 */
export const INTAKE_PRIOR = 10;

/**
 * A merchant's intake is judged against the rest of the platform's only when the rest is clearly down
 * (a holiday, our own outage: below 80 % of its expectation). Above that, scaling would add the rest's
 * own noise to every merchant's test and hide a merchant that stopped.
 */
export const COMMON_DIP = 0.8;

export function intakeRatio(created: number, expCreated: number | null): number {
  if (expCreated === null) return 1;
  return (created + INTAKE_PRIOR) / (expCreated + INTAKE_PRIOR);
}

/**
 * A Cash-In settles a payment delay after its charge was created (a minute or two, a tail of hours), so
 * a window's settlements come from the creations of this window and the one before: its expected
 * outcomes follow the intake of both windows pooled, not of this one alone. This window's own ratio put
 * the created count's noise, and the common mode's swings, into the expectation a window early: a
 * partner read "25 % short" for two windows at the evening peak with no fault (a family world with
 * payers at a 2-minute median). Cash-Out outcomes follow their transfers within seconds: one window.
 * Never above 1: more charges than usual are paid over the next minutes to hours (heavy-tailed payers),
 * not in this window, and scaling up by them read a partner "25 % short" as the evening rose (a family
 * world with a Pareto tail of late payers). A dip still scales down: a quiet day is explained away.
 */
export function cashInIntakeRatio(
  created: number,
  expCreated: number | null,
  prev: readonly [number, number, number, number] | undefined,
): number {
  const ratio =
    expCreated === null || !prev || prev[1] < 0
      ? intakeRatio(created, expCreated)
      : intakeRatio(created + prev[0], expCreated + prev[1]);
  return Math.min(1, ratio);
}

/**
 * Failures blame a merchant or a bank only when the codes in excess are theirs (or their users'):
 * PROVIDER_UNAVAILABLE on a merchant's transfers is its partner failing, PROCESSING_ERROR is ours.
 */
export const ERROR_LAYERS_BLAMING: Partial<Record<SliceKind, readonly CodeLayer[]>> = {
  client: ['MERCHANT', 'END_USER'],
  institution: ['INSTITUTION', 'END_USER'],
};

/**
 * A failure trend (the CUSUM alarm, weaker than any single window) blames a partner or the platform only
 * when the codes in excess this window are not the users' own (END_USER: wrong keys and accounts;
 * MERCHANT: limits and balances). Those vary with who pays whom and are the background's noise; after a
 * bank's failures (a symptom on every partner while its incident is open) leave a partner's CUSUM high,
 * two windows of such noise form a "trend" (a partner blamed after a bank's incident resolved, on
 * PIX_KEY_NOT_FOUND and PAYEE_ACCOUNT_INVALID at z 0.7-1.2). A strict window
 * still counts whatever its codes.
 */
export const TREND_LAYERS_EXCLUDED: readonly CodeLayer[] = ['END_USER', 'MERCHANT'];

/**
 * One window's evidence (a strict window, not pooled, trend, or silence) opens an OBSERVED incident in
 * two windows (the lifecycle's confirmation), and many slices are watched at once: 20 payer banks x 2 pairs (Cash-Out failures
 * and latency) x 288 windows x 90 days is over a million tests (budget.ts). z 3 on each of two
 * independent windows (1.35e-3 squared) would spend 1.9 false bank incidents where the budget allows 1;
 * the z each window needs is the budget's: banks 3.10, merchants 3.02, partners 3.03 (the platform, 7
 * pairs of one slice, is within the budget at z 3). Missing traffic at a bank or merchant is INFERRED
 * and takes three windows: z 3 cubed is far inside the budget.
 */
export const BUDGET_Z: Partial<Record<SliceKind, number>> = {
  institution: budgetZ(testsInBudget('institution'), 2),
  client: budgetZ(testsInBudget('client'), 2),
  partner: budgetZ(testsInBudget('partner'), 2),
};

/** Does this strict evaluation count as evidence against this kind of slice? */
export function countsAgainst(
  kind: SliceKind,
  op: Operation,
  family: Family,
  e: Eval,
  codeLayer: CodeLayer | null = null,
): boolean {
  if (!e.anomalous) return false;
  const budgetZ = BUDGET_Z[kind];
  if (budgetZ !== undefined && e.basis === undefined && Math.abs(e.z) < budgetZ) {
    // Counts at a leaf are INFERRED (three windows): z 3 is inside the budget there.
    if (family === 'errors' || family === 'latency' || kind === 'partner') return false;
  }
  const layers = ERROR_LAYERS_BLAMING[kind];
  if (family === 'errors' && layers && codeLayer !== null && !layers.includes(codeLayer)) return false;
  if (family === 'errors' && e.basis?.kind === 'trend' && codeLayer !== null) {
    if (TREND_LAYERS_EXCLUDED.includes(codeLayer)) return false;
  }
  if (family === 'created' && !CREATED_BLAMES.includes(kind)) return false;
  if (family === 'created' && kind === 'platform') return (e.deviation ?? 0) <= -PLATFORM_INTAKE_MIN_DROP;
  if (kind !== 'client' && kind !== 'institution') return true;
  if (family === 'errors' && op === 'CASH_IN') return CASH_IN_ERRORS_BLAME_LEAVES;
  if (kind !== 'client') return true;
  if (family === 'latency') return MERCHANT_LATENCY_EVIDENCE;
  if (family === 'created' || family === 'outcomes') return (e.deviation ?? 0) <= -MERCHANT_MIN_DROP;
  return true;
}

/** Consecutive windows a pattern needs before it opens an incident. */
export function windowsToConfirm(base: number, h: { kind: string; families: readonly Family[] }): number {
  const leaf = h.kind === 'client' || h.kind === 'institution' || h.kind === 'cohort';
  const inferredOnly = !h.families.includes('errors') && !h.families.includes('latency');
  return leaf && inferredOnly ? base + LEAF_INFERRED_EXTRA_WINDOWS : base;
}

/**
 * An open incident raised on failures is judged back to normal on windows too small for the rate test
 * (fewer outcomes than the relaxed gate) once their outcomes, summed since the last judged window,
 * favour the baseline rate over the highest rate the incident was raised at by e^RECOVERY_LLR (a
 * likelihood ratio of 20; a sequential test, each such run counting as one normal window): 0 failures of
 * 2 Cash-Outs where a bank was failing 83 % and 1.5 % is usual is e^-3.2. Such windows otherwise neither
 * confirmed nor cleared it: a mid-sized bank at 1-7 transfers a window after its evening peak, and a
 * partner at 1-5, stayed open for 30-70 minutes after the fault ended.
 */
export const RECOVERY_LLR = 3;

/** ln of the likelihood ratio of (failed of outcomes) at the fault's rate p1 against the baseline p0. */
export function faultRateLlr(
  failed: number,
  outcomes: number,
  p0: number,
  p1: number,
  rateFloor: number,
): number {
  if (outcomes <= 0) return 0;
  const q0 = Math.min(0.98, Math.max(p0, rateFloor));
  const q1 = Math.min(0.99, Math.max(p1, q0 + 0.05));
  return failed * Math.log(q1 / q0) + (outcomes - failed) * Math.log((1 - q1) / (1 - q0));
}
