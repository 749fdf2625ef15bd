/** The ClientLedger's Pix Automático tables (ledger/recurrence/recurrence-ops.ts). */
import { sql } from 'drizzle-orm';
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { FREQUENCIES, RETRY_POLICIES } from '../../src/domain/recurrence';

/** Pix Automático authorizations (docs/contract.md, Pix Automático): one row per recurrence. */
export const recurrences = sqliteTable(
  'recurrences',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    recurrenceId: text('recurrence_id').notNull(),
    externalReference: text('external_reference').notNull(),
    status: text('status', {
      enum: ['WAITING_AUTHORIZATION', 'APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'],
    }).notNull(),
    frequency: text('frequency', {
      enum: FREQUENCIES,
    }).notNull(),
    startDate: text('start_date').notNull(),
    endDate: text('end_date'),
    /** Centavos: the fixed amount, or null for a variable one. */
    amount: integer('amount'),
    minimumAmount: integer('minimum_amount'),
    payerMaximumAmount: integer('payer_maximum_amount'),
    retryPolicy: text('retry_policy', { enum: RETRY_POLICIES }).notNull(),
    contract: text('contract').notNull(),
    description: text('description'),
    payerName: text('payer_name').notNull(),
    payerDocument: text('payer_document').notNull(),
    /** The payer's bank account (JSON) when the request is pushed to it. */
    payerBank: text('payer_bank', { mode: 'json' }).$type<{
      ispb: string;
      branch: string;
      account: string;
    }>(),
    journey: text('journey', { enum: ['QR', 'PUSH'] }).notNull(),
    copyAndPaste: text('copy_and_paste'),
    /** QR journey: the 7 characters after the client's location key in its `/pix/rec/` location. */
    locationCode: text('location_code'),
    partnerIspb: text('partner_ispb').notNull(),
    webhookUrl: text('webhook_url'),
    createdAt: integer('created_at').notNull(),
    authorizationExpiresAt: integer('authorization_expires_at').notNull(),
    approvedAt: integer('approved_at'),
    endedAt: integer('ended_at'),
    cancelledBy: text('cancelled_by', { enum: ['CLIENT', 'PAYER', 'PAYER_BANK'] }),
  },
  (t) => [
    uniqueIndex('recurrences_recurrence_id_idx').on(t.recurrenceId),
    uniqueIndex('recurrences_external_reference_idx').on(t.externalReference),
    uniqueIndex('recurrences_location_code_idx').on(t.locationCode).where(sql`${t.locationCode} IS NOT NULL`),
  ],
);

/**
 * Each cycle's charge of a recurrence: the Cash-In that carries it (written in the Cash-In's own
 * transaction), its due date and the payer bank's attempts. One per recurrence and cycle.
 */
export const recurrenceCharges = sqliteTable(
  'recurrence_charges',
  {
    transactionId: text('transaction_id').primaryKey(),
    recurrenceId: text('recurrence_id').notNull(),
    cycle: integer('cycle').notNull(),
    dueDate: text('due_date').notNull(),
    /** Failed attempts so far, with their instants (JSON list of epoch ms). */
    failedAttempts: text('failed_attempts', { mode: 'json' }).$type<number[]>().notNull(),
  },
  (t) => [uniqueIndex('recurrence_charges_cycle_idx').on(t.recurrenceId, t.cycle)],
);
