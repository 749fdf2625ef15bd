/** Keyset pagination over any table with a (time, seq) order: one query, limit + 1 rows. */
import { and, asc, desc, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type Order, type PageResult, type Position, planPage, shapePage } from '../../src/domain/pagination';
import type { LedgerDb } from './db';

export interface PageInput {
  from: number;
  to: number;
  limit: number;
  order: Order;
  position?: Position;
}

export function keysetPage<Row extends Record<string, unknown>, T>(
  db: LedgerDb,
  table: SQLiteTable,
  time: SQLiteColumn,
  seq: SQLiteColumn,
  input: PageInput,
  present: (row: Row) => T,
  scope?: SQL,
): PageResult<T & { time: number; seq: number }> {
  const plan = planPage(input.order, input.position);
  const inPeriod = and(gte(time, input.from), lte(time, input.to), scope);
  const beyond =
    plan.comparison && input.position
      ? sql`(${time}, ${seq}) ${sql.raw(plan.comparison)} (${input.position.time}, ${input.position.seq})`
      : undefined;
  const dir = plan.scan === 'ASC' ? asc : desc;
  const rows = db
    .select({ row: table, keyTime: time, keySeq: seq } as never)
    .from(table)
    .where(and(inPeriod, beyond))
    .orderBy(dir(time), dir(seq))
    .limit(input.limit + 1)
    .all() as unknown as { row: Row; keyTime: number; keySeq: number }[];
  return shapePage(
    rows.map((r) => ({ ...present(r.row), time: r.keyTime, seq: r.keySeq })),
    input.limit,
    input.position,
  );
}
