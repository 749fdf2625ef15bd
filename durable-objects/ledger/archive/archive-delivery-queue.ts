/**
 * Which transactions may have ended webhook deliveries to archive (archive_delivery_queue): every
 * Cash-In and Cash-Out archived is queued in the transaction that archives it, and so is one whose
 * delivery ends (DELIVERED, UNDELIVERABLE) after it was archived. The delivery source
 * (archive-deliveries.ts) walks the queue and the deliveries' aggregate index, never the table.
 */
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { LedgerContext } from '../context';
import { archiveDeliveryQueue, webhookDeliveries as deliveries } from '../schema';
import { maybeArchived } from './archive-index';
import type { ArchiveSource } from './archive-sources';

/**
 * The deliveries of one aggregate through webhook_deliveries_aggregate_idx (its last 8 characters,
 * then the whole id). The unary + keeps SQLite from rewriting the prefix into a constant (it
 * propagates `aggregate_id = ?` into the expression, which then no longer matches the index).
 */
export const aggregateIs = (id: string): SQL =>
  sql`substr(${deliveries.aggregateId}, -8) = substr(${id}, -8) AND +${deliveries.aggregateId} = ${id}`;

/** Queues the archived transactions that have ended deliveries (one index probe each). */
export function enqueueAggregates(store: SqlStorage, aggregateIds: string[]): void {
  for (const id of aggregateIds)
    store.exec(
      `INSERT OR IGNORE INTO archive_delivery_queue (aggregate_id) SELECT ? WHERE EXISTS (
         SELECT 1 FROM webhook_deliveries WHERE substr(aggregate_id, -8) = substr(?, -8)
         AND +aggregate_id = ? AND status IN ('DELIVERED', 'UNDELIVERABLE'))`,
      id,
      id,
      id,
    );
}

/**
 * A delivery of `aggregateId` just ended: queued if its transaction is archived (not hot, and in the
 * id index). Hot is the common case and costs two unique-index probes.
 */
export function enqueueIfArchived(store: SqlStorage, aggregateId: string): void {
  const hot = store
    .exec(
      `SELECT 1 FROM cash_ins WHERE transaction_id = ? UNION ALL
       SELECT 1 FROM cash_outs WHERE transaction_id = ? LIMIT 1`,
      aggregateId,
      aggregateId,
    )
    .toArray();
  if (hot.length > 0) return;
  if (
    maybeArchived(store, aggregateId, 'cash-in', true) ||
    maybeArchived(store, aggregateId, 'cash-out', true)
  )
    store.exec('INSERT OR IGNORE INTO archive_delivery_queue (aggregate_id) VALUES (?)', aggregateId);
}

/** Ended for good: never sent again (the operator retry takes FAILED and GIVEN_UP only). */
const ENDED = ['DELIVERED', 'UNDELIVERABLE'] as const;
/** Queue entries looked at per step (a paid Cash-In has 2 deliveries; ARCHIVE_BATCH caps the rows). */
const QUEUE_STEP = 100;
const BATCH_ROWS = 200;
const QUEUE_PASSES = 10;

type Row = Record<string, unknown> & { seq: number };

function endedOf(ctx: LedgerContext, aggregateId: string): Row[] {
  return ctx.db
    .select()
    .from(deliveries)
    .where(and(aggregateIs(aggregateId), inArray(deliveries.status, [...ENDED])))
    .orderBy(deliveries.seq)
    .all() as Row[];
}

/**
 * The next batch: the ended deliveries of the first queued transactions, whole transactions at a
 * time (one index range each). An entry with none left goes at once: a later end queues it again.
 */
function queuedBatch(ctx: LedgerContext): Row[] {
  const rows: Row[] = [];
  // Entries with nothing left are dropped as they are met: at most QUEUE_PASSES chunks per call.
  for (let pass = 0; pass < QUEUE_PASSES && rows.length === 0; pass++) {
    const queued = ctx.db.select().from(archiveDeliveryQueue).limit(QUEUE_STEP).all();
    if (queued.length === 0) break;
    for (const { aggregateId } of queued) {
      const ended = endedOf(ctx, aggregateId);
      if (ended.length === 0) {
        ctx.db.delete(archiveDeliveryQueue).where(eq(archiveDeliveryQueue.aggregateId, aggregateId)).run();
        continue;
      }
      if (rows.length > 0 && rows.length + ended.length > BATCH_ROWS) break;
      rows.push(...ended);
    }
  }
  return rows.slice(0, BATCH_ROWS).sort((a, b) => a.seq - b.seq);
}

/**
 * In the transaction that deletes the rows: a transaction with no ended delivery left leaves the
 * queue. Their outbox payloads are gone already: they leave as a delivery ends DELIVERED or
 * UNDELIVERABLE (webhook-deliveries.ts recordAttempt, adoption without a URL).
 */
function removedDeliveries(ctx: LedgerContext, rows: Row[]): void {
  for (const id of new Set(rows.map((r) => r.aggregateId as string)))
    if (endedOf(ctx, id).length === 0)
      ctx.db.delete(archiveDeliveryQueue).where(eq(archiveDeliveryQueue.aggregateId, id)).run();
}

/** Ended webhook deliveries of archived transactions, in segments found by their aggregateId. */
export const deliverySource: ArchiveSource = {
  kind: 'delivery',
  table: deliveries,
  // When it ended: the operator window (7 days) counts from there, per segment (archive-deliveries.ts).
  time: deliveries.updatedAt,
  seq: deliveries.seq,
  timeOf: (row) => row.updatedAt as number,
  eligible: () => inArray(deliveries.status, [...ENDED]) as SQL,
  ids: (row) => [row.aggregateId as string],
  indexTable: 'archive_delivery_index',
  crashPoint: 'archive.deliveries-written',
  nextBatch: queuedBatch,
  removed: removedDeliveries,
};
