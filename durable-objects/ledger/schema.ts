/**
 * Storage of one client's ClientLedger Durable Object (SQLite; docs/storage-schema.md). Every write of a business operation
 * happens in one `transactionSync`, so state, ledger entries and outbox events move together. */
import { type SQL, sql } from 'drizzle-orm';
import {
  index,
  integer,
  primaryKey,
  type SQLiteColumn,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';
import type { BankData, CashInRecurrence, PaidBy, PayerBankData } from '../../src/domain/cash-in';
import type { Destination } from '../../src/domain/cash-out';
import { DELIVERY_STATUSES } from '../../src/domain/webhook-delivery';
import { compressedJson, idempotencyKeyColumn, requestFingerprintColumn } from './ledger/idempotency-codec';
import { disputeColumns } from './schema-disputes';

/** Small facts about the object itself (its client id, onboarding data). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).notNull(),
});

export const accounts = sqliteTable('accounts', {
  number: text('number').primaryKey(),
  ispb: text('ispb').notNull(),
  branch: text('branch').notNull(),
  type: text('type', { enum: ['TRANSACTIONAL', 'PROPRIETARY'] }).notNull(),
  /** Derived: equals the last entry's balanceAfter; kept for O(1) reads and checked by tests. */
  balance: integer('balance').notNull().default(0),
});

/** The append-only ledger: the source of truth for every balance. */
export const ledgerEntries = sqliteTable(
  'ledger_entries',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    accountNumber: text('account_number').notNull(),
    type: text('type').notNull(),
    typeRaw: text('type_raw'),
    direction: text('direction', { enum: ['CREDIT', 'DEBIT'] }).notNull(),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    description: text('description'),
    endToEndId: text('end_to_end_id'),
    originalEndToEndId: text('original_end_to_end_id'),
    /** What caused it: `cash-in:<txid>`, `cash-out:<uuid>`, `rebalance:<id>`, `deposit:<id>`. */
    ref: text('ref').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('ledger_account_time_idx').on(t.accountNumber, t.createdAt, t.seq),
    // What was devolved of one payment (the daily reconciliation); only devolutions carry one.
    index('ledger_entries_original_e2e_idx')
      .on(t.originalEndToEndId)
      .where(sql`${t.originalEndToEndId} IS NOT NULL`),
  ],
);

export const cashIns = sqliteTable(
  'cash_ins',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    transactionId: text('transaction_id').notNull().unique(),
    internalCode: text('internal_code').notNull().unique(),
    externalReference: text('external_reference').notNull(),
    status: text('status', {
      enum: ['AWAITING_PAYMENT', 'PAID', 'EXPIRED', 'REFUNDED', 'CANCELLED'],
    }).notNull(),
    amount: integer('amount').notNull(),
    payerName: text('payer_name').notNull(),
    payerDocument: text('payer_document').notNull(),
    /** JSON {ispb, bank, branch?, account?} of the paying account, once settled (= paidBy.bankData). */
    payerBank: text('payer_bank', { mode: 'json' }).$type<PayerBankData>(),
    /** JSON {name?, document?, bankData, allowed}: who actually paid and whether the client takes it. */
    paidBy: text('paid_by', { mode: 'json' }).$type<PaidBy>(),
    partnerIspb: text('partner_ispb').notNull(),
    /** JSON {ispb, bank, branch, account} of the gateway account that received the money. */
    settlement: text('settlement', { mode: 'json' }).$type<BankData>(),
    endToEndId: text('end_to_end_id'),
    refundEndToEndId: text('refund_end_to_end_id'),
    /** The id the latest refund was asked under (its 202): still found once an rtrId replaces it. */
    refundRequestId: text('refund_request_id'),
    /** FAILED: the last refund's devolution failed at the partner; the Cash-In is PAID again. */
    refundState: text('refund_state', { enum: ['NONE', 'PROCESSING', 'DONE', 'FAILED'] })
      .notNull()
      .default('NONE'),
    /** Why the last refund failed (a Cash-Out failure code), while refundState is FAILED. */
    refundFailureCode: text('refund_failure_code'),
    /** The X-Idempotency-Key of the refund in flight: forgotten if it fails, so a retry runs again. */
    refundIdempotencyKey: text('refund_idempotency_key'),
    reason: text('reason'),
    refundDescription: text('refund_description'),
    webhookUrl: text('webhook_url'),
    redirectUrl: text('redirect_url'),
    flow: text('flow', { enum: ['PIX', 'OPEN_FINANCE'] }).notNull(),
    /** The location a real partner's PSP registered the charge under; null where the gateway hosts it. */
    pspLocation: text('psp_location'),
    requestedAt: integer('requested_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    paidAt: integer('paid_at'),
    refundedAt: integer('refunded_at'),
    cancelledAt: integer('cancelled_at'),
    ...disputeColumns,
    recurrence: text('recurrence', { mode: 'json' }).$type<CashInRecurrence>(), // a Pix Automático cycle's charge
  },
  (t) => [
    uniqueIndex('cash_ins_external_reference_idx').on(t.externalReference),
    index('cash_ins_requested_idx').on(t.requestedAt, t.seq),
    // Looked up by value only: rows without one stay out (migration 0012).
    index('cash_ins_e2e_idx').on(t.endToEndId).where(sql`${t.endToEndId} IS NOT NULL`),
    index('cash_ins_refund_e2e_idx').on(t.refundEndToEndId).where(sql`${t.refundEndToEndId} IS NOT NULL`),
    index('cash_ins_refund_request_idx').on(t.refundRequestId).where(sql`${t.refundRequestId} IS NOT NULL`),
    index('cash_ins_dispute_idx').on(t.disputeOpenedAt, t.seq).where(sql`${t.disputeId} IS NOT NULL`),
  ],
);

