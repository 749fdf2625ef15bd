// Seasonal baseline of one count series (e.g. settlements of one institution on CASH_IN):
//   expected(window) = dailyShape(time of day) * recentLevel
// dailyShape: per UTC hour, the median over the last `historyDays` days of that hour's mean per-window count,
//   interpolated linearly between hour centres (the median makes one bad day harmless);
// recentLevel: ratio of sums observed/shape over the last `levelWindows` normal windows (today vs usual);
// dispersion: MAD of recent standardised residuals (x - E) / sqrt(E), floored at 1 (Poisson).
// Anomalous windows never feed any of these, so an outage does not teach the baseline that silence is normal.

import { present } from '../../domain/present';
import type { AnalyzerConfig } from '../config';
import { median, newRing, type Ring, ringPush } from '../windows/stats';
import { DAY_MS, HOUR_MS, WINDOW_MS, WINDOWS_PER_HOUR } from '../windows/window';

export interface SeasonalState {
  /** slots[h] = ring of up to historyDays hourly means (per-window counts) for UTC hour h. */
  slots: Ring[];
  /** Hour (ms / HOUR_MS) currently being accumulated, and its normal windows' sum and count. */
  hour: number;
  hourSum: number;
  hourN: number;
  /** The hour's normal window counts (for the trimmed hour mean). */
  hourVals?: number[];
  levelObs: Ring;
  levelShape: Ring;
  resid: Ring;
  /**
   * Exponentially weighted sums of the normal windows' excess variance, (x - E)^2 - E, and of E^2: their
   * ratio is the series' relative (multiplicative) noise c^2 (RELATIVE_NOISE_WINDOWS). Absent in
   * snapshots written before it existed (read as 0: no floor until learnt).
   */
  relVar?: number;
  relE2?: number;
}

/**
 * A window counted above BURST_CAP x its expectation (+ 3 Poisson sigmas) is an event (a betting client
 * at the end of a match, a campaign), not the new normal: it feeds the level and the daily shape at that
 * cap. A lasting rise is still learnt (at up to 2x per window, within a few hours), but a 15-minute burst
 * can no longer lift the expectation of the hours after it, which then read as a drop.
 */
export const BURST_CAP = 2;

/**
 * Memory of the relative-noise estimate, in windows (two days). A count's variance is E + c^2 E^2: the
 * Poisson part, plus whatever moves the rate multiplicatively (a client's own bursts and lulls, the
 * platform's common mode where the expectation does not follow it, the baseline's own error). The MAD of
 * the last 24 residuals sees c only through a couple of hours at one level of E and, with 24 values,
 * reads 25 % low one time in ten: a merchant at 25 new Cash-Outs a window whose windows vary with sd 6.8
 * (gamma shape 29, c^2 = 0.034) read kappa 1.00 at night, and four ordinary low windows made a false
 * incident. c^2 learnt over two days (weighted by E^2, so the busy hours that carry it dominate) is a
 * property of the traffic; the MAD still raises the dispersion when the last hours are wilder.
 */
export const RELATIVE_NOISE_WINDOWS = 576;
/** A window's deviation is clipped at this many model sigmas before it feeds c^2 (one burst is not noise). */
const RELATIVE_NOISE_CLIP = 4;

/** The learnt relative noise c^2 of a series (0 until learnt). */
export function relativeNoise(s: SeasonalState): number {
  return s.relE2 ? Math.max(0, (s.relVar ?? 0) / s.relE2) : 0;
}

/**
 * The dispersion factor the relative noise implies at `expected`: sd / sqrt(E) = sqrt(1 + c^2 E). The
 * floor under the MAD's kappa for count families (`scoring/window-context.ts`).
 */
export function relativeKappa(s: SeasonalState, expected: number | null): number {
  return expected === null || expected <= 0 ? 1 : Math.sqrt(1 + relativeNoise(s) * expected);
}

export function newSeasonal(): SeasonalState {
  return {
    slots: Array.from({ length: 24 }, newRing),
    hour: -1,
    hourSum: 0,
    hourN: 0,
    hourVals: [],
    levelObs: newRing(),
    levelShape: newRing(),
    resid: newRing(),
  };
}

/**
 * Daily-shape value for the window starting at `startMs`, or null while history is too short. With
 * fewer than `lowestBelow` days in an hour's slot, the lowest day stands in for the median (see
 * MERCHANT_MEDIAN_DAYS): counts are judged only for drops, so the lower day is the safe expectation.
 */
export function shapeAt(s: SeasonalState, startMs: number, minDays: number, lowestBelow = 0): number | null {
  const centre = startMs + WINDOW_MS / 2;
  const x = ((centre % DAY_MS) + DAY_MS) / HOUR_MS - 0.5;
  const k0 = ((Math.floor(x) % 24) + 24) % 24;
  const k1 = (k0 + 1) % 24;
  const frac = x - Math.floor(x);
  const a = present(s.slots[k0], `hour slot ${k0}`).v;
  const b = present(s.slots[k1], `hour slot ${k1}`).v;
  if (a.length < minDays || b.length < minDays) return null;
  const pick = (v: number[]) => (v.length < lowestBelow ? Math.min(...v) : median(v));
  return (1 - frac) * pick(a) + frac * pick(b);
}

