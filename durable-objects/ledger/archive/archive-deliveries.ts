/**
 * Archived webhook deliveries (kind `delivery`, archive-delivery-queue.ts) for the operator: lists
 * answer as if nothing had been archived, a retry of an archived GIVEN_UP delivery reads it back,
 * and a segment leaves the manifest, the id indexes and R2 once all its deliveries are past the
 * 7-day operator window (the rule that prunes hot ones, prune.ts).
 *
 * Which lists read the archive: the one by aggregateId (the id index, then its segments), and the
 * ones that show GIVEN_UP deliveries (unfiltered, or by status GIVEN_UP), through the segments that
 * hold GIVEN_UP ones (given-up-store.ts). DELIVERED and UNDELIVERABLE ones of archived transactions
 * stay out of those two, as before: which segments hold the newest of every transaction is not
 * bounded by an index, and the operator window of those is the same 7 days the hot list keeps for
 * transactions still hot. Open deliveries are never archived.
 */

import { eventSeqOf } from '../../../src/domain/ids';
import type { LedgerContext } from '../ledger-context';
import { FINISHED_DELIVERY_KEEP_MS } from '../prune';
import { addParkedRows, earliestParked } from '../webhooks/delivery-parking';
import {
  addFromSegmentsDown,
  type DeliveryListInput,
  type DeliveryRow,
  type DeliveryView,
  deliveryPage,
  deliveryRows,
} from '../webhooks/delivery-view';
import { deliveryIsHot, insertDeliveryRow } from '../webhooks/outbox-store';
import { deliveriesId, deliverySegmentsFor, idHash, unregisterIds } from './archive-index';
import { readSegment } from './archive-reads';
import {
  deliverySegmentsEndedBefore,
  dropDeliverySegment,
  markStale,
  oldestDeliverySegmentEnd,
  staleSeqs,
} from './archive-store';
import {
  dropGivenUpSegment,
  type GivenUpSegment,
  givenUpSegmentsDown,
  givenUpSegmentsHolding,
} from './given-up-store';

/** An archived segment's rows still current: not superseded by a read-back (archive_stale). */
async function currentRows(
  ledger: LedgerContext,
  segment: { id: number; key: string },
): Promise<DeliveryRow[]> {
  const rows = (await readSegment(ledger.env, segment.key)) as DeliveryRow[];
  const stale = staleSeqs(ledger.storage.sql, segment.id);
  return stale.size === 0 ? rows : rows.filter((r) => !stale.has(r.seq));
}

/** Whether an archived row belongs on the page: inside the window, the filters, below the cursor, not hot. */
function listable(ledger: LedgerContext, row: DeliveryRow, input: DeliveryListInput, since: number): boolean {
  if (row.updatedAt < since) return false;
  if (input.status !== undefined && row.status !== input.status) return false;
  if (input.before !== undefined && row.seq >= input.before) return false;
  return !deliveryIsHot(ledger.db, row.seq);
}

/** Segments of GIVEN_UP deliveries opened per manifest read of a list page. */
const GIVEN_UP_BATCH = 8;

/**
 * Archived GIVEN_UP rows of a list page (unfiltered or by status GIVEN_UP): segments in the order of
 * their newest seq, opened while one could still land among the page's limit + 1 newest.
 */
async function archivedGivenUp(
  ledger: LedgerContext,
  input: DeliveryListInput,
  rows: Map<number, DeliveryRow>,
  since: number,
): Promise<void> {
  await addFromSegmentsDown<GivenUpSegment>(
    input,
    rows,
    GIVEN_UP_BATCH,
    (after) => givenUpSegmentsDown(ledger.storage.sql, GIVEN_UP_BATCH, after),
    async (segment) =>
      (await currentRows(ledger, { id: segment.segment, key: segment.key })).filter(
        (row) => row.status === 'GIVEN_UP' && !rows.has(row.seq) && listable(ledger, row, input, since),
      ),
  );
}

