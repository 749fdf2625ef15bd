/**
 * Events and health observations leave through the outbox, written in the caller's transaction so
 * a state change and its event can never be separated; a flush task hands observations to their
 * queue, the dispatch task hands webhook events to delivery.
 */
import { eventIdSuffix } from '../../../src/domain/ids';
import { sqlOf } from '../db';
import type { LedgerContext } from '../ledger-context';
import {
  deleteEvents,
  insertOutbox as insertOutboxRow,
  insertOutboxRows,
  type OutboxInsert,
  unpublishedObservationRows,
} from './outbox-store';

export interface WebhookEvent {
  aggregateId: string;
  eventType: string;
  data: unknown;
  webhookUrl: string | null;
  at: number;
}

/** Health observation (docs/contract.md, PIX health) (the `at` instant in ms; serialized as ISO UTC). */
export interface ObservationInput {
  operation: 'CASH_IN' | 'CASH_OUT';
  partnerIspb: string;
  institutionIspb?: string | null;
  event: 'CREATED' | 'SETTLED' | 'FAILED' | 'EXPIRED' | 'RETURNED';
  failureCode?: string;
  latencyMs?: number;
  at: number;
}

function insertOutbox(ledger: LedgerContext, row: Parameters<typeof insertOutboxRow>[1]): void {
  insertOutboxRow(ledger.db, row);
}

/**
 * How long the outbox work of a new Cash-In may wait for the next ones: under load, one alarm run
 * dispatches and flushes every Cash-In of that window, instead of a run (a dozen statements: the
 * due query, adoption, the flush, the re-arm) for every few. Its webhook leaves at most this much
 * later; the task is only ever moved earlier (Scheduler.scheduleAll), so load never postpones it.
 */
export const OUTBOX_COALESCE_MS = 50;

/** `schedule: false`: a caller writing many events schedules the dispatch once itself, after its last one. */
export function emitWebhook(ledger: LedgerContext, event: WebhookEvent, schedule = true): void {
  insertOutbox(ledger, webhookRow(event));
  // The delivery pipeline (webhook-deliveries.ts) adopts it and sends it when its turn comes.
  if (schedule) ledger.scheduler.schedule('dispatch-webhooks', 'all', event.at);
}

export function observe(
  ledger: LedgerContext,
  aggregateId: string,
  input: ObservationInput,
  schedule = true,
): void {
  insertOutbox(ledger, observationRow(ledger, aggregateId, input));
  if (schedule) ledger.scheduler.schedule('flush-outbox', 'all', input.at);
}

/**
 * A transition's webhook event and its health observation in one outbox statement (a new Cash-In
 * writes both on every POST). Scheduling their dispatch and flush is the caller's.
 */
export function emitWithObservation(
  ledger: LedgerContext,
  event: WebhookEvent,
  aggregateId: string,
  input: ObservationInput,
): void {
  insertOutboxRows(sqlOf(ledger.db), [webhookRow(event), observationRow(ledger, aggregateId, input)]);
}

function webhookRow(event: WebhookEvent): OutboxInsert {
  return {
    eventSuffix: eventIdSuffix(),
    channel: 'webhook',
    aggregateId: event.aggregateId,
    eventType: event.eventType,
    data: event.data,
    webhookUrl: event.webhookUrl,
    occurredAt: event.at,
  };
}

/** The observation as the analyzer reads it. */
function observationOf(ledger: LedgerContext, input: ObservationInput) {
  return {
    at: new Date(input.at).toISOString(),
    clientId: ledger.profile.clientId,
    operation: input.operation,
    partnerIspb: input.partnerIspb,
    ...(input.institutionIspb ? { institutionIspb: input.institutionIspb } : {}),
    event: input.event,
    ...(input.failureCode !== undefined && { failureCode: input.failureCode }),
    ...(input.latencyMs !== undefined && { latencyMs: input.latencyMs }),
  };
}

function observationRow(ledger: LedgerContext, aggregateId: string, input: ObservationInput): OutboxInsert {
  return {
    eventSuffix: eventIdSuffix(),
    channel: 'health',
    aggregateId,
    eventType: `OBSERVATION_${input.event}`,
    data: observationOf(ledger, input),
    webhookUrl: null,
    occurredAt: input.at,
  };
}

/**
 * Events and observations of many operations written in one statement when the transaction's work
 * is done (`flush`, inside the same transaction): the same rows, ids and order as emitWebhook and
 * observe would write one by one, for one per-statement cost per flush instead of one per row.
 * The caller schedules the dispatch and the flush (once) itself.
 */
export class OutboxBuffer {
  private rows: OutboxInsert[] = [];
  private observations: { aggregateId: string; input: ObservationInput }[] = [];

  constructor(private readonly ledger: LedgerContext) {}

  webhook(event: WebhookEvent): void {
    this.rows.push(webhookRow(event));
  }

  observe(aggregateId: string, input: ObservationInput): void {
    this.observations.push({ aggregateId, input });
  }

  /**
   * The events, then the observations: one row when there is one, else all of them as one row
   * (OBSERVATIONS, the list as its data) that the flush hands to the queue as one message each.
   */
  flush(): void {
    const [one, ...more] = this.observations;
    if (one && more.length === 0) this.rows.push(observationRow(this.ledger, one.aggregateId, one.input));
    else if (one)
      this.rows.push({
        eventSuffix: eventIdSuffix(),
        channel: 'health',
        aggregateId: one.aggregateId,
        eventType: OBSERVATIONS,
        data: this.observations.map((o) => observationOf(this.ledger, o.input)),
        webhookUrl: null,
        occurredAt: one.input.at,
      });
    insertOutboxRows(sqlOf(this.ledger.db), this.rows);
    this.rows = [];
    this.observations = [];
  }
}

/** The event type of an outbox row holding many observations (OutboxBuffer). */
const OBSERVATIONS = 'OBSERVATIONS';

/**
 * The oldest health observation rows not yet handed to their queue, at most `limit`, each with its
 * queue messages: one per observation, its id the row's event id (`.index` within a row of many,
 * the same at every re-send, so the analyzer drops a duplicate). Fixed statements on the SQL API:
 * every observation passes here, and drizzle's building cost more than SQLite.
 */
export function unpublishedObservations(
  ledger: LedgerContext,
  limit: number,
): { seq: number; messages: ({ id: string } & Record<string, unknown>)[] }[] {
  return unpublishedObservationRows(sqlOf(ledger.db), limit).map((r) => {
    const data = JSON.parse(r.data) as Record<string, unknown> | Record<string, unknown>[];
    return {
      seq: r.seq,
      messages: Array.isArray(data)
        ? data.map((d, i) => ({ id: `${r.event_id}.${i}`, ...d }))
        : [{ id: r.event_id, ...data }],
    };
  });
}

/**
 * Observations the queue took leave at once: waiting out an hour they were a quarter of a busy
 * object's bytes (docs/storage-schema.md, Growth). A crash between send and delete re-sends them; the
 * analyzer drops an id it has seen.
 */
export function dropPublished(ledger: LedgerContext, seqs: number[]): void {
  deleteEvents(sqlOf(ledger.db), JSON.stringify(seqs));
}
