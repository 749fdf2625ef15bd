/**
 * Lookup by any id (spec §4.5, §4.10): one id may match several transactions at different levels —
 * internalCode, then transactionId, then payment endToEndId, then refund endToEndId, then
 * externalReference; within a level the newest wins.
 *
 * The query is built once per table and object (a drizzle prepared query with an `id` placeholder):
 * it runs on every GET by id and every state change, and building it each time cost more CPU than
 * running it.
 */
import { sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { LedgerDb } from './db';

export interface IdColumns {
  internalCode: SQLiteColumn;
  transactionId: SQLiteColumn;
  endToEndId: SQLiteColumn;
  refundEndToEndId: SQLiteColumn;
  externalReference: SQLiteColumn;
  seq: SQLiteColumn;
}

interface LookupQuery {
  get(values: { id: string }): unknown;
}

const prepared = new WeakMap<LedgerDb, Map<SQLiteTable, LookupQuery>>();

function lookupQuery(db: LedgerDb, table: SQLiteTable, c: IdColumns): LookupQuery {
  let byTable = prepared.get(db);
  if (!byTable) {
    byTable = new Map();
    prepared.set(db, byTable);
  }
  let query = byTable.get(table);
  if (!query) {
    const id = sql.placeholder('id');
    query = db
      .select()
      .from(table)
      .where(
        sql`${c.internalCode} = ${id} OR ${c.transactionId} = ${id} OR ${c.endToEndId} = ${id}
          OR ${c.refundEndToEndId} = ${id} OR ${c.externalReference} = ${id}`,
      )
      .orderBy(
        sql`CASE WHEN ${c.internalCode} = ${id} THEN 0 WHEN ${c.transactionId} = ${id} THEN 1
          WHEN ${c.endToEndId} = ${id} THEN 2 WHEN ${c.refundEndToEndId} = ${id} THEN 3 ELSE 4 END`,
        sql`${c.seq} DESC`,
      )
      .limit(1)
      .prepare();
    byTable.set(table, query);
  }
  return query;
}

export function findByAnyId<Row>(
  db: LedgerDb,
  table: SQLiteTable,
  c: IdColumns,
  id: string,
): Row | undefined {
  return lookupQuery(db, table, c).get({ id }) as Row | undefined;
}
