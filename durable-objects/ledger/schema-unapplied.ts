/** The ClientLedger's tables of unapplied receipts and their suspense account (ledger/cash-in/unapplied-ops.ts). */
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { RETURN_STAGES, UNAPPLIED_REASONS } from '../../src/domain/unapplied';

/**
 * Money a partner reported that no Cash-In of this client can take (ledger/cash-in/unapplied-ops.ts), held
 * for the payer until its return settles. Keyed by the payment's end-to-end id: reported again, it
 * is found, never booked twice.
 */
export const unappliedReceipts = sqliteTable('unapplied_receipts', {
  endToEndId: text('end_to_end_id').primaryKey(),
  id: text('id').notNull(),
  ispb: text('ispb').notNull(),
  txid: text('txid'),
  amount: integer('amount').notNull(),
  receivedAt: integer('received_at').notNull(),
  reason: text('reason', { enum: UNAPPLIED_REASONS }).notNull(),
  returnId: text('return_id').notNull(),
  stage: text('stage', { enum: RETURN_STAGES }).notNull(),
  returnEndToEndId: text('return_end_to_end_id'),
  returnedAt: integer('returned_at'),
  failure: text('failure'),
  bookedAt: integer('booked_at').notNull(),
});

/** The suspense account's entries per partner: CREDIT when a receipt is booked, DEBIT when returned. */
export const suspenseEntries = sqliteTable(
  'suspense_entries',
  {
    id: text('id').primaryKey(),
    ispb: text('ispb').notNull(),
    direction: text('direction', { enum: ['CREDIT', 'DEBIT'] }).notNull(),
    amount: integer('amount').notNull(),
    endToEndId: text('end_to_end_id').notNull(),
    originalEndToEndId: text('original_end_to_end_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('suspense_entries_time_idx').on(t.ispb, t.createdAt),
    index('suspense_entries_original_idx')
      .on(t.originalEndToEndId)
      .where(sql`${t.originalEndToEndId} IS NOT NULL`),
  ],
);
