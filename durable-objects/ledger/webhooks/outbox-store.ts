/**
 * The outbox store: every statement on `outbox` (events and health observations waiting to leave)
 * and `webhook_deliveries` (one row per webhook event, its schedule and outcome). Drizzle for
 * ordinary statements; fixed texts on the SQL API where every event passes (adoption, observations).
 * Runs inside the caller's storage transaction.
 */
import { and, asc, desc, eq, inArray, isNotNull, lt, lte, min, type SQL, sql } from 'drizzle-orm';
import { eventSeqOf } from '../../../src/domain/ids';
import type { DeliveryStatus } from '../../../src/domain/webhook-delivery';
import { aggregateIs } from '../archive/archive-delivery-queue';
import type { LedgerDb } from '../db';
import { ph, prepared } from '../prepared';
import { webhookDeliveries as deliveries, legacyEventId, outbox } from '../schema';

export type DeliveryRow = typeof deliveries.$inferSelect;
type OutboxRow = typeof outbox.$inferInsert;

/** The seq the next outbox row gets: AUTOINCREMENT's own counter (never reused), read in the insert. */
const NEXT_SEQ = sql`(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0) + 1)`;

/** Inserts an event; its id carries the seq it gets (ids.ts), so both are set in the one statement. */
export function insertOutbox(
  db: LedgerDb,
  row: Required<Omit<OutboxRow, 'seq' | 'publishedAt' | 'eventId'>> & { eventSuffix: string },
): void {
  prepared(db, 'outbox.insert', () =>
    db
      .insert(outbox)
      .values({
        seq: NEXT_SEQ,
        eventId: sql`'evt_' || ${NEXT_SEQ} || ${ph('eventSuffix')}`,
        channel: ph('channel'),
        aggregateId: ph('aggregateId'),
        eventType: ph('eventType'),
        data: ph('data'),
        webhookUrl: ph('webhookUrl'),
        occurredAt: ph('occurredAt'),
      })
      .prepare(),
  ).run(row);
}

/** An outbox row as a batch writes it (outbox-batch.ts): `data` already JSON text. */
export type OutboxBatchRow = [
  eventSuffix: string,
  channel: 'webhook' | 'health',
  aggregateId: string,
  eventType: string,
  data: string,
  webhookUrl: string | null,
  occurredAt: number,
];

/**
 * Many events in one statement, in the order given: each gets the next seq of AUTOINCREMENT's own
 * counter (read once here) and the id that carries it, exactly as insertOutbox would give them one
 * by one. Runs inside the caller's transaction (nothing else inserts meanwhile).
 */
export function insertOutboxRows(sql: SqlStorage, rows: readonly OutboxBatchRow[]): void {
  if (rows.length === 0) return;
  const last = sql
    .exec<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'")
    .toArray()[0];
  const first = (last?.seq ?? 0) + 1;
  sql.exec(
    `INSERT INTO outbox (seq, event_id, channel, aggregate_id, event_type, data, webhook_url, occurred_at)
     SELECT s.first + key, 'evt_' || (s.first + key) || (value ->> '$[0]'), value ->> '$[1]',
       value ->> '$[2]', value ->> '$[3]', value ->> '$[4]', value ->> '$[5]', value ->> '$[6]'
     FROM (SELECT CAST(? AS INTEGER) AS first) AS s, json_each(?) ORDER BY key`,
    first,
    JSON.stringify(rows),
  );
}

/** The oldest health observations not yet handed to their queue, at most `limit`. */
export function unpublishedObservationRows(sql: SqlStorage, limit: number) {
  return sql
    .exec<{ seq: number; event_id: string; data: string }>(
      `SELECT seq, event_id, data FROM outbox WHERE channel = 'health' AND published_at IS NULL
       ORDER BY seq LIMIT ?`,
      limit,
    )
    .toArray();
}

/** Deletes the outbox rows whose seqs `seqsJson` lists (a JSON array). */
export function deleteEvents(sql: SqlStorage, seqsJson: string): void {
  sql.exec('DELETE FROM outbox WHERE seq IN (SELECT value FROM json_each(?))', seqsJson);
}

/** Marks the outbox rows whose seqs `seqsJson` lists as published at `now`. */
export function markPublished(sql: SqlStorage, seqsJson: string, now: number): void {
  sql.exec('UPDATE outbox SET published_at = ? WHERE seq IN (SELECT value FROM json_each(?))', now, seqsJson);
}

/** `webhook` events not yet adopted by a delivery, oldest first. */
export function newWebhookEvents(sql: SqlStorage, limit: number) {
  return sql
    .exec<{
      seq: number;
      event_id: string;
      aggregate_id: string;
      event_type: string;
      url: string | null;
      at: number;
    }>(
      `SELECT seq, event_id, aggregate_id, event_type, webhook_url AS url, occurred_at AS at FROM outbox
       WHERE channel = 'webhook' AND published_at IS NULL ORDER BY seq LIMIT ?`,
      limit,
    )
    .toArray();
}

