/**
 * Running totals behind the withdrawal limits (docs/contract.md, Payee identity and withdrawal limits): what
 * a limit check reads in O(1) instead of summing the client's Cash-Out history. Every function runs inside
 * the caller's storage transaction: the reservation adds, the cancellation of a reserved Cash-Out subtracts.
 */
import { sql } from 'drizzle-orm';
import type { LimitUsage } from '../../../src/domain/cash-out';
import { brtDate, brtStartOfDay } from '../../../src/domain/time';
import { type LedgerDb, sqlOf } from '../db';
import { ph, prepared } from '../prepared';
import { limitTotals } from '../schema';

/** The three rows one Cash-Out counts in: its BRT day, its BRT month, and its payee that day. */
export function limitKeys(requestedAt: number, destinationKey: string) {
  const day = brtDate(requestedAt);
  const month = day.slice(0, 7);
  return [
    { key: `D|${day}`, period: day },
    { key: `M|${month}`, period: month },
    { key: `P|${day}|${destinationKey}`, period: day },
  ] as const;
}

function total(db: LedgerDb, key: string): number {
  const query = prepared(db, 'limitTotals.get', () =>
    db
      .select({ cents: limitTotals.cents })
      .from(limitTotals)
      .where(sql`${limitTotals.key} = ${ph('key')}`)
      .prepare(),
  );
  return query.get({ key })?.cents ?? 0;
}

/** Centavos already counted on this Cash-Out's day, month and payee-day. */
export function limitUsage(db: LedgerDb, requestedAt: number, destinationKey: string): LimitUsage {
  const [day, month, payeeDay] = limitKeys(requestedAt, destinationKey);
  return { day: total(db, day.key), month: total(db, month.key), payeeDay: total(db, payeeDay.key) };
}

/** Adds (reservation) or subtracts (cancellation of a reserved Cash-Out) one Cash-Out's amount. */
export function countTowardLimits(
  db: LedgerDb,
  requestedAt: number,
  destinationKey: string,
  cents: number,
): void {
  const now = Date.now();
  for (const { key, period } of limitKeys(requestedAt, destinationKey))
    if (cents > 0 || askable(period, now)) addTotal(db, key, period, cents);
}

/**
 * The running totals as one executor pass's reservations see them (cash-out-exec.ts): each key is read at
 * most once, every reservation of the pass adds to it in memory, and `flush` writes each changed
 * key once. The same transaction must hold every read, add and the flush.
 */
export class LimitBook {
  private readonly cents = new Map<string, number>();
  private readonly delta = new Map<string, { period: string; cents: number }>();

  constructor(private readonly db: LedgerDb) {}

  private read(key: string): number {
    let cents = this.cents.get(key);
    if (cents === undefined) {
      cents = total(this.db, key);
      this.cents.set(key, cents);
    }
    return cents;
  }

  /** Reads every key these Cash-Outs count in, in one statement (a pass's reservations). */
  prefetch(rows: readonly { requestedAt: number; destinationKey: string }[]): void {
    const keys = new Set<string>();
    for (const row of rows)
      for (const { key } of limitKeys(row.requestedAt, row.destinationKey))
        if (!this.cents.has(key)) keys.add(key);
    if (keys.size === 0) return;
    for (const key of keys) this.cents.set(key, 0);
    for (const row of totalsOf(this.db, [...keys])) this.cents.set(row.key, row.cents);
  }

  usage(requestedAt: number, destinationKey: string): LimitUsage {
    const [day, month, payeeDay] = limitKeys(requestedAt, destinationKey);
    return { day: this.read(day.key), month: this.read(month.key), payeeDay: this.read(payeeDay.key) };
  }

  add(requestedAt: number, destinationKey: string, cents: number): void {
    const now = Date.now();
    for (const { key, period } of limitKeys(requestedAt, destinationKey)) {
      if (cents < 0 && !askable(period, now)) continue;
      this.cents.set(key, this.read(key) + cents);
      const d = this.delta.get(key);
      this.delta.set(key, { period, cents: (d?.cents ?? 0) + cents });
    }
  }

  /** Every changed key in one statement. */
  flush(): void {
    const rows: [string, string, number][] = [];
    for (const [key, { period, cents }] of this.delta) if (cents !== 0) rows.push([key, period, cents]);
    if (rows.length === 1) addTotal(this.db, ...(rows[0] as [string, string, number]));
    else if (rows.length > 1) addTotals(this.db, rows);
    this.delta.clear();
  }
}

function totalsOf(db: LedgerDb, keys: string[]): { key: string; cents: number }[] {
  return sqlOf(db)
    .exec<{ key: string; cents: number }>(
      'SELECT key, cents FROM limit_totals WHERE key IN (SELECT value FROM json_each(?))',
      JSON.stringify(keys),
    )
    .toArray();
}

/** addTotal for many keys at once: each [key, period, cents]. */
function addTotals(db: LedgerDb, rows: [string, string, number][]): void {
  sqlOf(db).exec(
    `INSERT INTO limit_totals (key, period, cents)
     SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[2]' FROM json_each(?) WHERE true
     ON CONFLICT (key) DO UPDATE SET cents = cents + excluded.cents`,
    JSON.stringify(rows),
  );
}

function addTotal(db: LedgerDb, key: string, period: string, cents: number): void {
  prepared(db, 'limitTotals.add', () =>
    db
      .insert(limitTotals)
      .values({ key: ph('key'), period: ph('period'), cents: ph('cents') })
      .onConflictDoUpdate({
        target: limitTotals.key,
        set: { cents: sql`${limitTotals.cents} + excluded.cents` },
      })
      .prepare(),
  ).run({ key, period, cents });
}

/**
 * The oldest period each kind of row can still be asked for at `now`: day and payee-day rows from
 * yesterday (a Cash-Out requested before midnight may be reserved or cancelled after it, and counts
 * on its own day), month rows from last month. A client paying many distinct payees writes one
 * payee-day row per payee a day, so those must leave with their day, not their month
 * (docs/storage-schema.md, limit_totals).
 */
export function askableSince(now: number): { day: string; month: string } {
  const current = brtDate(now);
  const [year, month] = current.split('-').map(Number) as [number, number];
  const previousMonth = month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
  return { day: brtDate(brtStartOfDay(current) - 1), month: previousMonth };
}

/**
 * Whether a limit can still ask for a row of this period. A cancellation days after its Cash-Out's
 * request gives nothing back to a row no limit asks for (it may be pruned already).
 */
export function askable(period: string, now: number): boolean {
  const since = askableSince(now);
  return period >= (period.length === 10 ? since.day : since.month);
}

/** Rows no limit can ask for any more (askableSince), in one bounded statement; how many went. */
export function pruneLimitTotals(db: LedgerDb, now: number, batch = 5_000): number {
  const since = askableSince(now);
  return sqlOf(db)
    .exec(
      `DELETE FROM limit_totals WHERE key IN (
         SELECT key FROM limit_totals
         WHERE period < ? OR (length(period) = 10 AND period < ?) LIMIT ?)
       RETURNING key`,
      since.month,
      since.day,
      batch,
    )
    .toArray().length;
}

/** Every row, oldest first: what the tests assert on (test/support/ledger-reads.ts), read here so the table keeps one home. */
export function allLimitTotals(db: LedgerDb): { key: string; cents: number }[] {
  return db
    .select({ key: limitTotals.key, cents: limitTotals.cents })
    .from(limitTotals)
    .orderBy(limitTotals.key)
    .all();
}
