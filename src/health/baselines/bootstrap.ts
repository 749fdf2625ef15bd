// Bootstrap from history: how an analyzer that is still warming up takes days of past observations
// (an export of the ledgers' outboxes, a replay, generated traffic) that arrive through the same queue
// as, and interleaved with, the live traffic.
//
// Windows are judged in time order and never reopened, so history older than the open window cannot
// be slotted into it. But a cold analyzer (inside its warm-up) has published nothing: its windows only
// taught baselines. So an observation more than an hour older than anything it could still count
// makes it start over from that history. Until the history stops arriving, recent observations (the
// last hour: live traffic, late stragglers, the history's own tail) are parked rather than counted,
// since counting them would move the timeline to "now" and make the rest of the history too late; and
// the alarm stops closing windows on wall-clock time. Then the parked observations are replayed in
// time order: every window is closed once, with all of its traffic.
//
// A warm analyzer never starts over: past observations beyond its lateness are dropped as before
// (re-judging closed windows would publish them twice). Starting over costs the cold analyzer's own
// learning, which the history is expected to cover.
import type { Analyzer } from '../analyzer';
import { WINDOW_MS } from '../windows/window';

/** Observations this recent are live (parked during a bootstrap); older ones can be history. */
export const LIVE_MARGIN_MS = 60 * 60_000;

export interface Bootstrap {
  /** Observations at or after this instant are parked until the history has stopped arriving. */
  liveFrom: number;
  /** Wall-clock time the last history observation was counted. */
  lastHistoryAt: number;
}

function liveFromAt(nowMs: number): number {
  return Math.floor(nowMs / WINDOW_MS) * WINDOW_MS - LIVE_MARGIN_MS;
}

/** Is `atMs` history a cold analyzer should start over from? */
export function startsBootstrap(analyzer: Analyzer, atMs: number, nowMs: number): boolean {
  if (analyzer.warm) return false;
  const first = analyzer.firstWindowStartMs;
  const older = first === null || atMs < first - analyzer.cfg.allowedLatenessMs;
  return older && atMs < liveFromAt(nowMs);
}

export function newBootstrap(nowMs: number): Bootstrap {
  return { liveFrom: liveFromAt(nowMs), lastHistoryAt: nowMs };
}

/**
 * For the alarm: the history has stopped arriving for a whole window. (Not "has reached the live
 * range": its tail may still be in flight, and would be too late once the parked traffic is counted.)
 * An explicit advance ends a bootstrap at once.
 */
export function bootstrapDone(b: Bootstrap, nowMs: number): boolean {
  return nowMs - b.lastHistoryAt >= WINDOW_MS;
}
