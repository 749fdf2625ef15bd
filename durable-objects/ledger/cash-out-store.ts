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

export function cashOutByTransactionId(db: LedgerDb, transactionId: string): CashOutRow | undefined {
  const query = prepared(db, 'cashOuts.byTransactionId', () =>
    db
      .select()
      .from(cashOuts)
      .where(eq(cashOuts.transactionId, ph('transactionId')))
      .prepare(),
  );
  return query.get({ transactionId });
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

/** An earlier, live Cash-Out of the same amount to the same payee within the window. */
export function hasRecentTwin(db: LedgerDb, row: CashOutRow, windowMs: number): boolean {
  return (
    db
      .select({ seq: cashOuts.seq })
      .from(cashOuts)
      .where(
        and(
          eq(cashOuts.destinationKey, row.destinationKey),
          eq(cashOuts.amount, row.amount),
          ne(cashOuts.status, 'CANCELLED'),
          lt(cashOuts.seq, row.seq),
          gte(cashOuts.requestedAt, row.requestedAt - windowMs),
        ),
      )
      .get() !== undefined
  );
}

export function insertCashOut(db: LedgerDb, row: typeof cashOuts.$inferInsert): CashOutRow {
  return db.insert(cashOuts).values(row).returning().get();
}

export function updateCashOut(db: LedgerDb, seq: number, changes: Partial<CashOutRow>): CashOutRow {
  return db.update(cashOuts).set(changes).where(eq(cashOuts.seq, seq)).returning().get() as CashOutRow;
}
