/**
 * Archived webhook deliveries (kind `delivery`, archive-delivery-queue.ts) for the operator: the
 * list by aggregateId answers as if nothing had been archived, and a segment leaves the manifest,
 * the id index and R2 once all its deliveries are past the 7-day operator window (the rule that
 * prunes hot ones, prune.ts). An unfiltered list (or one by status only) stays hot-only: which
 * segments hold the newest deliveries of every transaction is not bounded by an index, and the
 * operator window of those is the same 7 days the hot list keeps for transactions still hot.
 */

import type { LedgerContext } from '../ledger-context';
import { FINISHED_DELIVERY_KEEP_MS } from '../prune';
import {
  type DeliveryListInput,
  type DeliveryRow,
  type DeliveryView,
  deliveryPage,
  deliveryRows,
} from '../webhooks/delivery-view';
import { deliverySegmentsFor, idHash } from './archive-index';
import { readSegment } from './archive-reads';
import { deliverySegmentsEndedBefore, dropDeliverySegment, oldestDeliverySegmentEnd } from './archive-store';

/** The operator list: hot rows, and for one transaction its archived ones still inside the window. */
export async function listDeliveriesAnywhere(
  ledger: LedgerContext,
  input: DeliveryListInput,
  now: number,
): Promise<{ items: DeliveryView[]; nextCursor?: string }> {
  const hot = deliveryRows(ledger.db, input);
  const id = input.aggregateId;
  if (id === undefined) return deliveryPage(hot, input.limit);
  const since = now - FINISHED_DELIVERY_KEEP_MS;
  const rows = new Map(hot.map((r) => [r.seq, r]));
  for (const segment of deliverySegmentsFor(ledger.storage.sql, id))
    for (const row of (await readSegment(ledger.env, segment.key)) as DeliveryRow[]) {
      if (row.aggregateId !== id || rows.has(row.seq) || row.updatedAt < since) continue;
      if (input.status !== undefined && row.status !== input.status) continue;
      if (input.before !== undefined && row.seq >= input.before) continue;
      rows.set(row.seq, row);
    }
  const page = [...rows.values()].sort((a, b) => b.seq - a.seq).slice(0, input.limit + 1);
  return deliveryPage(page, input.limit);
}

/** Segments expired per step (each one R2 read, one transaction, one R2 delete). */
export const EXPIRE_STEP_SEGMENTS = 20;

/**
 * Drops delivery segments whose newest end is past the window: their index entries (the hash of
 * each aggregateId, by primary key) and manifest row in one transaction, then the R2 object. A crash
 * between the two leaves an unreferenced object in R2 (never read, nothing lost). Returns how many.
 */
export async function expireDeliveries(ledger: LedgerContext, now: number): Promise<number> {
  const sql = ledger.storage.sql;
  const old = deliverySegmentsEndedBefore(sql, now - FINISHED_DELIVERY_KEEP_MS, EXPIRE_STEP_SEGMENTS);
  for (const segment of old) {
    const rows = await readSegment(ledger.env, segment.key);
    const hashes = [...new Set(rows.map((r) => r.aggregateId as string))].map((id) => idHash(id));
    ledger.storage.transactionSync(() => dropDeliverySegment(sql, segment.id, hashes));
    await ledger.env.ARCHIVE.delete(segment.key);
  }
  return old.length;
}

/** When the oldest delivery segment leaves the window (undefined: none is archived). */
export function nextExpiryAt(sql: SqlStorage): number | undefined {
  const at = oldestDeliverySegmentEnd(sql);
  return at === undefined ? undefined : at + FINISHED_DELIVERY_KEEP_MS + 1;
}