export type { BankData };

export const cashOuts = sqliteTable(
  'cash_outs',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    transactionId: text('transaction_id').notNull().unique(),
    internalCode: text('internal_code').notNull().unique(),
    externalReference: text('external_reference').notNull(),
    status: text('status', {
      enum: ['PROCESSING', 'PENDING', 'COMPLETED', 'CANCELLED', 'REFUNDED'],
    }).notNull(),
    /** Where execution stands after the 202 (see cash-out-ops.ts). */
    stage: text('stage', {
      enum: ['RECEIVED', 'AWAITING_APPROVAL', 'APPROVED', 'SENDING', 'SENT', 'DONE'],
    }).notNull(),
    amount: integer('amount').notNull(),
    description: text('description'),
    webhookUrl: text('webhook_url'),
    payeeName: text('payee_name').notNull(),
    payeeDocument: text('payee_document').notNull(),
    /** JSON destination exactly as requested: {type, pixKeyType, pixKey} or {type, bankAccount}. */
    destination: text('destination', { mode: 'json' }).$type<Destination>().notNull(),
    /** Key of the destination used by the per-payee limit and duplicate detection. */
    destinationKey: text('destination_key').notNull(),
    payeeBank: text('payee_bank', { mode: 'json' }).$type<BankData>(),
    /** The settlement partner assigned by routing, once funds were reserved there. */
    partnerIspb: text('partner_ispb'),
    settlement: text('settlement', { mode: 'json' }).$type<BankData>(),
    endToEndId: text('end_to_end_id'),
    refundEndToEndId: text('refund_end_to_end_id'),
    failureCode: text('failure_code'),
    reason: text('reason'),
    requestedAt: integer('requested_at').notNull(),
    completedAt: integer('completed_at'),
    cancelledAt: integer('cancelled_at'),
    refundedAt: integer('refunded_at'),
    /**
     * When the executor (cash-out-exec.ts, one pass over every due Cash-Out) next takes this Cash-Out; NULL while it waits for
     * an operator or is DONE, so the executor's due query walks only live ones (partial index).
     */
    nextAt: integer('next_at'),
  },
  (t) => [
    uniqueIndex('cash_outs_external_reference_idx').on(t.externalReference),
    index('cash_outs_next_idx').on(t.nextAt).where(sql`${t.nextAt} IS NOT NULL`),
    index('cash_outs_requested_idx').on(t.requestedAt, t.seq),
    index('cash_outs_e2e_idx').on(t.endToEndId).where(sql`${t.endToEndId} IS NOT NULL`),
    index('cash_outs_refund_e2e_idx').on(t.refundEndToEndId).where(sql`${t.refundEndToEndId} IS NOT NULL`),
    index('cash_outs_destination_idx').on(t.destinationKey, t.requestedAt),
  ],
);

/**
 * Running totals behind the withdrawal limits: centavos of the Cash-Outs that passed their limits
 * (reserved, not cancelled), per BRT day (`D|2026-11-24`), BRT month (`M|2026-11`) and payee-day
 * (`P|2026-11-24|<destinationKey>`). Kept in the reservation's and the cancellation's transaction,
 * so a limit check reads three rows whatever the client's history. `period` (the day or month)
 * lets old rows be pruned once no limit can ask for them (limit-totals.ts, askableSince).
 */
