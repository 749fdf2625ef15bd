// Which evidence may blame which origin, and how much of it is needed. Every threshold is named here
// with the reason for its value: an alarm must be earned (docs/health-tuning.md has the history).

import type { Operation } from '../types';
import type { CodeLayer } from '../windows/code-layers';
import type { SliceKind } from '../windows/views';
import { budgetZ, testsInBudget } from './budget';
import { countOf, type Eval, type Family, type SliceView } from './evaluate';

/**
 * A merchant's own volume swings with its business (campaigns, a betting client's matches, a slow
 * drift of its conversion): a MERCHANT is blamed for missing traffic only when at least half of it is
 * gone (an integration that stopped, not a quiet hour). Partners and banks keep the 20 % gate.
 */
export const MERCHANT_MIN_DROP = 0.5;

/**
 * Silence: a merchant that sends no new transaction at all in consecutive windows, while its
 * expectation over those windows adds up to SILENCE_MIN_EXPECTED, has stopped (an integration down),
 * however small each window is. One window of a small merchant is never judged (fewer than 10
 * expected); two windows pooled need the second to look hurt on its own (z 2 with the merchant's
 * dispersion): a merchant expecting ~6 charges a window that sends none for 30 minutes is never seen
 * that way. Zero where 15 were expected is a Poisson probability of e^-15 (a signed-root
 * z of -5.5), and stays below 1e-3 with the bench's strongest over-dispersion or a baseline twice too
 * high; calendar dips are already explained (merchants are scaled by the rest of the platform's intake).
 * At least SILENCE_MIN_WINDOWS windows: one empty window is a gap between bursts.
 *
 * A payer bank is the same on its outcomes (settlements it pays or receives): total silence is not the
 * tail of its usual spread. A big bank's outcome dispersion (kappa 1.8, learned from its busy hours)
 * keeps 0 settlements where 14 were expected at z -2.1, window after window, so a bank silent for over
 * an hour is never blamed, and its level then learns the silence (14 -> 7 a window).
 */
export const SILENCE_MIN_EXPECTED = 15;
export const SILENCE_MIN_WINDOWS = 2;

/**
 * What a slice's silence is counted on: a merchant creates transactions, a payer bank settles them, and
 * so does a partner (its outcomes, while charges and transfers are still created at our gateway). A
 * partner at a few outcomes a window (a 0.3x platform in the morning) that stopped settling Cash-In for
 * 90 minutes was never judged on one window, and pooled pairs stayed under the gates (a family world).
 */
export const SILENCE_FAMILY: Partial<Record<SliceKind, 'created' | 'outcomes'>> = {
  client: 'created',
  institution: 'outcomes',
  partner: 'outcomes',
};

/**
 * A bank's run counts only windows expecting at least this many outcomes (the relaxed volume gate): a
 * bank's night, at a few payments a window, is as quiet as its day is loud, and a bank whose night
 * volume the baseline overstates (a quieter night than the ones it learned) would sum an hour of
 * Poisson zeros past SILENCE_MIN_EXPECTED. Night sensitivity stays limited on purpose (src/health/README.md,
 * Known limitations). A merchant's silence is its own integration, and its expectation is scaled by the rest
 * of the platform's intake (COMMON_DIP), so it keeps no floor.
 */
export const BANK_SILENCE_WINDOW_MIN = 5;
/**
 * A partner's run counts windows expecting at least 2 outcomes: a partner carries many merchants and
 * banks, so its night is steadier than a bank's, and the silent partner above expected 3-4.5 a window
 * (never 5). Zero in a run expecting 15 stays e^-15 (3e-7) per run start: 5 partners x 2 operations x
 * 288 windows x 90 days is 0.08 false incidents in the budget's 90 days, with an expectation twice too
 * high 0.14 (e^-7.5 per run, and a run needs 8+ windows at 2 a window).
 */
export const PARTNER_SILENCE_WINDOW_MIN = 2;

/**
 * A bank's night is a risk only because its own seasonal baseline, learnt from a few payments a window,
 * can overstate a quiet night. Its share of the other banks' outcomes in the same window
 * (`baselines/bank-share.ts`) cannot: it follows the hour, the day and the platform as they happen. When
 * the share is known, a window counts in the run with the lower of the two expectations, from the
 * partner's floor: a top bank of a 0.3x platform with a flat bank-share law expects ~3 settlements a
 * window at the evening peak, and silent for 85 minutes (48 expected, none seen) it was never judged.
 * Per run start the rate stays e^-15 (20 banks x 2 operations x 288 windows x 90 days: 0.32 in the budget's
 * 90 days, as before).
 */
export const BANK_SHARE_SILENCE_WINDOW_MIN = PARTNER_SILENCE_WINDOW_MIN;

