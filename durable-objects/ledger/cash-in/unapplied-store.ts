/**
 * The store of unapplied receipts and the suspense account that holds their money until it is
 * returned (docs/contract.md, Unapplied receipts): every statement on `unapplied_receipts` and
 * `suspense_entries`. Runs inside the caller's storage transaction.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { suspenseViolation } from '../../../src/domain/money-invariants';
import type { ReturnStep } from '../../../src/partners/unapplied-return';
import { type LedgerDb, sqlOf } from '../db';
import { booksTamper, guard } from '../ledger/books-guard';
import { suspenseEntries, unappliedReceipts } from '../schema';

export type ReceiptRow = typeof unappliedReceipts.$inferSelect;

export function findReceipt(db: LedgerDb, endToEndId: string): ReceiptRow | undefined {
  return db.select().from(unappliedReceipts).where(eq(unappliedReceipts.endToEndId, endToEndId)).get();
}

/** The FAILED receipts paid after `since`, oldest first: their returns are read again (unapplied-ops.ts). */
export function failedReceiptsSince(db: LedgerDb, since: number): string[] {
  return db
    .select({ endToEndId: unappliedReceipts.endToEndId })
    .from(unappliedReceipts)
    .where(and(eq(unappliedReceipts.stage, 'FAILED'), gt(unappliedReceipts.receivedAt, since)))
    .orderBy(asc(unappliedReceipts.receivedAt))
    .all()
    .map((r) => r.endToEndId);
}

/** Books a receipt with its suspense credit; false (nothing written) when this Pix is booked already. */
export function insertReceipt(db: LedgerDb, row: Omit<ReceiptRow, 'bookedAt'>, now: number): boolean {
  const inserted = db
    .insert(unappliedReceipts)
    .values({ ...row, bookedAt: now })
    .onConflictDoNothing()
    .returning({ endToEndId: unappliedReceipts.endToEndId })
    .get();
  if (!inserted) return false;
  db.insert(suspenseEntries)
    .values({
      id: `SUSC${row.endToEndId}`,
      ispb: row.ispb,
      direction: 'CREDIT',
      amount: row.amount,
      endToEndId: row.endToEndId,
      createdAt: now,
    })
    .run();
  return true;
}

/** A return step's outcome: its stage, and once RETURNED the suspense debit that pays it out. */
export function recordReturnStep(
  db: LedgerDb,
  read: ReceiptRow,
  step: Exclude<ReturnStep, { stage: 'WAIT' }>,
  now: number,
): void {
  db.update(unappliedReceipts)
    .set({
      stage: step.stage,
      // A FAILED return the network settled after all loses its failure: it was made.
      ...(step.stage === 'RETURNED' && {
        returnEndToEndId: step.returnEndToEndId,
        returnedAt: step.returnedAt,
        failure: null,
      }),
      ...(step.stage === 'FAILED' && { failure: step.failure }),
    })
    .where(eq(unappliedReceipts.endToEndId, read.endToEndId))
    .run();
  if (step.stage !== 'RETURNED') return;
  const debit = { amount: read.amount };
  booksTamper(db)?.suspenseDebit?.(debit);
  db.insert(suspenseEntries)
    .values({
      id: `SUSD${read.endToEndId}`,
      ispb: read.ispb,
      direction: 'DEBIT',
      amount: debit.amount,
      endToEndId: step.returnEndToEndId,
      originalEndToEndId: read.endToEndId,
      createdAt: now,
    })
    .onConflictDoNothing()
    .run();
  // The suspense account never pays out more than it holds (money-invariants.ts).
  guard(suspenseViolation(read.ispb, suspenseHeld(db, read.ispb)));
}

/** What this client's suspense account holds at a partner (booked, not yet returned). */
export function suspenseHeld(db: LedgerDb, ispb: string): number {
  const row = db
    .select({
      total: sql<number>`coalesce(sum(CASE ${suspenseEntries.direction} WHEN 'CREDIT' THEN ${suspenseEntries.amount} ELSE -${suspenseEntries.amount} END), 0)`,
    })
    .from(suspenseEntries)
    .where(eq(suspenseEntries.ispb, ispb))
    .get();
  return row?.total ?? 0;
}

/** Centavos of the returns the partner took and has not settled yet (stage SENT): still in suspense here. */
export function returnsSentAt(db: LedgerDb, ispb: string): number {
  const row = db
    .select({ total: sql<number>`coalesce(sum(${unappliedReceipts.amount}), 0)` })
    .from(unappliedReceipts)
    .where(and(eq(unappliedReceipts.ispb, ispb), eq(unappliedReceipts.stage, 'SENT')))
    .get();
  return row?.total ?? 0;
}

/** Centavos of one payment the suspense account returned to its payer. */
export function suspenseReturnedOf(db: LedgerDb, endToEndId: string): number {
  return sqlOf(db)
    .exec<{ total: number }>(
      `SELECT coalesce(sum(amount), 0) AS total FROM suspense_entries
       WHERE original_end_to_end_id = ? AND direction = 'DEBIT'`,
      endToEndId,
    )
    .one().total;
}

/** The receipts credited to the suspense account at a partner in [from, to). */
export function receiptsHeldBetween(db: LedgerDb, ispb: string, from: number, to: number) {
  return sqlOf(db).exec<{ end_to_end_id: string; amount: number; txid: string | null; created_at: number }>(
    `SELECT s.end_to_end_id, s.amount, r.txid, s.created_at FROM suspense_entries s
     JOIN unapplied_receipts r ON r.end_to_end_id = s.end_to_end_id
     WHERE s.ispb = ? AND s.created_at >= ? AND s.created_at < ? AND s.direction = 'CREDIT'`,
    ispb,
    from,
    to,
  );
}

/** A receipt booked at a partner, found by its end-to-end id. */
export function receiptAt(
  db: LedgerDb,
  ispb: string,
  endToEndId: string,
): { amount: number; id: string } | undefined {
  return sqlOf(db)
    .exec<{ amount: number; id: string }>(
      'SELECT amount, txid AS id FROM unapplied_receipts WHERE end_to_end_id = ? AND ispb = ?',
      endToEndId,
      ispb,
    )
    .toArray()[0];
}

export type SuspenseRow = typeof suspenseEntries.$inferSelect;

/** Every row, oldest first: what the tests assert on (test/support/ledger-reads.ts), read here so the table keeps one home. */
export function allSuspenseEntries(db: LedgerDb): SuspenseRow[] {
  return db.select().from(suspenseEntries).orderBy(suspenseEntries.createdAt, suspenseEntries.id).all();
}
