/**
 * Running totals behind the withdrawal limits (spec §8, decisions §5): what a limit check reads in
 * O(1) instead of summing the client's Cash-Out history. Every function runs inside the caller's
 * storage transaction: the reservation adds, the cancellation of a reserved Cash-Out subtracts.
 */
import { lt, sql } from 'drizzle-orm';
import type { LimitUsage } from '../../src/domain/cash-out';
import { brtDate } from '../../src/domain/time';
import type { LedgerDb } from './db';
import { ph, prepared } from './prepared';
import { limitTotals } from './schema';

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
  const query = prepared(db, 'limitTotals.add', () =>
    db
      .insert(limitTotals)
      .values({ key: ph('key'), period: ph('period'), cents: ph('cents') })
      .onConflictDoUpdate({
        target: limitTotals.key,
        set: { cents: sql`${limitTotals.cents} + excluded.cents` },
      })
      .prepare(),
  );
  for (const { key, period } of limitKeys(requestedAt, destinationKey)) query.run({ key, period, cents });
}

/** Rows no limit can ask for any more (before last month), in one bounded batch; how many went. */
export function pruneLimitTotals(db: LedgerDb, now: number, batch = 500): number {
  const current = brtDate(now);
  const [year, month] = current.split('-').map(Number) as [number, number];
  const previousMonth = month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
  const stale = db
    .select({ key: limitTotals.key })
    .from(limitTotals)
    .where(lt(limitTotals.period, previousMonth))
    .limit(batch)
    .all();
  for (const { key } of stale) db.delete(limitTotals).where(sql`${limitTotals.key} = ${key}`).run();
  return stale.length;
}