/**
 * New deliveries in one statement (none for an event that has one already), updated at `now`:
 * each [eventId, seq, aggregateId, eventType, url, status, dueAt, createdAt]. No last_error: a
 * missing URL is told by the view (NO_URL), not stored in every row.
 */
export function insertDeliveries(
  sql: SqlStorage,
  rows: readonly [string, number, string, string, string | null, DeliveryStatus, number | null, number][],
  now: number,
): void {
  sql.exec(
    `INSERT INTO webhook_deliveries (event_id, seq, aggregate_id, event_type, url, status, due_at,
       last_error, created_at, updated_at)
     SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', value ->> '$[3]', value ->> '$[4]',
       value ->> '$[5]', value ->> '$[6]', NULL, value ->> '$[7]', ?
     FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`,
    now,
    JSON.stringify(rows),
  );
}

/** The oldest open delivery of every aggregate. */
function headSeqs(db: LedgerDb) {
  return db
    .select({ seq: min(deliveries.seq) })
    .from(deliveries)
    .where(isNotNull(deliveries.dueAt))
    .groupBy(deliveries.aggregateId);
}

/** The head deliveries due by `now`, earliest first, at most `limit`. */
export function dueHeads(db: LedgerDb, now: number, limit: number): DeliveryRow[] {
  return db
    .select()
    .from(deliveries)
    .where(and(inArray(deliveries.seq, headSeqs(db)), lte(deliveries.dueAt, now)))
    .orderBy(asc(deliveries.dueAt))
    .limit(limit)
    .all();
}

/** The earliest due head, if any. */
export function nextHeadDueAt(db: LedgerDb): number | undefined {
  const row = db
    .select({ at: min(deliveries.dueAt) })
    .from(deliveries)
    .where(inArray(deliveries.seq, headSeqs(db)))
    .get();
  return row?.at ?? undefined;
}

export function updateDelivery(db: LedgerDb, seq: number, changes: Partial<DeliveryRow>): void {
  db.update(deliveries).set(changes).where(eq(deliveries.seq, seq)).run();
}

export function updateDeliveryReturning(
  db: LedgerDb,
  seq: number,
  changes: Partial<DeliveryRow>,
): DeliveryRow {
  return db.update(deliveries).set(changes).where(eq(deliveries.seq, seq)).returning().get() as DeliveryRow;
}

/** A delivery by its event id: through the seq the id carries, or the index of older ids. */
export function findDelivery(db: LedgerDb, eventId: string): DeliveryRow | undefined {
  const seq = eventSeqOf(eventId);
  const where =
    seq === undefined
      ? and(eq(deliveries.eventId, eventId), legacyEventId(deliveries.eventId))
      : and(eq(deliveries.seq, seq), eq(deliveries.eventId, eventId));
  return db.select().from(deliveries).where(where).get();
}

/** An event's payload, while it is kept. */
export function eventData(db: LedgerDb, seq: number): { data: unknown } | undefined {
  return db.select({ data: outbox.data }).from(outbox).where(eq(outbox.seq, seq)).get();
}

export function deleteEvent(db: LedgerDb, seq: number): void {
  db.delete(outbox).where(eq(outbox.seq, seq)).run();
}

export interface DeliveryListInput {
  status?: DeliveryStatus;
  aggregateId?: string;
  limit: number;
  /** Continue below this seq (the previous page's cursor). */
  before?: number;
}

/** The hot rows of a page, newest first: limit + 1 of them (one more tells a next page exists). */
export function deliveryRows(db: LedgerDb, input: DeliveryListInput): DeliveryRow[] {
  return db
    .select()
    .from(deliveries)
    .where(
      and(
        input.status !== undefined ? eq(deliveries.status, input.status) : undefined,
        input.aggregateId !== undefined ? aggregateIs(input.aggregateId) : undefined,
        input.before !== undefined ? lt(deliveries.seq, input.before) : undefined,
      ),
    )
    .orderBy(desc(deliveries.seq))
    .limit(input.limit + 1)
    .all();
}

/** Ended deliveries of one final status updated before `before`, oldest first (webhook_deliveries_finished_idx). */
export function endedDeliveries(status: DeliveryStatus, before: number, limit: number): SQL {
  return sql`SELECT seq FROM webhook_deliveries WHERE status = ${status}
        AND updated_at < ${before} ORDER BY updated_at LIMIT ${limit}`;
}

/** Deletes the deliveries `ended` selects, with their events; returns how many deliveries left. */
export function deleteDeliveries(db: LedgerDb, ended: SQL): number {
  db.run(sql`DELETE FROM outbox WHERE seq IN (${ended})`);
  db.run(sql`DELETE FROM webhook_deliveries WHERE seq IN (${ended})`);
  return db.get<{ n: number }>(sql`SELECT changes() AS n`)?.n ?? 0;
}

/** When the oldest delivery of a final status becomes `keepMs` old, if any. */
export function oldestEndedExpiry(status: DeliveryStatus, keepMs: number): SQL {
  return sql`SELECT updated_at + ${keepMs} AS at FROM webhook_deliveries
          WHERE status = ${status} ORDER BY updated_at LIMIT 1`;
}
