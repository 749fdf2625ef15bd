/** Cash-In rows of one client: lookups with the precedence of docs/contract.md, Lookup by id. */
import { eq } from 'drizzle-orm';
import { cashInView } from '../../../src/domain/cash-in';
import { failure } from '../../../src/domain/result';
import type { LedgerContext } from '../context';
import { type LedgerDb, sqlOf } from '../db';
import { ph, prepared } from '../prepared';
import { findByAnyId } from '../reads/lookup';
import { cashIns } from '../schema';
import { emitWebhook, type WebhookEvent } from '../webhooks/events';

export type CashInRow = typeof cashIns.$inferSelect;
type Db = LedgerDb;

export function findCashIn(db: Db, id: string): CashInRow | undefined {
  return findByAnyId<CashInRow>(db, cashIns, cashIns, id);
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

/**
 * Whether a new Cash-In's externalReference, or the internalCode drawn for it, is already held by a
 * hot Cash-In: both unique indexes in one statement (it runs on every POST /cash-in).
 */
export function newCashInIdsTaken(
  db: Db,
  externalReference: string,
  internalCode: string,
): { reference: boolean; code: boolean } {
  const row = sqlOf(db)
    .exec<{ reference: number; code: number }>(
      `SELECT EXISTS (SELECT 1 FROM cash_ins WHERE external_reference = ?) AS reference,
              EXISTS (SELECT 1 FROM cash_ins WHERE internal_code = ?) AS code`,
      externalReference,
      internalCode,
    )
    .one();
  return { reference: row.reference === 1, code: row.code === 1 };
}

/** The Cash-In event of a transition, for its webhookUrl (same transaction). */
export function emitCashIn(ctx: LedgerContext, row: CashInRow, eventType: string, at: number): void {
  emitWebhook(ctx, cashInEvent(row, eventType, at));
}

/** The webhook event of a Cash-In transition. */
export function cashInEvent(row: CashInRow, eventType: string, at: number): WebhookEvent {
  return { aggregateId: row.transactionId, eventType, data: cashInView(row), webhookUrl: row.webhookUrl, at };
}

/** One Cash-In row changed by its seq, returned as stored. */
export function updateCashIn(ctx: LedgerContext, seq: number, changes: Partial<CashInRow>): CashInRow {
  return ctx.db.update(cashIns).set(changes).where(eq(cashIns.seq, seq)).returning().get() as CashInRow;
}

export function cashInNotFound() {
  return failure({ code: 'CASHIN_NOT_FOUND', detail: 'No Cash-In matches this id' });
}

/** The insert of a new Cash-In, built once per object (it runs on every POST /cash-in). */
export function insertCashIn(db: Db) {
  return prepared(db, 'cashIns.insert', () =>
    db
      .insert(cashIns)
      .values({
        transactionId: ph('transactionId'),
        internalCode: ph('internalCode'),
        externalReference: ph('externalReference'),
        status: ph('status'),
        amount: ph('amount'),
        payerName: ph('payerName'),
        payerDocument: ph('payerDocument'),
        partnerIspb: ph('partnerIspb'),
        webhookUrl: ph('webhookUrl'),
        redirectUrl: ph('redirectUrl'),
        flow: ph('flow'),
        pspLocation: ph('pspLocation'),
        requestedAt: ph('requestedAt'),
        expiresAt: ph('expiresAt'),
      })
      .returning()
      .prepare(),
  );
}

/** A paid Cash-In at a partner, found by its end-to-end id (the daily reconciliation). */
export function paidCashInAt(
  db: Db,
  ispb: string,
  endToEndId: string,
): { amount: number; id: string } | undefined {
  return sqlOf(db)
    .exec<{ amount: number; id: string }>(
      `SELECT amount, transaction_id AS id FROM cash_ins
       WHERE end_to_end_id = ? AND partner_ispb = ? AND paid_at IS NOT NULL`,
      endToEndId,
      ispb,
    )
    .toArray()[0];
}

/** The hot Cash-In with this internalCode only (what a BR Code location names). */
export function cashInByInternalCode(db: Db, internalCode: string): CashInRow | undefined {
  return db.select().from(cashIns).where(eq(cashIns.internalCode, internalCode)).get();
}
