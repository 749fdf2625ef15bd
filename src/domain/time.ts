/**
 * Timestamps: Cash-In, Cash-Out, summary and statement times are America/Sao_Paulo (-03:00, no
 * daylight saving since 2019) with milliseconds; health times are UTC with `Z`.
 */
const BRT_OFFSET_MS = 3 * 60 * 60 * 1000;

export function formatBrt(ms: number): string {
  return `${new Date(ms - BRT_OFFSET_MS).toISOString().slice(0, 23)}-03:00`;
}

export function formatUtc(ms: number): string {
  return new Date(ms).toISOString();
}

/** Calendar date (YYYY-MM-DD) in America/Sao_Paulo of an instant. */
export function brtDate(ms: number): string {
  return new Date(ms - BRT_OFFSET_MS).toISOString().slice(0, 10);
}

/** Instant of 00:00:00.000 America/Sao_Paulo on a calendar date (YYYY-MM-DD). */
export function brtStartOfDay(date: string): number {
  return Date.parse(`${date}T00:00:00.000-03:00`);
}
