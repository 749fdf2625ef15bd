/**
 * A store's table as the archive moves it (archive/archive.ts): the store that owns the table
 * describes it — which table, its (time, seq) list order, which rows are one account's, which are
 * closed before an instant — and these statements, the same for every such table, run on it. Like
 * reads/keyset.ts and reads/lookup.ts, this module names no table: the description comes from the
 * store (cash-in-store.ts, cash-out-store.ts, ledger-store.ts, outbox-store.ts).
 */
import { and, inArray, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { LedgerDb } from './db';

export interface ArchivableTable {
  table: SQLiteTable;
  time: SQLiteColumn;
  seq: SQLiteColumn;
  /** Which rows of the table are this source's (one account's entries); undefined = all. */
  scope?: SQL;
  /** Rows that no longer change and are older than `before`. */
  eligible(before: number): SQL;
}

export type ArchivableRow = Record<string, unknown> & { seq: number };

/** Bound values per IN (…): a Durable Object query takes at most 100. */
const IN_CHUNK = 90;

function chunks(seqs: number[]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < seqs.length; i += IN_CHUNK) out.push(seqs.slice(i, i + IN_CHUNK));
  return out;
}

/** The rows of these seqs still hot, by seq. */
export function rowsBySeq(db: LedgerDb, t: ArchivableTable, seqs: number[]): ArchivableRow[] {
  const rows: ArchivableRow[] = [];
  for (const chunk of chunks(seqs))
    rows.push(...(db.select().from(t.table).where(inArray(t.seq, chunk)).all() as ArchivableRow[]));
  return rows.sort((a, b) => a.seq - b.seq);
}

/** How many of these rows are still eligible at any cutoff (closed, and for entries: present). */
export function closedCount(db: LedgerDb, t: ArchivableTable, seqs: number[]): number {
  let n = 0;
  for (const chunk of chunks(seqs))
    n += db
      .select({ seq: t.seq })
      .from(t.table)
      .where(and(inArray(t.seq, chunk), t.eligible(Number.MAX_SAFE_INTEGER)))
      .all().length;
  return n;
}

/** At most `limit` rows eligible before `before`, walked along the (time, seq) index. */
export function eligibleRows(
  db: LedgerDb,
  t: ArchivableTable,
  before: number,
  limit: number,
): ArchivableRow[] {
  return db
    .select()
    .from(t.table)
    .where(t.eligible(before))
    .orderBy(t.time, t.seq)
    .limit(limit)
    .all() as ArchivableRow[];
}

export function deleteBySeq(db: LedgerDb, t: ArchivableTable, seqs: number[]): void {
  for (const chunk of chunks(seqs)) db.delete(t.table).where(inArray(t.seq, chunk)).run();
}

/** The time of the oldest row in scope, or undefined when none is hot. */
export function oldestTime(db: LedgerDb, t: ArchivableTable): number | undefined {
  return db.select({ at: t.time }).from(t.table).where(t.scope).orderBy(t.time, t.seq).limit(1).get()?.at as
    | number
    | undefined;
}

export function isHot(db: LedgerDb, t: ArchivableTable, seq: number): boolean {
  return db.select({ seq: t.seq }).from(t.table).where(sql`${t.seq} = ${seq}`).get() !== undefined;
}

/** An archived row back, as it was written (its seq included). */
export function insertRow(db: LedgerDb, t: ArchivableTable, row: Record<string, unknown>): void {
  db.insert(t.table).values(row).run();
}