/**
 * Silence need not be total: a merchant whose integration fails for most requests, or a bank whose app
 * settles one payment in twenty, still trickles. A run goes on while the slice has delivered at most this
 * share of its expectation since the run began (`seen` accumulated), and is judged on the Poisson lower
 * tail of what it delivered over the run: the same e^-SILENCE_MIN_EXPECTED per run as 0 seen where 15 were
 * expected, which is what a run with nothing seen reduces to (1 seen needs 17.9 expected, 2 need 20.5).
 * A merchant at ~9 charges a window that lost 95 % of them for an hour (0, 1, 1, 0, 1, 1, 0 a window) was
 * never judged: each single charge ended its silence, and no window reached the volume gate.
 */
export const SILENCE_MAX_SHARE = 0.1;
/**
 * ... and no window of it delivered more than this share of its own expectation: a long run's budget of
 * 10 % would otherwise take in the first window back to normal, and the incident resolved a window late.
 */
export const SILENCE_WINDOW_MAX_SHARE = 0.5;

/** The silence run after this window ([expected, windows, seen]; [0, 0, 0] when the run ends). */
export function silenceRun(
  kind: SliceKind,
  prev: readonly [number, number, number?] | undefined,
  seen: number,
  expectedOwn: number | null,
  /** A bank's share of the other banks' outcomes this window (null: not learnt, or not a bank). */
  shareExpected: number | null = null,
): [number, number, number] {
  const byShare = kind === 'institution' && shareExpected !== null && expectedOwn !== null;
  const expected = byShare ? Math.min(expectedOwn, shareExpected) : expectedOwn;
  const floor = byShare
    ? BANK_SHARE_SILENCE_WINDOW_MIN
    : kind === 'institution'
      ? BANK_SILENCE_WINDOW_MIN
      : kind === 'partner'
        ? PARTNER_SILENCE_WINDOW_MIN
        : 0;
  if (expected === null || !(expected > 0) || expected < floor) return [0, 0, 0];
  const [e, n, s] = prev ?? [0, 0, 0];
  // A window with half of its traffic is no part of a silence, whatever the run before it delivered.
  const quiet = seen <= SILENCE_WINDOW_MAX_SHARE * expected;
  if (n > 0 && quiet && (s ?? 0) + seen <= SILENCE_MAX_SHARE * (e + expected))
    return [e + expected, n + 1, (s ?? 0) + seen];
  // The run is broken: this window may start the next one.
  return seen <= SILENCE_MAX_SHARE * expected ? [expected, 1, seen] : [0, 0, 0];
}

/** ln P(X <= seen) for X Poisson with mean `expected` (the terms relative to the k = 0 term, e^-expected). */
function poissonLowerLog(seen: number, expected: number): number {
  let logTerm = 0;
  let sum = 1;
  for (let k = 1; k <= seen; k++) {
    logTerm += Math.log(expected / k);
    sum += Math.exp(logTerm);
  }
  return Math.log(sum) - expected;
}

/** A slice silent (or nearly) for a run of windows ([expected, windows, seen]), judged pooled over the run. */
export function silenceEval(run: readonly [number, number, number?], family: Family): Eval | null {
  const [expected, windows, seen = 0] = run;
  if (windows < SILENCE_MIN_WINDOWS || poissonLowerLog(seen, expected) > -SILENCE_MIN_EXPECTED) return null;
  return silence(expected, windows, family, seen);
}

function silence(expected: number, windows: number, family: Family, seen = 0): Eval {
  const deviance = 2 * Math.max(0, expected - seen + (seen > 0 ? seen * Math.log(seen / expected) : 0));
  return {
    family,
    basis: { kind: 'pooled', windows },
    evaluated: true,
    anomalous: true,
    // Signed root of the Poisson deviance of `seen` where `expected` were expected.
    z: -Math.sqrt(deviance),
    deviation: seen / expected - 1,
    impact: 1 - seen / expected,
    size: expected,
    observed: seen,
    expected,
  };
}

/**
 * An incident opened on a silent slice too small to be judged on one window: it stays hurt while the
 * silence lasts, and its first window with activity is judged normal (else nothing could ever resolve
 * it: a window expecting 3 is never judged).
 */
export function silenceContinuing(
  v: SliceView & { kind: SliceKind; silent?: [number, number, number?] },
  family: Family,
  e: Eval,
): Eval {
  const silenceFamily = SILENCE_FAMILY[v.kind];
  if (e.evaluated || v.silent === undefined || silenceFamily !== family) return e;
  const [observed, expected] = countOf(v, silenceFamily);
  if (expected === null) return e;
  if (v.silent[1] > 0) return silence(v.silent[0], v.silent[1], family, v.silent[2] ?? 0);
  return { ...e, evaluated: true, anomalous: false, observed, expected, size: expected };
}

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
