/** The MED dispute recorded on a Cash-In (docs/contract.md, Disputes; ledger/cash-in/dispute-ops.ts): columns of cash_ins. */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Indexed by cash_ins_dispute_idx (schema.ts) on (openedAt, seq) of disputed rows: GET /disputes. */
export const disputeColumns = {
  /** The infraction's id at the partner. */
  disputeId: text('dispute_id'),
  disputeStatus: text('dispute_status', { enum: ['OPEN', 'DEFENDED', 'ACCEPTED', 'REJECTED', 'CANCELLED'] }),
  disputeOpenedAt: integer('dispute_opened_at'),
  /** The partner's deadline for the client's defense. */
  disputeRespondBy: integer('dispute_respond_by'),
  /** Centavos the partner blocked: held on the TRANSACTIONAL account while the dispute is open. */
  disputeBlockedAmount: integer('dispute_blocked_amount'),
  disputeDefendedAt: integer('dispute_defended_at'),
  disputeClosedAt: integer('dispute_closed_at'),
  /**
   * Centavos the bank returned of a Cash-In still PAID (a partial return, bank-returns.ts); null for
   * none. Kept on the row, so it travels with it to the archive and back.
   */
  bankReturned: integer('bank_returned'),
};

/**
 * Disputed Cash-Ins moved to the archive, so GET /disputes lists them whatever their age: the
 * archive's segments are ordered by when the Cash-In was requested, not by when its dispute opened.
 * Written in the transaction that deletes the hot row; a row back hot (rehydrated) is read hot.
 */
export const archivedDisputes = sqliteTable(
  'archived_disputes',
  {
    /** The Cash-In's seq (a rehydrated row keeps it). */
    seq: integer('seq').primaryKey(),
    transactionId: text('transaction_id').notNull(),
    openedAt: integer('opened_at').notNull(),
    status: text('status').notNull(),
    /** The settling partner's ISPB (GET /admin/disputes filters by it). */
    partnerIspb: text('partner_ispb').notNull(),
  },
  (t) => [index('archived_disputes_opened_idx').on(t.openedAt, t.seq)],
);
