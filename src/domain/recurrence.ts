/**
 * Pix Automático's rules as pure functions (docs/contract.md, Pix Automático): frequencies and their
 * API Pix names, each cycle's due date, the 10-to-2-day window in which a cycle's charge is sent,
 * the payer's cancellation deadline, amount rules and the retry policy. Dates are calendar dates
 * (YYYY-MM-DD) in America/Sao_Paulo; instants are epoch milliseconds. Refusals are typed, never HTTP.
 */
import type { ProblemShape } from './error-codes';
import { brtDate, brtStartOfDay } from './time';

type Refusal = ProblemShape & { detail: string };

export const FREQUENCIES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** bacen/pix-api 2.9.0, `RecBase.calendario.periodicidade`. */
export const PERIODICIDADE: Readonly<Record<Frequency, string>> = {
  WEEKLY: 'SEMANAL',
  MONTHLY: 'MENSAL',
  QUARTERLY: 'TRIMESTRAL',
  SEMIANNUAL: 'SEMESTRAL',
  ANNUAL: 'ANUAL',
};

export const RETRY_POLICIES = ['NONE', 'THREE_IN_SEVEN_DAYS'] as const;
export type RetryPolicy = (typeof RETRY_POLICIES)[number];

/** bacen/pix-api 2.9.0, `RecConfiguracao.politicaRetentativa`. */
export const POLITICA_RETENTATIVA: Readonly<Record<RetryPolicy, string>> = {
  NONE: 'NAO_PERMITE',
  THREE_IN_SEVEN_DAYS: 'PERMITE_3R_7D',
};

/** Months per cycle; a weekly cycle is 7 days instead. */
const MONTHS: Readonly<Record<Exclude<Frequency, 'WEEKLY'>, number>> = {
  MONTHLY: 1,
  QUARTERLY: 3,
  SEMIANNUAL: 6,
  ANNUAL: 12,
};

/** The charge is sent 10 to 2 calendar days before its due date. */
export const EARLIEST_DAYS_BEFORE = 10;
export const LATEST_DAYS_BEFORE = 2;
/** With `THREE_IN_SEVEN_DAYS`, at most 3 retries, on distinct dates, within 7 days after the due date. */
export const MAX_RETRIES = 3;
export const RETRY_DAYS = 7;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (2027-02-29 is not one). */
export function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

const utc = (date: string): Date => new Date(`${date}T00:00:00.000Z`);
const iso = (d: Date): string => d.toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const d = utc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
}

/** Whole days from `a` to `b` (negative when `b` is earlier). */
export function daysBetween(a: string, b: string): number {
  return Math.round((utc(b).getTime() - utc(a).getTime()) / 86_400_000);
}

/** `months` after `date`, on the same day of the month or the month's last day when it has fewer. */
export function addMonths(date: string, months: number): string {
  const d = utc(date);
  const day = d.getUTCDate();
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(day, last));
  return iso(first);
}

/**
 * Due date of cycle `n` (0 is the start date). Months count from the start date, never from the
 * previous cycle, so a 31 January start falls due on 28 (29) February and again on 31 March.
 */
export function cycleDueDate(start: string, frequency: Frequency, n: number): string {
  if (frequency === 'WEEKLY') return addDays(start, 7 * n);
  return addMonths(start, MONTHS[frequency] * n);
}

/** The cycle whose due date is `date`, or undefined when no cycle falls due that day. */
export function cycleOf(start: string, frequency: Frequency, date: string): number | undefined {
  const days = daysBetween(start, date);
  if (days < 0) return undefined;
  const guess = frequency === 'WEEKLY' ? Math.floor(days / 7) : Math.floor(days / (MONTHS[frequency] * 28));
  for (let n = Math.max(0, guess - 2); n <= guess + 1; n++)
    if (cycleDueDate(start, frequency, n) === date) return n;
  return undefined;
}

/** Saturday or Sunday (national and local holidays are the payer's bank's to add). */
export function isWeekend(date: string): boolean {
  const day = utc(date).getUTCDay();
  return day === 0 || day === 6;
}