export const limitTotals = sqliteTable(
  'limit_totals',
  {
    key: text('key').primaryKey(),
    period: text('period').notNull(),
    cents: integer('cents').notNull(),
  },
  (t) => [index('limit_totals_period_idx').on(t.period)],
);

/**
 * Money set aside for an operation in flight (a refund being sent, a Cash-Out being executed) or a dispute's block:
 * available = balance − active holds. A hold is consumed by the debit entry or released, in the outcome's transaction.
 */
export const holds = sqliteTable(
  'holds',
  {
    id: text('id').primaryKey(),
    accountNumber: text('account_number').notNull(),
    amount: integer('amount').notNull(),
    ref: text('ref').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('holds_account_idx').on(t.accountNumber)],
);

/** Work due at a time (expiry, partner status polls, Cash-Out steps); the alarm runs what is due. */
export const tasks = sqliteTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    ref: text('ref').notNull(),
    dueAt: integer('due_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [index('tasks_due_idx').on(t.dueAt)],
);

/** Stored successful responses, replayed for 24 h (docs/contract.md, Idempotency). */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    // The key's 128-bit hash, its request's fingerprint, the deflated answer (idempotency-codec.ts); types as created.
    key: idempotencyKeyColumn('key').primaryKey(),
    requestHash: requestFingerprintColumn('request_hash').notNull(),
    status: integer('status').notNull(),
    body: compressedJson('body').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('idempotency_created_idx').on(t.createdAt)],
);

/**
 * Events written in the same transaction as the change that caused them; `seq` orders them per
 * object and therefore per transaction. `publishedAt` is set once the event is handed to delivery.
 */
export const outbox = sqliteTable(
  'outbox',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    eventId: text('event_id').notNull().unique(),
    aggregateId: text('aggregate_id').notNull(),
    /** `webhook` events for the client's receivers; `health` observations for the analyzer. */
    channel: text('channel', { enum: ['webhook', 'health'] }).notNull(),
    eventType: text('event_type').notNull(),
    data: text('data', { mode: 'json' }).notNull(),
    webhookUrl: text('webhook_url'),
    occurredAt: integer('occurred_at').notNull(),
    publishedAt: integer('published_at'),
  },
  (t) => [index('outbox_unpublished_idx').on(t.channel, t.publishedAt, t.seq)],
);

/** An event id of an older version, which carries no seq (ids.ts eventSeqOf): the only rows
 * webhook_deliveries_legacy_id_idx holds. A look-up names this same term to use that index. */
export const legacyEventId = (eventId: SQLiteColumn): SQL => sql`${eventId} NOT GLOB 'evt_[0-9]*_*'`;

/**
 * Delivery state of each `webhook` outbox event (the payload stays in the outbox until given up). `dueAt` is when
 * the dispatcher must look at it again: the next attempt (PENDING, FAILED) or the end of the lease
 * of a dispatch that has not reported (IN_FLIGHT); null once final. Events of one aggregate go
 * out in `seq` order, one at a time. See docs/storage-schema.md.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    /** The outbox seq: the order of events, per aggregate too, and the key (an event id carries it). */
    seq: integer('seq').primaryKey(),
    eventId: text('event_id').notNull(),
    aggregateId: text('aggregate_id').notNull(),
    eventType: text('event_type').notNull(),
    url: text('url'),
    status: text('status', {
      enum: DELIVERY_STATUSES,
    }).notNull(),
    /** Attempts that reached an outcome since the schedule (re)started. */
    attempts: integer('attempts').notNull().default(0),
    /** Dispatches to the queue so far; a message names its dispatch so stale ones are skipped. */
    dispatches: integer('dispatches').notNull().default(0),
    dueAt: integer('due_at'),
    lastResponseStatus: integer('last_response_status'),
    lastError: text('last_error'),
    lastAttemptAt: integer('last_attempt_at'),
    deliveredAt: integer('delivered_at'),
    createdAt: integer('created_at').notNull(), // when the event happened (the outbox `occurredAt`)
    updatedAt: integer('updated_at').notNull(),
    payload: text('payload', { mode: 'json' }), // a GIVEN_UP one's, moved from the outbox: the row alone is archived (0028)
  },
  (t) => [
    // The rowid is the seq: each index below is in seq order within its key (migration 0012).
    index('webhook_deliveries_open_idx').on(t.aggregateId).where(sql`${t.dueAt} IS NOT NULL`),
    index('webhook_deliveries_status_idx').on(t.status),
    // Pruning finds deliveries that ended long enough ago (prune.ts).
    index('webhook_deliveries_finished_idx').on(t.status, t.updatedAt),
    // The deliveries of one transaction: the operator list by aggregateId and archiving them
    // (archive-delivery-queue.ts) read a range, not the table. Keyed by the id's last 8 characters
    // (random in a Cash-In TxId and a UUID; a TxId starts with its client); `aggregateIs` filters the rest.
    index('webhook_deliveries_aggregate_idx').on(sql`substr(${t.aggregateId}, -8)`),
    index('webhook_deliveries_legacy_id_idx').on(t.eventId).where(legacyEventId(t.eventId)),
  ],
);

