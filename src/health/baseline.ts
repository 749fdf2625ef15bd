// Seasonal baseline of one count series (e.g. settlements of one institution on CASH_IN):
//   expected(window) = dailyShape(time of day) * recentLevel
// dailyShape: per UTC hour, the median over the last `historyDays` days of that hour's mean per-window count,
//   interpolated linearly between hour centres (the median makes one bad day harmless);
// recentLevel: ratio of sums observed/shape over the last `levelWindows` normal windows (today vs usual);
// dispersion: MAD of recent standardised residuals (x - E) / sqrt(E), floored at 1 (Poisson).
// Anomalous windows never feed any of these, so an outage does not teach the baseline that silence is normal.
import type { AnalyzerConfig } from './config';
import { median, newRing, type Ring, ringPush } from './stats';
import { DAY_MS, HOUR_MS, WINDOW_MS, WINDOWS_PER_HOUR } from './window';

export interface SeasonalState {
  /** slots[h] = ring of up to historyDays hourly means (per-window counts) for UTC hour h. */
  slots: Ring[];
  /** Hour (ms / HOUR_MS) currently being accumulated, and its normal windows' sum and count. */
  hour: number;
  hourSum: number;
  hourN: number;
  levelObs: Ring;
  levelShape: Ring;
  resid: Ring;
}

export function newSeasonal(): SeasonalState {
  return {
    slots: Array.from({ length: 24 }, newRing),
    hour: -1,
    hourSum: 0,
    hourN: 0,
    levelObs: newRing(),
    levelShape: newRing(),
    resid: newRing(),
  };
}

/** Daily-shape value for the window starting at `startMs`, or null while history is too short. */
export function shapeAt(s: SeasonalState, startMs: number, minDays: number): number | null {
  const centre = startMs + WINDOW_MS / 2;
  const x = ((centre % DAY_MS) + DAY_MS) / HOUR_MS - 0.5;
  const k0 = ((Math.floor(x) % 24) + 24) % 24;
  const k1 = (k0 + 1) % 24;
  const frac = x - Math.floor(x);
  const a = s.slots[k0]!.v;
  const b = s.slots[k1]!.v;
  if (a.length < minDays || b.length < minDays) return null;
  return (1 - frac) * median(a) + frac * median(b);
}

export function levelOf(s: SeasonalState): number {
  let obs = 0;
  let shape = 0;
  for (const v of s.levelObs.v) obs += v;
  for (const v of s.levelShape.v) shape += v;
  if (shape < 1) return 1;
  const level = obs / shape;
  return Math.max(0.2, Math.min(5, level));
}

/** Expected count for the window, or null while the series is not ready (warm-up). */
export function expectedCount(s: SeasonalState, startMs: number, cfg: AnalyzerConfig): number | null {
  const shape = shapeAt(s, startMs, cfg.minHistoryDays);
  return shape === null ? null : shape * levelOf(s);
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
      ringPush(s.slots[((s.hour % 24) + 24) % 24]!, s.hourSum / s.hourN, cfg.historyDays);
    }
    s.hour = hour;
    s.hourSum = 0;
    s.hourN = 0;
  }
  if (!normal) return;
  s.hourSum += observed;
  s.hourN += 1;
  const shape = shapeAt(s, startMs, 1);
  if (shape !== null) {
    ringPush(s.levelObs, observed, cfg.levelWindows);
    ringPush(s.levelShape, shape, cfg.levelWindows);
  }
  if (expected !== null && expected >= 5) {
    ringPush(s.resid, (observed - expected) / Math.sqrt(expected), cfg.residualWindows);
  }
}
