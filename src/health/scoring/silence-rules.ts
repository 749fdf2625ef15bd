// Silence rules: when a slice that stopped delivering (new transactions for a merchant, settlements for
// a payer bank or a partner) is blamed however small each of its windows is, and how such an incident
// stays open. The tail they share is a total silence's: e^-SILENCE_MIN_EXPECTED per run
// (src/health/README.md, False-alarm budget).
import type { SliceKind } from '../windows/views';
import { countOf, type Eval, type Family, type SliceView } from './evaluate';

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
 * A merchant whose silence comes with the rest of the platform's intake down (below COMMON_DIP): its run
 * counts its expectation times the rest's own intake ratio, unshrunk. Shrunk by
 * INTAKE_PRIOR, the largest client of a 0.5x platform still expected a quarter of its charges during our
 * own intake outage, its trickle read as a near-silence, and the MERCHANT origin displaced CONNECTPSP
 * (whose open incident is what explains the partners' missing outcomes).
 */
export function silenceRestIntake(restCreated: number, restExpected: number): number {
  return restExpected > 0 ? Math.min(1, Math.max(0, restCreated) / restExpected) : 1;
}
