/** Cash-In rows of one client: lookups with the precedence of spec §4.5. */
import { eq } from 'drizzle-orm';
import type { CashInRecord } from '../../src/domain/cash-in';
import type { LedgerDb } from './db';
import { findByAnyId } from './lookup';
import { cashIns } from './schema';

export type CashInRow = typeof cashIns.$inferSelect;
type Db = LedgerDb;

export function findCashIn(db: Db, id: string): CashInRow | undefined {
  return findByAnyId<CashInRow>(db, cashIns, cashIns, id);
}

export function externalReferenceTaken(db: Db, externalReference: string): boolean {
  return (
    db
      .select({ seq: cashIns.seq })
      .from(cashIns)
      .where(eq(cashIns.externalReference, externalReference))
      .get() !== undefined
  );
}

export function internalCodeTaken(db: Db, internalCode: string): boolean {
  return (
    db.select({ seq: cashIns.seq }).from(cashIns).where(eq(cashIns.internalCode, internalCode)).get() !==
    undefined
  );
}

export function toRecord(row: CashInRow): CashInRecord {
  return row;
}
