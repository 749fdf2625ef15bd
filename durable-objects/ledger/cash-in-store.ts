/** Cash-In rows of one client: lookups with the precedence of spec §4.5. */
import { eq, sql } from 'drizzle-orm';
import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import type { CashInRecord } from '../../src/domain/cash-in';
import { cashIns } from './schema';

export type CashInRow = typeof cashIns.$inferSelect;
type Db = DrizzleSqliteDODatabase<Record<string, unknown>>;

/**
 * One id may match several Cash-Ins at different levels: internalCode, then transactionId, then
 * payment endToEndId, then refund endToEndId, then externalReference; the newest wins in a level.
 */
export function findCashIn(db: Db, id: string): CashInRow | undefined {
  return db
    .select()
    .from(cashIns)
    .where(
      sql`${cashIns.internalCode} = ${id} OR ${cashIns.transactionId} = ${id} OR ${cashIns.endToEndId} = ${id}
        OR ${cashIns.refundEndToEndId} = ${id} OR ${cashIns.externalReference} = ${id}`,
    )
    .orderBy(
      sql`CASE WHEN ${cashIns.internalCode} = ${id} THEN 0 WHEN ${cashIns.transactionId} = ${id} THEN 1
        WHEN ${cashIns.endToEndId} = ${id} THEN 2 WHEN ${cashIns.refundEndToEndId} = ${id} THEN 3 ELSE 4 END`,
      sql`${cashIns.seq} DESC`,
    )
    .limit(1)
    .get();
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
