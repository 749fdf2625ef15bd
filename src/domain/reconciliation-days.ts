/**
 * Which America/Sao_Paulo days the daily reconciliation still owes a partner (docs/operating.md,
 * Daily reconciliation): every closed day from the first one ever checked that has no final report
 * (MATCHED or BREAKS) yet, whether its run found the partner down, it was too large for one run, or
 * the cron never ran that day. Oldest first: a day is never dropped because a newer one closed.
 */

import type { ReportStatus } from './reconciliation-matching';
import { brtDate, brtStartOfDay } from './time';

/** How long after midnight the day is read: late listings at the partner settle by then. */
export const RECON_LAG_MS = 30 * 60_000;
/** How far back a day is still owed: older ones stay as they are (a PENDING one is the operator's). */
export const RECON_BACKLOG_DAYS = 35;

const DAY_MS = 86_400_000;

/** The last day closed RECON_LAG_MS ago or more, as YYYY-MM-DD in America/Sao_Paulo. */
export function lastClosedDay(now: number): string {
  const today = brtDate(now - RECON_LAG_MS);
  return brtDate(brtStartOfDay(today) - 1);
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The days owed are read from this one on: the first day ever checked (none: the last closed day),
 * never more than RECON_BACKLOG_DAYS back, never after `last`.
 */
export function backlogStart(firstChecked: string | undefined, last: string): string {
  const floor = addDays(last, 1 - RECON_BACKLOG_DAYS);
  if (firstChecked === undefined || firstChecked > last) return last;
  return firstChecked < floor ? floor : firstChecked;
}

/** Every day from `first` to `last`, both included, oldest first. */
export function daysFrom(first: string, last: string): string[] {
  const days: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) days.push(d);
  return days;
}

/** A day is owed until its report is final. */
export const isOwed = (status: ReportStatus | undefined): boolean =>
  status === undefined || status === 'PENDING';
