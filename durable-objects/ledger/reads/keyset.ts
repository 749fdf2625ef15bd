/** Keyset pagination over any table with a (time, seq) order: one query, limit + 1 rows. */
import { and, asc, desc, getTableName, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import {
  type Order,
  type PageResult,
  type Position,
  planPage,
  shapePage,
} from '../../../src/domain/pagination';
import type { LedgerDb } from '../db';
import { prepared } from '../prepared';

export interface PageInput {
  from: number;
  to: number;
  limit: number;
  order: Order;
  position?: Position;
}

interface PageQuery {
  all(values: Record<string, number>): unknown;
}

/**
 * What a page reads of each row, e.g. its view as JSON text (./view-sql.ts); `key` names it in the
 * prepared-query cache. Each row comes back as `{row, time, seq}`: the sort key beside it lets
 * rows from elsewhere be merged into the page by (time, seq).
 */
export interface RowSelection {
  key: string;
  sql: SQL;
}

/**
 * Lists run on every page request, so the query of each shape (table, key columns, scan direction,
 * whether a cursor position bounds it) is built once per object (./prepared.ts) with the period,
 * position and limit as placeholders. Lists with an extra `scope` condition are built each time.
 */
function pageQuery(
  db: LedgerDb,
  table: SQLiteTable,
  time: SQLiteColumn,
  seq: SQLiteColumn,
  row: SQL,
  scan: 'ASC' | 'DESC',
  comparison: string | null,
  scope: SQL | undefined,
): PageQuery {
  const inPeriod = and(gte(time, sql.placeholder('from')), lte(time, sql.placeholder('to')), scope);
  const beyond = comparison
    ? sql`(${time}, ${seq}) ${sql.raw(comparison)} (${sql.placeholder('positionTime')}, ${sql.placeholder('positionSeq')})`
    : undefined;
  const dir = scan === 'ASC' ? asc : desc;
  return db
    .select({ row, keyTime: time, keySeq: seq } as never)
    .from(table)
    .where(and(inPeriod, beyond))
    .orderBy(dir(time), dir(seq))
    .limit(sql.placeholder('limit'))
    .prepare() as unknown as PageQuery;
}

/** One row of a keyset read with its sort key (archive-lists.ts merges archived rows by it). */
export interface KeyedRow<Row> {
  row: Row;
  time: number;
  seq: number;
}

/** The whole table row as an object, for reads that present rows in TypeScript. */
function wholeRow(table: SQLiteTable): RowSelection {
  return { key: 'row', sql: table as unknown as SQL };
}

/** The page's first limit + 1 rows in scan order, each as `row` selects it (default: the table row). */
export function keysetRows<Row>(
  db: LedgerDb,
  table: SQLiteTable,
  time: SQLiteColumn,
  seq: SQLiteColumn,
  input: PageInput,
  scope?: SQL,
  row: RowSelection = wholeRow(table),
): KeyedRow<Row>[] {
  const plan = planPage(input.order, input.position);
  const comparison = plan.comparison && input.position ? plan.comparison : null;
  const values: Record<string, number> = { from: input.from, to: input.to, limit: input.limit + 1 };
  if (comparison && input.position) {
    values.positionTime = input.position.time;
    values.positionSeq = input.position.seq;
  }
  const query = scope
    ? pageQuery(db, table, time, seq, row.sql, plan.scan, comparison, scope)
    : prepared(
        db,
        `page:${getTableName(table)}:${row.key}:${time.name}:${seq.name}:${plan.scan}:${comparison ?? ''}`,
        () => pageQuery(db, table, time, seq, row.sql, plan.scan, comparison, undefined),
      );
  const rows = query.all(values) as { row: Row; keyTime: number; keySeq: number }[];
  return rows.map((r) => ({ row: r.row, time: r.keyTime, seq: r.keySeq }));
}

export function shapeRows<Row, T>(
  rows: KeyedRow<Row>[],
  input: PageInput,
  present: (row: Row) => T,
): PageResult<T & { time: number; seq: number }> {
  return shapePage(
    rows.map((r) => ({ ...present(r.row), time: r.time, seq: r.seq })),
    input.limit,
    input.position,
  );
}
