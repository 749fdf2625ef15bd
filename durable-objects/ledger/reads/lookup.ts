/**
 * Lookup by any id (docs/contract.md, Lookup by id): one id may match several transactions at different
 * levels — internalCode, then transactionId, then payment endToEndId, then refund endToEndId, then
 * externalReference; within a level the newest wins. A Cash-In's refund is also found by the id its
 * 202 answered (refund_request_id), at the refund level, once the network's id replaced it.
 *
 * One statement of five point queries, each on its own index (UNION ALL; a Durable Object's SQLite
 * takes at most five terms, so the Cash-In's refund term ORs its two indexed columns, which SQLite
 * answers with both indexes), ordered by level then seq: a miss costs five (a Cash-In: six) index
 * probes, never a scan. Built once per table and object
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
  /** Cash-Ins only: the id the latest refund was asked under. */
  refundRequestId?: SQLiteColumn;
}

/** The id columns in precedence order (the Cash-In and Cash-Out tables name them alike). */
const LEVELS = [
  'internal_code',
  'transaction_id',
  'end_to_end_id',
  'refund_end_to_end_id',
  'external_reference',
];
const REFUND_REQUEST = 'refund_request_id';

/**
 * SQL selecting `columns` (of seq, level) of the row `?1` names in `table`, the best one only: for
 * raw statements that bind the id as their first parameter. `refundRequest`: the table has
 * refund_request_id (cash_ins).
 */
export function lookupSql(table: string, columns: 'seq' | 'seq, level', refundRequest = false): string {
  const probes = LEVELS.map((column, level) => {
    const alias = refundRequest && column === 'refund_end_to_end_id' ? ` OR ${REFUND_REQUEST} = ?1` : '';
    return `SELECT seq, ${level} AS level FROM ${table} WHERE ${column} = ?1${alias}`;
  });
  return `SELECT ${columns} FROM (${probes.join(' UNION ALL ')}) ORDER BY level, seq DESC LIMIT 1`;
}

function lookupQuery(db: LedgerDb, table: SQLiteTable, c: IdColumns) {
  return prepared(db, `lookup:${getTableName(table)}`, () => {
    const id = ph('id');
    const alias = c.refundRequestId;
    const probe = (column: SQLiteColumn, level: number) => {
      const match =
        alias && column === c.refundEndToEndId
          ? sql`(${column} = ${id} OR ${alias} = ${id})`
          : sql`${column} = ${id}`;
      return sql`SELECT ${sql.identifier(c.seq.name)}, ${sql.raw(String(level))} AS level FROM ${table} WHERE ${match}`;
    };
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
