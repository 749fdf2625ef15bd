/**
 * Cash-Out rows of one client: lookups (docs/contract.md, Lookup by id), the 202's insert and its uniqueness
 * checks.
 */
import { eq } from 'drizzle-orm';
import { type LedgerDb, sqlOf } from '../db';
import { findByAnyId } from '../reads/lookup';
import { cashOuts } from '../schema';

export type CashOutRow = typeof cashOuts.$inferSelect;

export function findCashOut(db: LedgerDb, id: string): CashOutRow | undefined {
  return findByAnyId<CashOutRow>(db, cashOuts, cashOuts, id);
}

// The 202's statements run on the SQL API directly (fixed texts): drizzle's building and mapping
// cost more than SQLite takes to run them.
export function cashOutReferenceTaken(db: LedgerDb, externalReference: string): boolean {
  return (
    sqlOf(db).exec('SELECT 1 FROM cash_outs WHERE external_reference = ?', externalReference).toArray()
      .length > 0
  );
}

export function cashOutCodeTaken(db: LedgerDb, internalCode: string): boolean {
  return sqlOf(db).exec('SELECT 1 FROM cash_outs WHERE internal_code = ?', internalCode).toArray().length > 0;
}

/** A new Cash-Out's columns; what the API has not decided yet starts NULL. */
export type NewCashOut = Pick<
  CashOutRow,
  | 'transactionId'
  | 'internalCode'
  | 'externalReference'
  | 'status'
  | 'stage'
  | 'amount'
  | 'description'
  | 'webhookUrl'
  | 'payeeName'
  | 'payeeDocument'
  | 'destination'
  | 'destinationKey'
  | 'requestedAt'
  | 'nextAt'
>;

export function insertCashOut(db: LedgerDb, row: NewCashOut): CashOutRow {
  const [inserted] = sqlOf(db)
    .exec<{ seq: number }>(
      `INSERT INTO cash_outs (transaction_id, internal_code, external_reference, status, stage, amount,
         description, webhook_url, payee_name, payee_document, destination, destination_key,
         requested_at, next_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
      row.transactionId,
      row.internalCode,
      row.externalReference,
      row.status,
      row.stage,
      row.amount,
      row.description,
      row.webhookUrl,
      row.payeeName,
      row.payeeDocument,
      JSON.stringify(row.destination),
      row.destinationKey,
      row.requestedAt,
      row.nextAt,
    )
    .toArray();
  return {
    ...row,
    seq: (inserted as { seq: number }).seq,
    payeeBank: null,
    partnerIspb: null,
    settlement: null,
    endToEndId: null,
    refundEndToEndId: null,
    failureCode: null,
    reason: null,
    completedAt: null,
    cancelledAt: null,
    refundedAt: null,
  };
}

export function updateCashOut(db: LedgerDb, seq: number, changes: Partial<CashOutRow>): CashOutRow {
  return db.update(cashOuts).set(changes).where(eq(cashOuts.seq, seq)).returning().get() as CashOutRow;
}
