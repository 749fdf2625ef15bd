// 5-minute windows aligned to UTC (epoch-aligned, so every window starts at hh:m0 or hh:m5).

export const WINDOW_MS = 5 * 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const WINDOWS_PER_HOUR = HOUR_MS / WINDOW_MS;

export function windowIndexOf(ms: number): number {
  return Math.floor(ms / WINDOW_MS);
}

export function windowStartMs(index: number): number {
  return index * WINDOW_MS;
}

/** UTC ISO with `Z`, seconds precision (health timestamps: docs/contract.md, Field conventions). */
export function isoZ(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * "HH:MM" in São Paulo (UTC-3, no daylight saving since 2019), for summaries: an operator reads
 * the text beside BRT times, so the text is BRT too.
 */
export function hhmmBrt(ms: number): string {
  return new Date(ms - 3 * 60 * 60 * 1000).toISOString().slice(11, 16);
}
