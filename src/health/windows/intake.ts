// When an observation may have happened, as the analyzer's intake sees it. Windows close in time
// order and are never reopened, so one observation dated in the future would move the timeline
// there: every window up to it closed at once, and live traffic dropped as too late from then on.
// Imports are history: an imported observation is also at most IMPORT_HISTORY_MS old (enough to warm
// a new deployment, which needs days; older history only sets a cold analyzer's first window).

/** Clock skew tolerated between whoever stamped an observation and the analyzer. */
export const MAX_AHEAD_MS = 5 * 60_000;
/** How far back an operator import may reach. */
export const IMPORT_HISTORY_MS = 30 * 86_400_000;

/** Why an observation at `atMs` may not enter the analyzer at `nowMs`, or undefined. */
export function futureProblem(atMs: number, nowMs: number): string | undefined {
  return atMs > nowMs + MAX_AHEAD_MS
    ? `at must not be more than ${MAX_AHEAD_MS / 60_000} minutes ahead of the gateway's clock (${new Date(nowMs).toISOString()})`
    : undefined;
}

/** Why an imported observation at `atMs` is refused at `nowMs`, or undefined. */
export function importTimeProblem(atMs: number, nowMs: number): string | undefined {
  if (atMs < nowMs - IMPORT_HISTORY_MS)
    return `at must be within the last ${IMPORT_HISTORY_MS / 86_400_000} days (imports are recent history)`;
  return futureProblem(atMs, nowMs);
}