/**
 * Archive segments in R2 (ledger/archive/archive.ts), reserved WRITING with their key and seqs before the put, DONE in
 * the transaction that deletes those rows; a closed day's DONE rows are later folded into archive_runs (schema-runs.ts).
 */
export const archiveSegments = sqliteTable(
  'archive_segments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    key: text('key').notNull(),
    state: text('state', { enum: ['WRITING', 'DONE'] }).notNull(),
    /** JSON array of the source rows' seqs while WRITING; null once DONE. */
    seqs: text('seqs', { mode: 'json' }).$type<number[]>(),
    /** What it holds (ledger/archive/archive-sources.ts): `cash-in`, `cash-out` or `ledger:<account>`. */
    kind: text('kind').notNull().default('cash-in'),
    /** Its first and last (time, seq) in list order: a list opens only the segments its page touches. */
    firstTime: integer('first_time'),
    firstSeq: integer('first_seq'),
    lastTime: integer('last_time'),
    lastSeq: integer('last_seq'),
    count: integer('count'),
    /** JSON summary rows [status, ispb, bank, count, amount] of the segment (edge days of a summary). */
    totals: text('totals'),
  },
  (t) => [
    uniqueIndex('archive_segments_key_idx').on(t.key),
    index('archive_segments_first_idx').on(t.kind, t.firstTime, t.firstSeq),
    index('archive_segments_last_idx').on(t.kind, t.lastTime, t.lastSeq),
  ],
);

/**
 * Running totals of archived transactions per kind, UTC day, status and settling bank (ispb '' when
 * none counts): a summary adds whole days from here and never opens their segments. WITHOUT ROWID
 * (hand-written migration 0007, like archive_index in 0006).
 */
export const archiveTotals = sqliteTable(
  'archive_totals',
  {
    kind: text('kind').notNull(),
    day: text('day').notNull(),
    status: text('status').notNull(),
    ispb: text('ispb').notNull(),
    bank: text('bank'),
    count: integer('count').notNull(),
    amount: integer('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.day, t.status, t.ispb] })],
);

/** Archived copies superseded by a rehydrated row (its newer copy is hot or in a newer segment). */
export const archiveStale = sqliteTable(
  'archive_stale',
  { segment: integer('segment').notNull(), seq: integer('seq').notNull() },
  (t) => [primaryKey({ columns: [t.segment, t.seq] })],
);

/**
 * Transactions archived (or whose delivery ended after they were) whose ended webhook deliveries may still be hot: the
 * delivery archive source walks this, not the deliveries table. WITHOUT ROWID (migration 0009); it goes once none is hot.
 */
export const archiveDeliveryQueue = sqliteTable('archive_delivery_queue', {
  aggregateId: text('aggregate_id').primaryKey(),
});

/** The id index of archived webhook deliveries (aggregateId hash → segment), like archive_index (migration 0011). */
export const archiveDeliveryIndex = sqliteTable(
  'archive_delivery_index',
  { hash: integer('hash').notNull(), segment: integer('segment').notNull() },
  (t) => [primaryKey({ columns: [t.hash, t.segment] })],
);
export * from './schema-audit';
export * from './schema-codes';
export * from './schema-deliveries';
export { archivedDisputes } from './schema-disputes';
export * from './schema-filters';
export * from './schema-parking';
export * from './schema-recurrence';
export * from './schema-runs';
export * from './schema-unapplied';

/**
 * Batch Cash-Outs (POST /cash-out/batch): one row per batch. Its items, inserted in its one transaction, are the contiguous
 * seqs `first_seq`..`last_seq` in item order: the batch's status counts read that range, no column is added to every Cash-Out.
 */
export const cashOutBatches = sqliteTable(
  'cash_out_batches',
  {
    batchId: text('batch_id').primaryKey(),
    createdAt: integer('created_at').notNull(),
    count: integer('count').notNull(),
    amount: integer('amount').notNull(),
    firstSeq: integer('first_seq').notNull(),
    lastSeq: integer('last_seq').notNull(),
  },
  (t) => [index('cash_out_batches_first_seq_idx').on(t.firstSeq)],
);
