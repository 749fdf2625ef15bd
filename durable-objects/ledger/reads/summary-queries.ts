/**
 * Summary aggregation shared by Cash-In and Cash-Out (docs/contract.md, Summaries): per status and per
 * settling bank.
 */
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { SettlementRow, StatusRow } from '../../../src/domain/summary';
import type { LedgerDb } from '../db';

export interface SummaryColumns {
  time: SQLiteColumn;
  status: SQLiteColumn;
  amount: SQLiteColumn;
  settlement: SQLiteColumn;
}

export function summarize(
  db: LedgerDb,
  table: SQLiteTable,
  cols: SummaryColumns,
  from: number,
  to: number,
  settledStatus: string,
): { byStatus: StatusRow[]; settlement: SettlementRow[] } {
  const inPeriod = and(gte(cols.time, from), lte(cols.time, to));
  const byStatus = db
    .select({
      status: sql<string>`${cols.status}`,
      count: sql<number>`count(*)`,
      amount: sql<number>`sum(${cols.amount})`,
    })
    .from(table)
    .where(inPeriod)
    .groupBy(cols.status)
    .all();
  const ispb = sql<string>`json_extract(${cols.settlement}, '$.ispb')`;
  const settlement = db
    .select({
      ispb,
      bank: sql<string>`json_extract(${cols.settlement}, '$.bank')`,
      count: sql<number>`count(*)`,
      amount: sql<number>`sum(${cols.amount})`,
    })
    .from(table)
    .where(and(inPeriod, eq(cols.status, settledStatus)))
    .groupBy(ispb)
    .all();
  return { byStatus, settlement };
}
