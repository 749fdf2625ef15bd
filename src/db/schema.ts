/**
 * D1 holds what is global and read-mostly: clients and their (hashed or encrypted) credentials,
 * the account directory, and sandbox partner faults. Per-client transactional state lives in the
 * client's ClientLedger Durable Object. See docs/storage-schema.md.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { ClientLimits } from '../domain/limits';
import { PAYER_POLICIES } from '../domain/payer-rules';
import { RETURN_STAGES, UNAPPLIED_REASONS } from '../domain/unapplied';

export const clients = sqliteTable(
  'clients',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** BR Code merchant text as the operator set it (docs/contract.md, BR Code); null = name / SAO PAULO. */
    merchantName: text('merchant_name'),
    merchantCity: text('merchant_city'),
    clientSecretHash: text('client_secret_hash').notNull(),
    applicationTokenHash: text('application_token_hash').notNull().unique(),
    applicationTokenActive: integer('application_token_active', { mode: 'boolean' }).notNull(),
    /** AES-GCM envelope of the CryptoToken; null once deactivated. */
    cryptoTokenSealed: text('crypto_token_sealed'),
    webhookSecretSealed: text('webhook_secret_sealed').notNull(),
    statementStartDate: text('statement_start_date').notNull(),
    /** JSON array of partner ISPBs, in routing preference order. */
    partners: text('partners', { mode: 'json' }).$type<string[]>().notNull(),
    /** JSON object of withdrawal limits in centavos. */
    limits: text('limits', { mode: 'json' }).$type<ClientLimits>().notNull(),
    approvalThresholdCents: integer('approval_threshold_cents'),
    blockedPayerDocuments: text('blocked_payer_documents', { mode: 'json' }).$type<string[]>().notNull(),
    /** Whose payments the client takes (domain/payer-rules.ts): ANY, or DECLARED_PAYER only. */
    payerPolicy: text('payer_policy', { enum: PAYER_POLICIES }).notNull().default('ANY'),
    healthWebhookUrl: text('health_webhook_url'),
    /** Requests per second the client may make before 429 RATE_LIMITED; null = no limit. */
    rateLimitPerSecond: integer('rate_limit_per_second'),
    /** Names the client in gateway-hosted charge locations (domain/location.ts); random, not its id. */
    // Nullable in SQLite (added by ALTER TABLE, backfilled in the same migration); every row has one.
    locationKey: text('location_key').unique('clients_location_key_idx'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    // The operator console pages through clients newest first.
    index('clients_created_idx').on(t.createdAt, t.id),
    // Incident fan-out reads only the clients that have a health webhook.
    index('clients_health_webhook_idx').on(t.id).where(sql`${t.healthWebhookUrl} IS NOT NULL`),
  ],
);

export const accounts = sqliteTable(
  'accounts',
  {
    number: text('number').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => clients.id),
    ispb: text('ispb').notNull(),
    branch: text('branch').notNull(),
    type: text('type', { enum: ['TRANSACTIONAL', 'PROPRIETARY'] }).notNull(),
  },
  (t) => [
    index('accounts_client_idx').on(t.clientId),
    // The clients at one partner (the daily reconciliation's fan-out).
    index('accounts_ispb_client_idx').on(t.ispb, t.clientId),
  ],
);

export const partnerFaults = sqliteTable('partner_faults', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  ispb: text('ispb').notNull(),
  operation: text('operation', { enum: ['CASH_IN', 'CASH_OUT'] }).notNull(),
  failureRate: integer('failure_rate_ppm').notNull(),
  failureCode: text('failure_code'),
  latencyMs: integer('latency_ms').notNull(),
  startsAt: integer('starts_at').notNull(),
  endsAt: integer('ends_at').notNull(),
});

/**
 * The sandbox partners' own books: every transfer they were asked to make, keyed by the
 * partner-side idempotency id. A second request with the same id gets the first one back, as a
 * real bank's idempotent API would; tests read it to prove no payment reached a partner twice.
 */
