/**
 * Lookup by any id (spec §4.5, §4.10): one id may match several transactions at different levels —
 * internalCode, then transactionId, then payment endToEndId, then refund endToEndId, then
 * externalReference; within a level the newest wins.
 *
 * The query is built once per table and object (./prepared.ts): it runs on every GET by id and
 * every state change, and building it each time cost more CPU than running it.
 */
import { getTableName, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { LedgerDb } from './db';
import { ph, prepared } from './prepared';

export interface IdColumns {
  internalCode: SQLiteColumn;
  transactionId: SQLiteColumn;
  endToEndId: SQLiteColumn;
  refundEndToEndId: SQLiteColumn;
  externalReference: SQLiteColumn;
  seq: SQLiteColumn;
}

function lookupQuery(db: LedgerDb, table: SQLiteTable, c: IdColumns) {
  return prepared(db, `lookup:${getTableName(table)}`, () => {
    const id = ph('id');
    return db
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
  });
}

export function findByAnyId<Row>(
  db: LedgerDb,
  table: SQLiteTable,
  c: IdColumns,
  id: string,
): Row | undefined {
  return lookupQuery(db, table, c).get({ id }) as Row | undefined;
}
