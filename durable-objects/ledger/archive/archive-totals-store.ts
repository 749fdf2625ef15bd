/**
 * The running totals' store: every statement on archive_totals, the archived transactions' totals per
 * (kind, UTC day, status, settling bank) that summaries add whole days from (archive-totals.ts).
 * Every function runs inside the caller's storage transaction.
 */
import type { LedgerDb } from '../db';
import { archiveTotals } from '../schema';

/** [status, ispb ('' = none), bank, count, amount in centavos] */
export type TotalRow = [string, string, string | null, number, number];

/** Adds (sign 1) or takes out (sign -1) totals of one day; a bucket that reaches zero goes. */
export function addDayTotals(
  sqlApi: SqlStorage,
  kind: string,
  day: string,
  totals: TotalRow[],
  sign: 1 | -1,
) {
  for (const [status, ispb, bank, count, amount] of totals) {
    sqlApi.exec(
      `INSERT INTO archive_totals (kind, day, status, ispb, bank, count, amount) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (kind, day, status, ispb) DO UPDATE SET count = count + excluded.count, amount = amount + excluded.amount`,
      kind,
      day,
      status,
      ispb,
      bank,
      sign * count,
      sign * amount,
    );
  }
  sqlApi.exec('DELETE FROM archive_totals WHERE kind = ? AND day = ? AND count = 0', kind, day);
}

/** Totals of `kind` over the whole UTC days [fromDay, toDay], by status and settling bank. */
export function totalsOfDays(sqlApi: SqlStorage, kind: string, fromDay: string, toDay: string): TotalRow[] {
  return sqlApi
    .exec<{ status: string; ispb: string; bank: string | null; count: number; amount: number }>(
      `SELECT status, ispb, max(bank) AS bank, sum(count) AS count, sum(amount) AS amount FROM archive_totals
       WHERE kind = ? AND day >= ? AND day <= ? GROUP BY status, ispb`,
      kind,
      fromDay,
      toDay,
    )
    .toArray()
    .map((r) => [r.status, r.ispb, r.bank, r.count, r.amount]);
}

/** Every running total, by kind and day. */
export function allArchiveTotals(db: LedgerDb): (typeof archiveTotals.$inferSelect)[] {
  return db.select().from(archiveTotals).orderBy(archiveTotals.kind, archiveTotals.day).all();
}
