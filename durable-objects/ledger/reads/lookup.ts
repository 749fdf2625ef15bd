/**
 * Lookup by any id (docs/contract.md, Lookup by id): one id may match several transactions at different
 * levels — internalCode, then transactionId, then payment endToEndId, then refund endToEndId, then
 * externalReference; within a level the newest wins.
 *
 * One statement of five point queries, each on its own index (UNION ALL), ordered by level then
 * seq: a miss costs five index probes, never a scan. Built once per table and object
 * (./prepared.ts): it runs on every GET by id and every state change, and building it each time
 * cost more CPU than running it.
 */
import { getTableName, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { LedgerDb } from '../db';
import { ph, prepared } from '../prepared';

export interface IdColumns {
  internalCode: SQLiteColumn;
  transactionId: SQLiteColumn;
  endToEndId: SQLiteColumn;
  refundEndToEndId: SQLiteColumn;
  externalReference: SQLiteColumn;
  seq: SQLiteColumn;
}

/** The id columns in precedence order (the Cash-In and Cash-Out tables name them alike). */
const LEVELS = [
  'internal_code',
  'transaction_id',
  'end_to_end_id',
  'refund_end_to_end_id',
  'external_reference',
];

/**
 * SQL selecting `columns` (of seq, level) of the row `?1` names in `table`, the best one only: for
 * raw statements that bind the id as their first parameter.
 */
export function lookupSql(table: string, columns: 'seq' | 'seq, level'): string {
  const probes = LEVELS.map(
    (column, level) => `SELECT seq, ${level} AS level FROM ${table} WHERE ${column} = ?1`,
  );
  return `SELECT ${columns} FROM (${probes.join(' UNION ALL ')}) ORDER BY level, seq DESC LIMIT 1`;
}

function lookupQuery(db: LedgerDb, table: SQLiteTable, c: IdColumns) {
  return prepared(db, `lookup:${getTableName(table)}`, () => {
    const id = ph('id');
    const probe = (column: SQLiteColumn, level: number) =>
      sql`SELECT ${sql.identifier(c.seq.name)}, ${sql.raw(String(level))} AS level FROM ${table} WHERE ${column} = ${id}`;
    const probes = [c.internalCode, c.transactionId, c.endToEndId, c.refundEndToEndId, c.externalReference];
    const union = sql.join(
      probes.map((column, level) => probe(column, level)),
      sql` UNION ALL `,
    );
    return db
      .select()
      .from(table)
      .where(
        sql`${c.seq} = (SELECT ${sql.identifier(c.seq.name)} FROM (${union}) ORDER BY level, ${sql.identifier(c.seq.name)} DESC LIMIT 1)`,
      )
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