/** The mean over the day of the hour slots' medians (a day's average window); null until every hour has one. */
export function dailyMean(s: SeasonalState): number | null {
  let sum = 0;
  for (const slot of s.slots) {
    if (slot.v.length === 0) return null;
    sum += median(slot.v);
  }
  return sum / s.slots.length;
}

/**
 * Share of the highest and lowest values left out of the hour means and of the recent level (an
 * interquartile mean): a 15-minute burst or dip is 3 of an hour's 12 windows, so it moves neither, while
 * symmetric noise is averaged as before.
 */
export const TRIM_SHARE = 0.25;

function trimmedMean(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const cut = Math.floor(sorted.length * TRIM_SHARE);
  let sum = 0;
  for (const value of sorted.slice(cut, sorted.length - cut)) sum += value;
  return sum / (sorted.length - 2 * cut);
}

/**
 * A payer bank's recent level is shrunk towards the platform's by this many expected events: its
 * payments are a share of everyone's, so its day is the platform's day unless its own traffic says
 * otherwise with enough events to be believed. A small bank's 24 recent windows at night hold a few
 * expected payments: its raw level read 2-3.3 at dawn with the platform's at 1, and its morning
 * expectation was twice what came (three banks "70 % short" for an hour of no-fault traffic: a false
 * cohort). With 10 pseudo-events such a level moves about a third of the way; a bank
 * expecting a few payments a window (60+ in its level) keeps its own. A stronger pull (15, 25) held a
 * finished cohort's banks at the platform's busier level and resolved it a window late.
 */
export const BANK_LEVEL_PRIOR = 10;

/** The recent level; `towards` (with `prior` pseudo-events) shrinks a thin one towards a parent's. */
export function levelOf(s: SeasonalState, towards: number | null = null, prior = BANK_LEVEL_PRIOR): number {
  const n = s.levelObs.v.length;
  const order = Array.from({ length: n }, (_, i) => i);
  const ratio = (i: number) => (s.levelObs.v[i] ?? 0) / Math.max(1e-9, s.levelShape.v[i] ?? 0);
  order.sort((a, b) => ratio(a) - ratio(b));
  const cut = Math.floor(n * TRIM_SHARE);
  let obs = 0;
  let shape = 0;
  for (const i of order.slice(cut, n - cut)) {
    obs += s.levelObs.v[i] ?? 0;
    shape += s.levelShape.v[i] ?? 0;
  }
  if (towards !== null) return Math.max(0.2, Math.min(5, (obs + prior * towards) / (shape + prior)));
  if (shape < 1) return 1;
  const level = obs / shape;
  return Math.max(0.2, Math.min(5, level));
}

/** Expected count for the window, or null while the series is not ready (warm-up). */
export function expectedCount(
  s: SeasonalState,
  startMs: number,
  cfg: AnalyzerConfig,
  towards: number | null = null,
  lowestBelow = 0,
): number | null {
  const shape = shapeAt(s, startMs, cfg.minHistoryDays, lowestBelow);
  return shape === null ? null : shape * levelOf(s, towards);
}

/**
 * Feed the closed window. `normal` = the entity was not anomalous (or has been so long that the baseline
 * must follow the new reality). Hour means are committed when the next hour starts, and only when at least
 * half of the hour's windows were normal.
 */
export function updateSeasonal(
  s: SeasonalState,
  startMs: number,
  observed: number,
  expected: number | null,
  normal: boolean,
  cfg: AnalyzerConfig,
): void {
  const hour = Math.floor(startMs / HOUR_MS);
  if (hour !== s.hour) {
    if (s.hour >= 0 && s.hourN >= WINDOWS_PER_HOUR / 2) {
      const mean = s.hourVals?.length ? trimmedMean(s.hourVals) : s.hourSum / s.hourN;
      ringPush(present(s.slots[((s.hour % 24) + 24) % 24], `hour slot of ${s.hour}`), mean, cfg.historyDays);
    }
    s.hour = hour;
    s.hourSum = 0;
    s.hourN = 0;
    s.hourVals = [];
  }
  if (!normal) return;
  if (expected !== null) observed = Math.min(observed, BURST_CAP * expected + 3 * Math.sqrt(expected));
  s.hourSum += observed;
  s.hourN += 1;
  s.hourVals ??= [];
  s.hourVals.push(observed);
  const shape = shapeAt(s, startMs, 1);
  if (shape !== null) {
    ringPush(s.levelObs, observed, cfg.levelWindows);
    ringPush(s.levelShape, shape, cfg.levelWindows);
  }
  if (expected !== null && expected >= 5) {
    ringPush(s.resid, (observed - expected) / Math.sqrt(expected), cfg.residualWindows);
  }
  if (expected !== null && expected > 0) learnRelativeNoise(s, observed - expected, expected);
}

function learnRelativeNoise(s: SeasonalState, deviation: number, expected: number): void {
  const decay = 1 - 1 / RELATIVE_NOISE_WINDOWS;
  const limit = RELATIVE_NOISE_CLIP * Math.sqrt(expected * (1 + relativeNoise(s) * expected));
  const d = Math.max(-limit, Math.min(limit, deviation));
  s.relVar = (s.relVar ?? 0) * decay + (d * d - expected);
  s.relE2 = (s.relE2 ?? 0) * decay + expected * expected;
}