export const sandboxTransfers = sqliteTable(
  'sandbox_transfers',
  {
    ispb: text('ispb').notNull(),
    idempotencyId: text('idempotency_id').notNull(),
    kind: text('kind', { enum: ['PAYMENT', 'DEVOLUTION'] }).notNull(),
    amount: integer('amount').notNull(),
    requests: integer('requests').notNull().default(1),
    outcome: text('outcome', { enum: ['SETTLED', 'FAILED'] }).notNull(),
    failureCode: text('failure_code'),
    endToEndId: text('end_to_end_id'),
    /** JSON {ispb, branch, account} of the receiving account a payment reached. */
    payeeBank: text('payee_bank', { mode: 'json' }).$type<{
      ispb: string;
      branch: string;
      account: string;
    }>(),
    createdAt: integer('created_at').notNull(),
    settlesAt: integer('settles_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ispb, t.idempotencyId] })],
);

/**
 * Where the reconciliation sweep stands in each real partner's list of received Pix (`GET /pix`):
 * the window [windowFrom, windowTo) being read and its next page; `page` -1 means the window was
 * read to the end. One row per partner.
 */
export const partnerPixCursors = sqliteTable('partner_pix_cursors', {
  ispb: text('ispb').primaryKey(),
  windowFrom: integer('window_from').notNull(),
  windowTo: integer('window_to').notNull(),
  page: integer('page').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * PIX health incidents as the engine last published them: the public incident object, plus the
 * internal scope (clients with affected traffic) that decides who may see institution and cohort
 * incidents. Written only by the HealthAnalyzer Durable Object.
 */
export const healthIncidents = sqliteTable(
  'health_incidents',
  {
    id: text('id').primaryKey(),
    originType: text('origin_type').notNull(),
    originId: text('origin_id').notNull(),
    operation: text('operation').notNull(),
    status: text('status').notNull(),
    incident: text('incident', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    affectedClientIds: text('affected_client_ids', { mode: 'json' }).$type<string[]>().notNull(),
    startedAt: integer('started_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('health_incidents_started_idx').on(t.startedAt),
    index('health_incidents_status_idx').on(t.status),
    // Incidents that ended inside a window are found by their last change, not by a full scan.
    index('health_incidents_updated_idx').on(t.updatedAt),
  ],
);

/**
 * Evidence items of an incident (OpenAPI getPixIncident), oldest first by `seq`; never raw platform volumes.
 */
export const healthEvidence = sqliteTable(
  'health_evidence',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    incidentId: text('incident_id').notNull(),
    item: text('item', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('health_evidence_incident_idx').on(t.incidentId, t.seq)],
);

/** Engine facts the API needs: when the first picture was produced (204 before it). */
export const healthState = sqliteTable('health_state', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).notNull(),
});

/**
 * Unapplied receipts (docs/contract.md, Unapplied receipts) as the operator lists them. `heldBy`
 * 'partner': money no client can be named for; this row is its store and its suspense account, and
 * `nextAt` is when the cron takes its return a step further. 'client': a copy its ClientLedger keeps
 * current (the ledger holds the money).
 */
export const unappliedReceipts = sqliteTable(
  'unapplied_receipts',
  {
    endToEndId: text('end_to_end_id').primaryKey(),
    id: text('id').notNull(),
    ispb: text('ispb').notNull(),
    txid: text('txid'),
    clientId: text('client_id'),
    heldBy: text('held_by', { enum: ['partner', 'client'] }).notNull(),
    amount: integer('amount').notNull(),
    receivedAt: integer('received_at').notNull(),
    reason: text('reason', { enum: UNAPPLIED_REASONS }).notNull(),
    returnId: text('return_id').notNull(),
    stage: text('stage', { enum: RETURN_STAGES }).notNull(),
    returnEndToEndId: text('return_end_to_end_id'),
    returnedAt: integer('returned_at'),
    failure: text('failure'),
    nextAt: integer('next_at'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('unapplied_receipts_id_idx').on(t.id),
    index('unapplied_receipts_received_idx').on(t.receivedAt),
    index('unapplied_receipts_next_idx').on(t.nextAt).where(sql`${t.nextAt} IS NOT NULL`),
  ],
);

/** One daily reconciliation report per partner and America/Sao_Paulo day (JSON as served). */
export const reconciliationReports = sqliteTable(
  'reconciliation_reports',
  {
    date: text('date').notNull(),
    ispb: text('ispb').notNull(),
    status: text('status', { enum: ['MATCHED', 'BREAKS', 'PENDING'] }).notNull(),
    checkedAt: integer('checked_at').notNull(),
    report: text('report', { mode: 'json' }).notNull(),
    /** When the operator alert for its breaks was delivered (null: none due, or not yet). */
    alertedAt: integer('alerted_at'),
  },
  (t) => [primaryKey({ columns: [t.date, t.ispb] })],
);

/**
 * The people who run the gateway (docs/contract.md, Operators and the audit trail). The token is
 * kept as its SHA-256 digest only (it is 256 random bits, so a fast digest is safe); removing an
 * operator deletes its row, so its token finds nothing on the very next request.
 */
export const operators = sqliteTable('operators', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique('operators_email_idx'),
  role: text('role', { enum: ['VIEWER', 'OPERATOR', 'ADMIN'] }).notNull(),
  tokenHash: text('token_hash').notNull().unique('operators_token_hash_idx'),
  createdAt: integer('created_at').notNull(),
});

/**
 * The audit trail: one record per changing operator request and per request refused for its role,
 * append-only (triggers refuse UPDATE and DELETE), kept at least 5 years. `seq` orders the trail.
 */
export const auditRecords = sqliteTable(
  'audit_records',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique('audit_records_id_idx'),
    at: integer('at').notNull(),
    actorKind: text('actor_kind', { enum: ['ADMIN_TOKEN', 'OPERATOR', 'ACCESS'] }).notNull(),
    operatorId: text('operator_id'),
    email: text('email'),
    action: text('action').notNull(),
    target: text('target').notNull(),
    before: text('before', { mode: 'json' }),
    after: text('after', { mode: 'json' }),
    result: text('result').notNull(),
    requestId: text('request_id').notNull(),
  },
  (t) => [
    index('audit_records_at_idx').on(t.at, t.seq),
    index('audit_records_operator_idx').on(t.operatorId, t.seq),
    index('audit_records_email_idx').on(t.email, t.seq),
    index('audit_records_action_idx').on(t.action, t.seq),
  ],
);

/**
 * Which client a real partner's Pix Automático recurrence belongs to: the partner names it by its
 * own `idRec` only (the `rec` callbacks), so the id is recorded when the partner answers it.
 */
export const partnerRecurrences = sqliteTable('partner_recurrences', {
  idRec: text('id_rec').primaryKey(),
  ispb: text('ispb').notNull(),
  clientId: text('client_id').notNull(),
  createdAt: integer('created_at').notNull(),
});
