/** Cash-In rows of one client: lookups with the precedence of spec §4.5. */
import { eq } from 'drizzle-orm';
import type { LedgerDb } from './db';
import { findByAnyId } from './lookup';
import { ph, prepared } from './prepared';
import { cashIns } from './schema';

export type CashInRow = typeof cashIns.$inferSelect;
type Db = LedgerDb;

export function findCashIn(db: Db, id: string): CashInRow | undefined {
  return findByAnyId<CashInRow>(db, cashIns, cashIns, id);
}

export function externalReferenceTaken(db: Db, externalReference: string): boolean {
  const query = prepared(db, 'cashIns.byExternalReference', () =>
    db
      .select({ seq: cashIns.seq })
      .from(cashIns)
      .where(eq(cashIns.externalReference, ph('externalReference')))
      .prepare(),
  );
  return query.get({ externalReference }) !== undefined;
}

export function internalCodeTaken(db: Db, internalCode: string): boolean {
  const query = prepared(db, 'cashIns.byInternalCode', () =>
    db
      .select({ seq: cashIns.seq })
      .from(cashIns)
      .where(eq(cashIns.internalCode, ph('internalCode')))
      .prepare(),
  );
  return query.get({ internalCode }) !== undefined;
}
