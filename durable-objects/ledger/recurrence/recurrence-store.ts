/**
 * The recurrence store: every statement on `recurrences` (docs/contract.md, Pix Automático), drizzle's
 * query builder, inside the caller's transaction.
 */
import { desc, eq, lt, or } from 'drizzle-orm';
import type { LedgerDb } from '../db';
import { recurrences } from '../schema';

export type RecurrenceRow = typeof recurrences.$inferSelect;
export type NewRecurrence = typeof recurrences.$inferInsert;

/** By recurrenceId or externalReference (the id first). */
export function findRecurrence(db: LedgerDb, id: string): RecurrenceRow | undefined {
  const rows = db
    .select()
    .from(recurrences)
    .where(or(eq(recurrences.recurrenceId, id), eq(recurrences.externalReference, id)))
    .all();
  return rows.find((r) => r.recurrenceId === id) ?? rows[0];
}

export function referenceTaken(db: LedgerDb, externalReference: string): boolean {
  return (
    db
      .select({ seq: recurrences.seq })
      .from(recurrences)
      .where(eq(recurrences.externalReference, externalReference))
      .get() !== undefined
  );
}

export function insertRecurrence(db: LedgerDb, row: NewRecurrence): RecurrenceRow {
  return db.insert(recurrences).values(row).returning().get();
}

export function updateRecurrence(db: LedgerDb, seq: number, changes: Partial<RecurrenceRow>): RecurrenceRow {
  return db.update(recurrences).set(changes).where(eq(recurrences.seq, seq)).returning().get();
}

/** The newest first; `before`: a seq to continue below. */
export function latestRecurrences(db: LedgerDb, limit: number, before?: number): RecurrenceRow[] {
  const query = db.select().from(recurrences);
  return (before === undefined ? query : query.where(lt(recurrences.seq, before)))
    .orderBy(desc(recurrences.seq))
    .limit(limit)
    .all();
}
