/**
 * The recurrence store: every statement on `recurrences` and `recurrence_charges` (docs/contract.md, Pix Automático), drizzle's
 * query builder, inside the caller's transaction.
 */
import { and, asc, desc, eq, lt, or } from 'drizzle-orm';
import type { LedgerDb } from '../db';
import { recurrenceCharges, recurrences } from '../schema';

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

/** The QR journey's recurrence whose location ends in this code (its unique index). */
export function recurrenceByLocationCode(db: LedgerDb, code: string): RecurrenceRow | undefined {
  return db.select().from(recurrences).where(eq(recurrences.locationCode, code)).get();
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

export type RecurrenceChargeRow = typeof recurrenceCharges.$inferSelect;

export function insertRecurrenceCharge(db: LedgerDb, row: RecurrenceChargeRow): void {
  db.insert(recurrenceCharges).values(row).run();
}

export function chargeOfCycle(
  db: LedgerDb,
  recurrenceId: string,
  cycle: number,
): RecurrenceChargeRow | undefined {
  return db
    .select()
    .from(recurrenceCharges)
    .where(and(eq(recurrenceCharges.recurrenceId, recurrenceId), eq(recurrenceCharges.cycle, cycle)))
    .get();
}

export function chargeOfTransaction(db: LedgerDb, transactionId: string): RecurrenceChargeRow | undefined {
  return db.select().from(recurrenceCharges).where(eq(recurrenceCharges.transactionId, transactionId)).get();
}

/** A recurrence's charges, first cycle first. */
export function chargesOf(db: LedgerDb, recurrenceId: string): RecurrenceChargeRow[] {
  return db
    .select()
    .from(recurrenceCharges)
    .where(eq(recurrenceCharges.recurrenceId, recurrenceId))
    .orderBy(asc(recurrenceCharges.cycle))
    .all();
}

export function setFailedAttempts(db: LedgerDb, transactionId: string, failedAttempts: number[]): void {
  db.update(recurrenceCharges)
    .set({ failedAttempts })
    .where(eq(recurrenceCharges.transactionId, transactionId))
    .run();
}

/** Every row, oldest first: what the tests assert on (test/support/ledger-reads.ts), read here so the table keeps one home. */
export function allRecurrences(db: LedgerDb): RecurrenceRow[] {
  return db.select().from(recurrences).orderBy(recurrences.seq).all();
}

/** Every recurrence charge (test/support/ledger-reads.ts). */
export function allRecurrenceCharges(db: LedgerDb): RecurrenceChargeRow[] {
  return db.select().from(recurrenceCharges).all();
}