/** The operator list: hot rows, and the archived ones it showed before they were archived (above). */
export async function listDeliveriesAnywhere(
  ledger: LedgerContext,
  input: DeliveryListInput,
  now: number,
): Promise<{ items: DeliveryView[]; nextCursor?: string }> {
  const hot = deliveryRows(ledger.db, input);
  const id = input.aggregateId;
  const givenUp = input.status === undefined || input.status === 'GIVEN_UP';
  const parked = earliestParked(ledger) !== undefined;
  if (id === undefined && !givenUp && !parked) return deliveryPage(hot, input.limit);
  const since = now - FINISHED_DELIVERY_KEEP_MS;
  const rows = new Map(hot.map((r) => [r.seq, r]));
  if (id === undefined && givenUp) await archivedGivenUp(ledger, input, rows, since);
  else if (id !== undefined)
    for (const segment of await deliverySegmentsFor(ledger, id))
      for (const row of await currentRows(ledger, segment))
        if (row.aggregateId === id && !rows.has(row.seq) && listable(ledger, row, input, since))
          rows.set(row.seq, row);
  if (parked) {
    await addParkedRows(ledger, input, rows);
    // Rows parked or read back while the page read R2 are in one of the two reads: the later hot one wins.
    for (const row of deliveryRows(ledger.db, input)) rows.set(row.seq, row);
  }
  const page = [...rows.values()].sort((a, b) => b.seq - a.seq).slice(0, input.limit + 1);
  return deliveryPage(page, input.limit);
}

/**
 * Before an operator retry: an archived GIVEN_UP delivery inside the window comes back hot, exactly
 * as archived (its payload on its row), and its archived copy is marked stale in the same write, so
 * every list shows the hot one alone. The retry then answers as for one that never left.
 */
export async function readBackGivenUp(ledger: LedgerContext, eventId: string, now: number): Promise<void> {
  const seq = eventSeqOf(eventId);
  if (seq === undefined || deliveryIsHot(ledger.db, seq)) return;
  for (const segment of givenUpSegmentsHolding(ledger.storage.sql, seq)) {
    const where = { id: segment.segment, key: segment.key };
    const row = (await currentRows(ledger, where)).find((r) => r.seq === seq && r.eventId === eventId);
    if (row?.status !== 'GIVEN_UP' || row.updatedAt < now - FINISHED_DELIVERY_KEEP_MS) continue;
    ledger.storage.transactionSync(() => {
      if (deliveryIsHot(ledger.db, seq)) return;
      insertDeliveryRow(ledger.db, row);
      markStale(ledger.storage.sql, segment.segment, seq);
    });
    return;
  }
}

/** Segments expired per step (each one R2 read, one transaction, one R2 delete). */
export const EXPIRE_STEP_SEGMENTS = 20;

/**
 * Drops delivery segments whose newest end is past the window: their registry pairs, then in one
 * transaction their GIVEN_UP note, manifest row and any entries of the object's older index (the hash
 * of each aggregateId, by primary key), then the R2 object. Every row of such a segment is past the
 * window, so no list shows it meanwhile; a crash between two steps leaves a pair or an object that
 * names nothing (never read, nothing lost) and the retry removes the rest. Returns how many.
 */
export async function expireDeliveries(ledger: LedgerContext, now: number): Promise<number> {
  const sql = ledger.storage.sql;
  const old = deliverySegmentsEndedBefore(sql, now - FINISHED_DELIVERY_KEEP_MS, EXPIRE_STEP_SEGMENTS);
  const held: { segment: (typeof old)[number]; ids: string[] }[] = [];
  for (const segment of old) {
    const rows = await readSegment(ledger.env, segment.key);
    held.push({ segment, ids: [...new Set(rows.map((r) => r.aggregateId as string))] });
  }
  // All the step's segments in one call per shard.
  await unregisterIds(
    ledger,
    held.map(({ segment, ids }) => [segment.id, ids.map((id) => deliveriesId(id))] as const),
  );
  for (const { segment, ids } of held) {
    const hashes = ids.map((id) => idHash(id));
    ledger.storage.transactionSync(() => {
      dropGivenUpSegment(sql, segment.id);
      dropDeliverySegment(sql, segment.id, hashes);
    });
    await ledger.env.ARCHIVE.delete(segment.key);
  }
  return old.length;
}

/** When the oldest delivery segment leaves the window (undefined: none is archived). */
export function nextExpiryAt(sql: SqlStorage): number | undefined {
  const at = oldestDeliverySegmentEnd(sql);
  return at === undefined ? undefined : at + FINISHED_DELIVERY_KEEP_MS + 1;
}
