import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import type * as schema from './schema';

export type LedgerDb = DrizzleSqliteDODatabase<typeof schema>;

/**
 * The object's SQL API under drizzle: hot statements with a fixed text run here directly, without
 * drizzle building or mapping anything (workerd keeps each statement text prepared).
 */
export function sqlOf(db: LedgerDb): SqlStorage {
  return (db as LedgerDb & { $client: DurableObjectStorage }).$client.sql;
}

/** A row as SQLite stores it: its column names, its values. */
export type StoredRow = Record<string, SqlStorageValue>;

/** Rows per statement of insertStoredRows: one JSON argument of bounded size. */
const STORED_CHUNK = 1000;

/**
 * Rows as stored (the columns of the first; every row has the same), inserted set-based: one
 * statement per STORED_CHUNK rows, in their order, reading a JSON array of value arrays. For the
 * store that owns `table` only (whole-row copies: the bench's history seeding). JSON carries what
 * these tables hold (integers, text, NULL); a BLOB or REAL column would need another path.
 */
export function insertStoredRows(sql: SqlStorage, table: string, rows: StoredRow[]): void {
  const head = rows[0];
  if (!head) return;
  const columns = Object.keys(head);
  const values = columns.map((_, i) => `value ->> '$[${i}]'`).join(', ');
  const text = `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values} FROM json_each(?) ORDER BY key`;
  for (let i = 0; i < rows.length; i += STORED_CHUNK)
    sql.exec(text, JSON.stringify(rows.slice(i, i + STORED_CHUNK).map((row) => columns.map((c) => row[c]))));
}
