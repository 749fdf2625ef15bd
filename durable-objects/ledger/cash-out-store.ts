/** Cash-Out rows of one client: lookups (spec §4.10) and duplicate detection. */
import { and, eq, gte, lt, ne } from 'drizzle-orm';
import type { LedgerDb } from './db';
import { findByAnyId } from './lookup';
import { ph, prepared } from './prepared';
import { cashOuts } from './schema';

export type CashOutRow = typeof cashOuts.$inferSelect;

export function findCashOut(db: LedgerDb, id: string): CashOutRow | undefined {
  return findByAnyId<CashOutRow>(db, cashOuts, cashOuts, id);
}

export function cashOutReferenceTaken(db: LedgerDb, externalReference: string): boolean {
  return (
    db
      .select({ seq: cashOuts.seq })
      .from(cashOuts)
      .where(eq(cashOuts.externalReference, externalReference))
      .get() !== undefined
  );
}

export function cashOutCodeTaken(db: LedgerDb, internalCode: string): boolean {
  return (
    db.select({ seq: cashOuts.seq }).from(cashOuts).where(eq(cashOuts.internalCode, internalCode)).get() !==
    undefined
  );
}

export function insertCashOut(db: LedgerDb, row: typeof cashOuts.$inferInsert): CashOutRow {
  return db.insert(cashOuts).values(row).returning().get();
}

export function updateCashOut(db: LedgerDb, seq: number, changes: Partial<CashOutRow>): CashOutRow {
  return db.update(cashOuts).set(changes).where(eq(cashOuts.seq, seq)).returning().get() as CashOutRow;
}
