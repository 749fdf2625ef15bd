/**
 * Events and health observations leave through the outbox, written in the caller's transaction so
 * a state change and its event can never be separated; a flush task hands observations to their
 * queue, the dispatch task hands webhook events to delivery.
 */
import { eventIdSuffix } from '../../../src/domain/ids';
import type { LedgerContext } from '../context';
import { sqlOf } from '../db';
import {
  deleteEvents,
  insertOutbox as insertOutboxRow,
  insertOutboxRows,
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

function insertOutbox(ctx: LedgerContext, row: Parameters<typeof insertOutboxRow>[1]): void {
  insertOutboxRow(ctx.db, row);
}

/**
 * How long the outbox work of a new Cash-In may wait for the next ones: under load, one alarm run
 * dispatches and flushes every Cash-In of that window, instead of a run (a dozen statements: the
 * due query, adoption, the flush, the re-arm) for every few. Its webhook leaves at most this much
 * later; the task is only ever moved earlier (Scheduler.scheduleAll), so load never postpones it.
 */
export const OUTBOX_COALESCE_MS = 50;

/** `schedule: false`: a batch schedules the dispatch once itself, after its last event. */
export function emitWebhook(ctx: LedgerContext, event: WebhookEvent, schedule = true): void {
  insertOutbox(ctx, webhookRow(event));
  // The delivery pipeline (webhook-deliveries.ts) adopts it and sends it when its turn comes.
  if (schedule) ctx.scheduler.schedule('dispatch-webhooks', 'all', event.at);
}

export function observe(
  ctx: LedgerContext,
  aggregateId: string,
  input: ObservationInput,
  schedule = true,
): void {
  insertOutbox(ctx, observationRow(ctx, aggregateId, input));
  if (schedule) ctx.scheduler.schedule('flush-outbox', 'all', input.at);
}

/**
 * A transition's webhook event and its health observation in one outbox statement (a new Cash-In
 * writes both on every POST). Scheduling their dispatch and flush is the caller's.
 */
export function emitWithObservation(
  ctx: LedgerContext,
  event: WebhookEvent,
  aggregateId: string,
  input: ObservationInput,
): void {
  insertOutboxRows(sqlOf(ctx.db), [webhookRow(event), observationRow(ctx, aggregateId, input)]);
}

function webhookRow(event: WebhookEvent) {
  return {
    eventSuffix: eventIdSuffix(),
    channel: 'webhook' as const,
    aggregateId: event.aggregateId,
    eventType: event.eventType,
    data: event.data,
    webhookUrl: event.webhookUrl,
    occurredAt: event.at,
  };
}

function observationRow(ctx: LedgerContext, aggregateId: string, input: ObservationInput) {
  const observation = {
    at: new Date(input.at).toISOString(),
    clientId: ctx.profile.clientId,
    operation: input.operation,
    partnerIspb: input.partnerIspb,
    ...(input.institutionIspb ? { institutionIspb: input.institutionIspb } : {}),
    event: input.event,
    ...(input.failureCode !== undefined && { failureCode: input.failureCode }),
    ...(input.latencyMs !== undefined && { latencyMs: input.latencyMs }),
  };
  return {
    eventSuffix: eventIdSuffix(),
    channel: 'health' as const,
    aggregateId,
    eventType: `OBSERVATION_${input.event}`,
    data: observation,
    webhookUrl: null,
    occurredAt: input.at,
  };
}

/**
 * The oldest health observations not yet handed to their queue, at most `limit`. Fixed statements
 * on the SQL API: every observation passes here, and drizzle's building cost more than SQLite.
 */
export function unpublishedObservations(
  ctx: LedgerContext,
  limit: number,
): { seq: number; eventId: string; data: unknown }[] {
  return unpublishedObservationRows(sqlOf(ctx.db), limit).map((r) => ({
    seq: r.seq,
    eventId: r.event_id,
    data: JSON.parse(r.data),
  }));
}

/**
 * Observations the queue took leave at once: waiting out an hour they were a quarter of a busy
 * object's bytes (docs/storage-schema.md, Growth). A crash between send and delete re-sends them; the
 * analyzer drops an id it has seen.
 */
export function dropPublished(ctx: LedgerContext, seqs: number[]): void {
  deleteEvents(sqlOf(ctx.db), JSON.stringify(seqs));
}