/**
 * The date the payer's bank settles a charge due on `dueDate`: with `ajusteDiaUtil` (API Pix's
 * default) a due date on a weekend moves to the following Monday.
 */
export function settlementDate(dueDate: string, adjustToBusinessDay = true): string {
  let d = dueDate;
  while (adjustToBusinessDay && isWeekend(d)) d = addDays(d, 1);
  return d;
}

/** The dates on which a charge due on `dueDate` may be sent: [due − 10, due − 2]. */
export function chargeWindow(dueDate: string): { from: string; to: string } {
  return { from: addDays(dueDate, -EARLIEST_DAYS_BEFORE), to: addDays(dueDate, -LATEST_DAYS_BEFORE) };
}

/** The last instant the payer may cancel a charge: 23:59:59.999 the day before the due date. */
export function payerCancelDeadline(dueDate: string): number {
  return brtStartOfDay(dueDate) - 1;
}

export interface RecurrenceTerms {
  frequency: Frequency;
  startDate: string;
  endDate: string | null;
  /** Fixed amount in centavos, or null for a variable amount. */
  fixedAmount: number | null;
  /** Variable only: the receiver's floor and the payer's ceiling (set on approval), in centavos. */
  minimumAmount: number | null;
  payerMaximumAmount: number | null;
  retryPolicy: RetryPolicy;
}

/** Why these terms cannot be a recurrence created on `today`; each refusal names the field. */
export function termsRefusal(t: RecurrenceTerms, today: string): Refusal | undefined {
  if (t.startDate < today)
    return {
      code: 'VALIDATION_ERROR',
      detail: 'startDate: must not be before today',
      errors: { startDate: ['must not be before today'] },
    };
  if (t.endDate !== null && t.endDate < t.startDate)
    return {
      code: 'VALIDATION_ERROR',
      detail: 'endDate: must not be before startDate',
      errors: { endDate: ['must not be before startDate'] },
    };
  if (t.fixedAmount !== null && t.minimumAmount !== null)
    return {
      code: 'VALIDATION_ERROR',
      detail: 'minimumAmount: a fixed-amount recurrence has no minimum',
      errors: { minimumAmount: ['a fixed-amount recurrence has no minimum'] },
    };
  return undefined;
}

/** Why `amount` (centavos) cannot be charged on these terms. */
export function amountRefusal(t: RecurrenceTerms, amount: number): Refusal | undefined {
  if (t.fixedAmount !== null && amount !== t.fixedAmount)
    return {
      code: 'RULE_VIOLATION',
      detail: `amount: this recurrence charges exactly ${t.fixedAmount} centavos`,
    };
  if (t.minimumAmount !== null && amount < t.minimumAmount)
    return {
      code: 'RULE_VIOLATION',
      detail: `amount: below the recurrence's minimum of ${t.minimumAmount} centavos`,
    };
  if (t.payerMaximumAmount !== null && amount > t.payerMaximumAmount)
    return {
      code: 'RULE_VIOLATION',
      detail: `amount: above the payer's maximum of ${t.payerMaximumAmount} centavos`,
    };
  return undefined;
}

/**
 * Why a charge due on `dueDate` cannot be created at `nowMs` on these terms: the due date must be a
 * cycle's, inside the recurrence's dates, and today within its 10-to-2-day window.
 */
export function dueDateRefusal(t: RecurrenceTerms, dueDate: string, nowMs: number): Refusal | undefined {
  const cycle = cycleOf(t.startDate, t.frequency, dueDate);
  if (cycle === undefined)
    return {
      code: 'RULE_VIOLATION',
      detail: `dueDate: ${dueDate} is not a due date of this ${t.frequency} recurrence starting ${t.startDate}`,
    };
  if (t.endDate !== null && dueDate > t.endDate)
    return {
      code: 'RULE_VIOLATION',
      detail: `dueDate: ${dueDate} is after the recurrence's endDate ${t.endDate}`,
    };
  const today = brtDate(nowMs);
  const w = chargeWindow(dueDate);
  if (today < w.from || today > w.to)
    return {
      code: 'RULE_VIOLATION',
      detail: `dueDate: a charge due on ${dueDate} is sent from ${w.from} to ${w.to} (today is ${today})`,
    };
  return undefined;
}

