/**
 * The outbox store: every statement on `outbox` (events and health observations waiting to leave)
 * and `webhook_deliveries` (one row per webhook event, its schedule and outcome). Drizzle for
 * ordinary statements; fixed texts on the SQL API where every event passes (adoption, observations).
 * Runs inside the caller's storage transaction.
 */
import { and, asc, desc, eq, inArray, isNotNull, lt, lte, min, type SQL, sql } from 'drizzle-orm';
import { eventSeqOf } from '../../../src/domain/ids';
import type { DeliveryStatus } from '../../../src/domain/webhook-delivery';
import type { ArchivableTable } from '../archivable';
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

/** An outbox row as an operation writes it: its seq and the event id carrying it are the store's. */
export type OutboxInsert = Required<Omit<OutboxRow, 'seq' | 'publishedAt' | 'eventId'>> & {
  eventSuffix: string;
};

/**
 * Many events in one statement, in the order given (a transition's webhook event and observation;
 * a Cash-Out pass's events): each gets AUTOINCREMENT's counter plus its place, and the id that
 * carries it, exactly as insertOutbox would give them one by one. SQLite writes the counter back
 * once the statement ends, so every row reads the same counter. The rows travel as one JSON array
 * (json_each), so their number is not bound by a query's 100 values.
 */
