/**
 * Which transactions may have ended webhook deliveries to archive (archive_delivery_queue): every
 * Cash-In and Cash-Out archived is queued in the transaction that archives it, and so is one whose
 * delivery ends (DELIVERED, UNDELIVERABLE) after it was archived. The delivery source
 * (archive-deliveries.ts) walks the queue and the deliveries' aggregate index, never the table.
 */
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { maybeArchived } from './archive-index';
import type { ArchiveSource } from './archive-sources';
import type { LedgerContext } from './context';
import { archiveDeliveryQueue, webhookDeliveries as deliveries } from './schema';

export function enqueueAggregates(sql: SqlStorage, aggregateIds: string[]): void {
  for (const id of aggregateIds)
    sql.exec('INSERT OR IGNORE INTO archive_delivery_queue (aggregate_id) VALUES (?)', id);
}

/**
 * A delivery of `aggregateId` just ended: queued if its transaction is archived (not hot, and in the
 * id index). Hot is the common case and costs two unique-index probes.
 */
export function enqueueIfArchived(sql: SqlStorage, aggregateId: string): void {
  const hot = sql
    .exec(
      `SELECT 1 FROM cash_ins WHERE transaction_id = ? UNION ALL
       SELECT 1 FROM cash_outs WHERE transaction_id = ? LIMIT 1`,
      aggregateId,
      aggregateId,
    )
    .toArray();
  if (hot.length > 0) return;
  if (maybeArchived(sql, aggregateId, 'cash-in') || maybeArchived(sql, aggregateId, 'cash-out'))
    enqueueAggregates(sql, [aggregateId]);
}

/** Ended for good: never sent again (the operator retry takes FAILED and GIVEN_UP only). */
const ENDED = ['DELIVERED', 'UNDELIVERABLE'] as const;
/** Queue entries looked at per step (a paid Cash-In has 2 deliveries; ARCHIVE_BATCH caps the rows). */
const QUEUE_STEP = 100;
const BATCH_ROWS = 200;

type Row = Record<string, unknown> & { seq: number };

function endedOf(ctx: LedgerContext, aggregateId: string): Row[] {
  return ctx.db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.aggregateId, aggregateId), inArray(deliveries.status, [...ENDED])))
    .orderBy(deliveries.seq)
    .all() as Row[];
}

/**
 * The next batch: the ended deliveries of the first queued transactions, whole transactions at a
 * time (one index range each). An entry with none left goes at once: a later end queues it again.
 */
function queuedBatch(ctx: LedgerContext): Row[] {
  const queued = ctx.db.select().from(archiveDeliveryQueue).limit(QUEUE_STEP).all();
  const rows: Row[] = [];
  for (const { aggregateId } of queued) {
    const ended = endedOf(ctx, aggregateId);
    if (ended.length === 0) {
      ctx.db.delete(archiveDeliveryQueue).where(eq(archiveDeliveryQueue.aggregateId, aggregateId)).run();
      continue;
    }
    if (rows.length > 0 && rows.length + ended.length > BATCH_ROWS) break;
    rows.push(...ended);
  }
  return rows.slice(0, BATCH_ROWS).sort((a, b) => a.seq - b.seq);
}

/**
 * In the transaction that deletes the rows: their outbox events go too (the payloads, if the
 * 1 h rule has not taken them yet), and a transaction with no ended delivery left leaves the queue.
 */
function removedDeliveries(ctx: LedgerContext, rows: Row[]): void {
  for (const row of rows) ctx.storage.sql.exec('DELETE FROM outbox WHERE seq = ?', row.seq);
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
  crashPoint: 'archive.deliveries-written',
  nextBatch: queuedBatch,
  removed: removedDeliveries,
};
