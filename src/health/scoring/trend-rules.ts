// Evidence that persists across windows for failure rates: the CUSUM and when it is evidence on its
// own (a trend). Every threshold is named here with the reason for its value (history:
// src/health/README.md (How the rules were tuned)).

import type { SliceKind } from '../windows/views';

/**
 * Evidence that persists across windows, for failure rates: a CUSUM of the log-likelihood ratio of
 * "the rate is CUSUM_RISE above its baseline" against "it is at its baseline", window by window
 * (S = max(0, S + llr)). A ramp climbing from 0 % shows in it windows before any single window reaches
 * z 3. 10 points is twice the smallest rise judged (minRateIncrease): the size of fault worth waking
 * someone for.
 */
export const CUSUM_RISE = 0.1;
/**
 * Above this (a likelihood ratio of e^3 = 20:1 for a fault) the entity's rate and dispersion baselines
 * stop learning: a ramp's early windows, each too mild to be anomalous, otherwise raise the expected
 * rate and its spread, and the ramp hides behind its own beginning (observed: +1.3 points and kappa
 * 1.0 -> 1.2 within 20 minutes).
 */
export const CUSUM_SUSPECT = 3;
/**
 * Above this (e^5 = 150:1) a candidate survives a window that is not anomalous on its own, when that
 * window still favours the fault (its own llr > 0): a small partner's ramp with 3 failures out of 15
 * in one window (20 % where 3 % is usual, z 1.9) does not restart the lifecycle's two windows. The window
 * does not count towards them either, so a one-window blip still never opens anything.
 */
export const CUSUM_HOLD = 5;
/**
 * Above this (e^10: a fault 22 000 times likelier than none) the CUSUM is itself evidence: a window that
 * still shows a rise is anomalous in failures although too small to reach z 3 alone (a small partner's
 * ramp at 2 failures of 11, after 6 of 13). Only when the CUSUM_TREND_WINDOWS windows just before also
 * favoured the fault (llr > 0): a trend, not one bad window (a one-window blip takes the CUSUM to its
 * cap at once, and must still never open anything), nor the noise after a fault ended (its first normal
 * window breaks the trend while the CUSUM is still high).
 */
export const CUSUM_ALARM = 10;
export const CUSUM_TREND_WINDOWS = 2;
/**
 * ...out of the last CUSUM_TREND_SPAN windows that had outcomes (windows without any are no evidence
 * either way). Two in a row was asked before: a partner with 3-5 transfers a window ramping past 20 %
 * shows 0 failures of 4 in one window in three by chance, and each such window restarted the count
 * (a ramp then seen almost 5 windows after the rate passed 20 %). A blip's window followed by normal
 * ones still never makes a trend: the window judged must itself be CUSUM_RISE above the baseline.
 */
export const CUSUM_TREND_SPAN = 3;
/**
 * The alarm level adapts to the slice's volume. A CUSUM's false alarms come per transfer, not per
 * window (its no-fault run length is counted in Bernoulli trials: ARL ~ e^h / drift per transfer), so
 * at a fixed level a slice with few transfers a window raises far fewer false alarms per window than a
 * busy one. Below CUSUM_ALARM_REF_OUTCOMES outcomes a window (typical, EW) the level is lowered by
 * ln(ref / n), which keeps the false alarms per window of a quiet partner at the reference partner's
 * rate; above it, CUSUM_ALARM stays (busy slices reach z 3 on single windows anyway). 20 outcomes is
 * the volume at which one window needs ~40 % failing for z 3 (src/health/README.md, Known limitations):
 * below it the trend is the only early evidence. Floored at CUSUM_ALARM_MIN (e^8, 3 000:1): at the
 * fixed level of 10 a ramp of ~7 transfers a window is seen over 6 windows after passing 20 %.
 */
export const CUSUM_ALARM_REF_OUTCOMES = 20;
export const CUSUM_ALARM_MIN = 8;
export function cusumAlarm(outcomesPerWindow: number): number {
  if (!(outcomesPerWindow > 0)) return CUSUM_ALARM;
  const lowered = CUSUM_ALARM + Math.log(Math.min(1, outcomesPerWindow / CUSUM_ALARM_REF_OUTCOMES));
  return Math.max(CUSUM_ALARM_MIN, lowered);
}
/**
 * ...for partners, the platform and payer banks, and only while the window's own rate is at least CUSUM_RISE
 * above the baseline: the window itself looks like the fault the CUSUM tests for. The window need not
 * pass the volume gate (a partner with 3-7 transfers a window failing at 60 % for 45 minutes is never
 * judged on a single window): the CUSUM already pools the windows. With
 * minRateIncrease (5 points) instead, the tail of a chance excursion (2 failures of 24 where 0.3 were
 * expected, after 5 of 42) reads as a trend. A bank's or merchant's CUSUM also grows
 * with the failures of the partner they use (a symptom, explained away while the partner's incident is
 * open), and must not outlive it as an incident of its own; after a fault ends the rate is back and the
 * CUSUM, still high, must not keep the incident open. A payer bank's trend counts only when the codes
 * in excess are its own layer's (PAYEE_BANK_*: ERROR_LAYERS_BLAMING without TREND_LAYERS_EXCLUDED), so
 * a partner's failures (PROVIDER_UNAVAILABLE) never make one: a bank with ~5 transfers a window failing
 * at 50-90 % never reached five failures in a window, and was missed (a family world); merchants stay
 * out (their own codes, limits and balances, are the background's).
 */
export const CUSUM_ALARM_KINDS: readonly SliceKind[] = ['partner', 'platform', 'institution'];
/**
 * The CUSUM is capped just above CUSUM_ALARM: once a fault ends, one normal window (llr about -3 for a
 * partner with 30 transfers a window) takes it below the alarm, so the memory that finds a ramp early
 * does not keep a finished fault open (observed: a flicker relapsing on 3 failures of 30 after its end).
 */
export const CUSUM_CAP = 12;

/**
 * One window brings at most this much (e^5, 150:1) into the CUSUM: a trend is evidence that persists
 * across windows, and a single strong window is judged on its own (z, or pooled with the previous one).
 * With the level lowered for small partners (cusumAlarm), one chance window carried a trend alone: a
 * partner with ~7 transfers a window saw 4 failures of 11 (llr 6.9 of the 9.6 reached), then 1 of 8,
 * and the second window read as a trend (a false incident of 25 minutes). A ramp's
 * windows stay below it until the rate is past 40 % (3 failures of 7 is 4.9); at 4 the bench's
 * slowest small-partner ramp was seen a window later (4.3 windows after passing 20 %), at 5 none moved.
 */
export const CUSUM_WINDOW_MAX = 5;

/** This window's failure-rate log-likelihood ratio (fault: baseline + CUSUM_RISE) for a slice. */
export function rateLlr(failed: number, outcomes: number, p0: number, rateFloor: number): number {
  if (outcomes <= 0) return 0;
  const q0 = Math.min(0.98, Math.max(p0, rateFloor));
  const q1 = Math.min(0.99, q0 + CUSUM_RISE);
  return failed * Math.log(q1 / q0) + (outcomes - failed) * Math.log((1 - q1) / (1 - q0));
}