export function insertOutboxRows(sql: SqlStorage, rows: readonly OutboxInsert[]): void {
  if (rows.length === 0) return;
  sql.exec(
    `INSERT INTO outbox (seq, event_id, channel, aggregate_id, event_type, data, webhook_url, occurred_at)
     SELECT s.first + key, 'evt_' || (s.first + key) || (value ->> '$[0]'), value ->> '$[1]',
       value ->> '$[2]', value ->> '$[3]', value ->> '$[4]', value ->> '$[5]', value ->> '$[6]'
     FROM (SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0) + 1 AS first) AS s,
       json_each(?) ORDER BY key`,
    JSON.stringify(
      rows.map((r) => [
        r.eventSuffix,
        r.channel,
        r.aggregateId,
        r.eventType,
        JSON.stringify(r.data),
        r.webhookUrl,
        r.occurredAt,
      ]),
    ),
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

/**
 * A delivery just given up takes its event's payload onto its row and the outbox row goes: the row
 * alone then goes to the archive and comes back for a retry (archive/archive-deliveries.ts).
 */
export function keepPayloadOnRow(sqlApi: SqlStorage, seq: number): void {
  sqlApi.exec(
    'UPDATE webhook_deliveries SET payload = (SELECT data FROM outbox WHERE seq = ?) WHERE seq = ? AND payload IS NULL',
    seq,
    seq,
  );
  sqlApi.exec('DELETE FROM outbox WHERE seq = ?', seq);
}

/** Whether the delivery of this seq is hot (one primary-key probe). */
export function deliveryIsHot(db: LedgerDb, seq: number): boolean {
  return (
    db.select({ seq: deliveries.seq }).from(deliveries).where(eq(deliveries.seq, seq)).get() !== undefined
  );
}

/** An archived delivery back hot, exactly as it was written (its seq and payload included). */
export function insertDeliveryRow(db: LedgerDb, row: DeliveryRow): void {
  db.insert(deliveries).values(row).onConflictDoNothing().run();
}

export interface DeliveryListInput {
  status?: DeliveryStatus;
  aggregateId?: string;
  limit: number;
  /** Continue below this seq (the previous page's cursor). */
  before?: number;
}

/**
 * The deliveries of one aggregate through webhook_deliveries_aggregate_idx (its last 8 characters,
 * then the whole id). The unary + keeps SQLite from rewriting the prefix into a constant (it
 * propagates `aggregate_id = ?` into the expression, which then no longer matches the index).
 */
export const aggregateIs = (id: string): SQL =>
  sql`substr(${deliveries.aggregateId}, -8) = substr(${id}, -8) AND +${deliveries.aggregateId} = ${id}`;

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

/**
 * Ended: no attempt is due. DELIVERED and UNDELIVERABLE are never sent again; GIVEN_UP waits only for
 * an operator's retry, which reads it back from the archive (archive/archive-deliveries.ts), payload
 * and all (keepPayloadOnRow).
 */
const ENDED = ['DELIVERED', 'UNDELIVERABLE', 'GIVEN_UP'] as const;

/** Ended deliveries as the archive moves them (archivable.ts), by when they ended. */
export const endedDeliveryArchive: ArchivableTable = {
  table: deliveries,
  // When it ended: the operator window (7 days) counts from there (archive/archive-deliveries.ts).
  time: deliveries.updatedAt,
  seq: deliveries.seq,
  eligible: () => inArray(deliveries.status, [...ENDED]) as SQL,
};

/** The ended deliveries of one aggregate, by seq (one index range). */
export function endedDeliveriesOf(db: LedgerDb, aggregateId: string): DeliveryRow[] {
  return db
    .select()
    .from(deliveries)
    .where(and(aggregateIs(aggregateId), inArray(deliveries.status, [...ENDED])))
    .orderBy(deliveries.seq)
    .all();
}

/** Whether the aggregate has an ended delivery (one index probe). */
export function hasEndedDelivery(sqlApi: SqlStorage, aggregateId: string): boolean {
  return (
    sqlApi
      .exec(
        `SELECT 1 FROM webhook_deliveries WHERE substr(aggregate_id, -8) = substr(?, -8)
         AND +aggregate_id = ? AND status IN ('DELIVERED', 'UNDELIVERABLE', 'GIVEN_UP') LIMIT 1`,
        aggregateId,
        aggregateId,
      )
      .toArray().length > 0
  );
}

/**
 * The transactions of the oldest ended (DELIVERED, UNDELIVERABLE, GIVEN_UP) deliveries, by the finished index:
 * over its size budget the object sends them to the archive before their transaction goes.
 */
export function oldestEndedAggregates(sqlApi: SqlStorage, limit: number): string[] {
  const ids = new Set<string>();
  for (const status of ENDED)
    for (const row of sqlApi
      .exec<{ id: string }>(
        'SELECT aggregate_id AS id FROM webhook_deliveries WHERE status = ? ORDER BY updated_at LIMIT ?',
        status,
        limit,
      )
      .toArray())
      ids.add(row.id);
  return [...ids];
}

export type OutboxEventRow = typeof outbox.$inferSelect;

/** Every row, oldest first: what the tests assert on (test/support/ledger-reads.ts), read here so the table keeps one home. */
export function allOutbox(db: LedgerDb): OutboxEventRow[] {
  return db.select().from(outbox).orderBy(outbox.seq).all();
}

/** Every delivery, in outbox order (test/support/ledger-reads.ts). */
export function allDeliveries(db: LedgerDb): DeliveryRow[] {
  return db.select().from(deliveries).orderBy(deliveries.seq).all();
}

/**
 * Transactions to park (delivery-parking.ts), earliest next attempt first: their head (oldest open
 * delivery) is FAILED and not due before `dueFrom`, and none of their deliveries is IN_FLIGHT.
 * Both look-ups per row read webhook_deliveries_open_idx.
 */
export function parkCandidates(sqlApi: SqlStorage, dueFrom: number, limit: number) {
  return sqlApi
    .exec<{ id: string; due: number }>(
      `SELECT d.aggregate_id AS id, d.due_at AS due FROM webhook_deliveries d
       WHERE d.status = 'FAILED' AND d.due_at >= ?
         AND d.seq = (SELECT min(o.seq) FROM webhook_deliveries o WHERE o.aggregate_id = d.aggregate_id AND o.due_at IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o WHERE o.aggregate_id = d.aggregate_id
           AND o.due_at IS NOT NULL AND o.status = 'IN_FLIGHT')
       ORDER BY d.due_at LIMIT ?`,
      dueFrom,
      limit,
    )
    .toArray();
}

/** The open deliveries of one aggregate, by seq, each with its payload (on its row, else its event's). */
export function openDeliveriesOf(db: LedgerDb, aggregateId: string): DeliveryRow[] {
  const rows = db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.aggregateId, aggregateId), isNotNull(deliveries.dueAt)))
    .orderBy(deliveries.seq)
    .all();
  return rows.map((row) => ({ ...row, payload: row.payload ?? eventData(db, row.seq)?.data ?? null }));
}

/**
 * Events of `aggregateId` waiting behind its head whose due time was moved past `now` while the head
 * was parked (delivery-parking.ts) are due again from `now`, as they were before.
 */
export function undeferWaiting(sqlApi: SqlStorage, aggregateId: string, now: number): void {
  sqlApi.exec(
    `UPDATE webhook_deliveries SET due_at = ? WHERE aggregate_id = ? AND due_at > ? AND status = 'PENDING' AND attempts = 0`,
    now,
    aggregateId,
    now,
  );
}

/** Deletes the deliveries of `seqsJson` (a JSON array) with their events. */
export function deleteDeliveriesBySeq(sqlApi: SqlStorage, seqsJson: string): void {
  sqlApi.exec('DELETE FROM outbox WHERE seq IN (SELECT value FROM json_each(?))', seqsJson);
  sqlApi.exec('DELETE FROM webhook_deliveries WHERE seq IN (SELECT value FROM json_each(?))', seqsJson);
}