/**
 * Whether the payer's bank may try again after a failed attempt on `attemptDate`: the same-day
 * retry (18:00–21:00) always; later dates only with `THREE_IN_SEVEN_DAYS`, at most 3, each on a
 * new date within 7 days after the due date and before the next cycle falls due.
 */
export function retryRefusal(
  t: RecurrenceTerms,
  dueDate: string,
  retryDate: string,
  earlierRetryDates: readonly string[],
): Refusal | undefined {
  if (t.retryPolicy === 'NONE')
    return { code: 'RULE_VIOLATION', detail: 'The recurrence does not allow retries after the due date' };
  if (earlierRetryDates.length >= MAX_RETRIES)
    return { code: 'RULE_VIOLATION', detail: `At most ${MAX_RETRIES} retries per charge` };
  if (earlierRetryDates.includes(retryDate))
    return { code: 'RULE_VIOLATION', detail: `A retry on ${retryDate} was already made` };
  const after = daysBetween(dueDate, retryDate);
  if (after < 1 || after > RETRY_DAYS)
    return {
      code: 'RULE_VIOLATION',
      detail: `date: retries fall within ${RETRY_DAYS} days after the due date ${dueDate}`,
    };
  const cycle = cycleOf(t.startDate, t.frequency, dueDate) ?? 0;
  if (retryDate >= cycleDueDate(t.startDate, t.frequency, cycle + 1))
    return { code: 'RULE_VIOLATION', detail: 'date: a retry must come before the next cycle falls due' };
  return undefined;
}

/** The windows (America/Sao_Paulo) in which the payer's bank makes the due date's two attempts. */
export const DUE_DATE_ATTEMPTS = [
  { from: '00:00', to: '08:00' },
  { from: '18:00', to: '21:00' },
] as const;

/** The last day the payer's bank may attempt a cycle's charge: its settlement date, or the last retry day's. */
export function lastAttemptDay(dueDate: string, retryPolicy: RetryPolicy): string {
  return settlementDate(retryPolicy === 'NONE' ? dueDate : addDays(dueDate, RETRY_DAYS));
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Each attempt window's end in São Paulo (00:00–08:00, 18:00–21:00), with a margin for the PSP's record. */
const WINDOW_ENDS_MS = [8 * HOUR_MS, 21 * HOUR_MS];
const WINDOW_MARGIN_MS = 10 * MINUTE_MS;
/** After the last window, a charge the partner has not ended yet is read this often. */
export const CHARGE_LATE_RECHECK_MS = 30 * MINUTE_MS;
/** A recurrence waiting for the payer is read again after half the time it has waited, within these bounds. */
const REC_RECHECK_MIN_MS = 5 * MINUTE_MS;
const REC_RECHECK_MAX_MS = 6 * HOUR_MS;

/**
 * When a real partner's waiting recurrence is read again (its callbacks may be lost): thinning as it
 * waits, never past its deadline.
 */
export function recurrenceRecheckAt(createdAt: number, deadline: number, now: number): number {
  const delay = Math.min(REC_RECHECK_MAX_MS, Math.max(REC_RECHECK_MIN_MS, Math.round((now - createdAt) / 2)));
  return Math.max(now + 1, Math.min(now + delay, deadline));
}

/**
 * When a real partner's cycle charge is read again: the end of the first attempt window after `now`
 * from its settlement date to `lastDay`, else half an hour from now.
 */
export function chargeRecheckAt(dueDate: string, lastDay: string, now: number): number {
  for (let day = settlementDate(dueDate); day <= lastDay; day = addDays(day, 1))
    for (const end of WINDOW_ENDS_MS) {
      const at = brtStartOfDay(day) + end + WINDOW_MARGIN_MS;
      if (at > now) return at;
    }
  return now + CHARGE_LATE_RECHECK_MS;
}
