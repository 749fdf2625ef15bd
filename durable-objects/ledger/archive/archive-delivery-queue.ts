/**
 * Which transactions may have ended webhook deliveries to archive (the archive store's delivery
 * queue): every Cash-In and Cash-Out archived is queued in the transaction that archives it, and so
 * is one whose delivery ends (DELIVERED, UNDELIVERABLE, GIVEN_UP) after it was archived. The delivery source
 * (archive-deliveries.ts) walks the queue and the deliveries' aggregate index, never the table.
 */
import type { ArchivableRow } from '../archivable';
import { cashInIsHot } from '../cash-in/cash-in-store';
import { cashOutIsHot } from '../cash-out/cash-out-store';
import type { LedgerContext } from '../ledger-context';
import {
  endedDeliveriesOf,
  endedDeliveryArchive,
  hasEndedDelivery,
  oldestEndedAggregates,
} from '../webhooks/outbox-store';
import { deliveriesId } from './archive-index';
import type { ArchiveSource } from './archive-sources';
import {
  hasArchiveOf,
  queueAggregate,
  queuedAggregates,
  unqueueAggregate,
  writingSegment,
} from './archive-store';
import { addGivenUpSegment } from './given-up-store';

/** Queues the archived transactions that have ended deliveries (one index probe each). */
export function enqueueAggregates(store: SqlStorage, aggregateIds: string[]): void {
  for (const id of aggregateIds) if (hasEndedDelivery(store, id)) queueAggregate(store, id);
}

/**
 * A delivery of `aggregateId` just ended: queued if its transaction is archived. A transaction's
 * row leaves the object only for the archive, so a transactionId (not an `incident:` or
 * `recurrence:` aggregate) that is not hot names an archived one; no index is read. Hot is the
 * common case and costs one or two unique-index probes.
 */
export function enqueueIfArchived(store: SqlStorage, aggregateId: string): void {
  if (aggregateId.includes(':') || cashInIsHot(store, aggregateId) || cashOutIsHot(store, aggregateId))
    return;
  if (hasArchiveOf(store, 'cash-in') || hasArchiveOf(store, 'cash-out')) queueAggregate(store, aggregateId);
}

/**
 * Over the object's size budget (archive.ts): the oldest ended deliveries go to the archive even
 * while their transaction is hot; the list by aggregateId reads them there (archive-deliveries.ts)
 * for the same 7 days. Returns how many transactions were queued.
 */
export function enqueueOldestEnded(store: SqlStorage, limit: number): number {
  const ids = oldestEndedAggregates(store, limit);
  for (const id of ids) queueAggregate(store, id);
  return ids.length;
}

/** Queue entries looked at per step (a paid Cash-In has 2 deliveries; ARCHIVE_STEP_ROWS caps the rows). */
const QUEUE_STEP = 100;
const QUEUE_STEP_ROWS = 200;
const QUEUE_PASSES = 10;

const endedOf = (ledger: LedgerContext, aggregateId: string) =>
  endedDeliveriesOf(ledger.db, aggregateId) as unknown as ArchivableRow[];

/**
 * The next step's rows: the ended deliveries of the first queued transactions, whole transactions at a
 * time (one index range each). An entry with none left goes at once: a later end queues it again.
 */
function queuedRows(ledger: LedgerContext): ArchivableRow[] {
  const rows: ArchivableRow[] = [];
  // Entries with nothing left are dropped as they are met: at most QUEUE_PASSES chunks per call.
  for (let pass = 0; pass < QUEUE_PASSES && rows.length === 0; pass++) {
    const queued = queuedAggregates(ledger.db, QUEUE_STEP);
    if (queued.length === 0) break;
    for (const { aggregateId } of queued) {
      const ended = endedOf(ledger, aggregateId);
      if (ended.length === 0) {
        unqueueAggregate(ledger.db, aggregateId);
        continue;
      }
      if (rows.length > 0 && rows.length + ended.length > QUEUE_STEP_ROWS) break;
      rows.push(...ended);
    }
  }
  return rows.slice(0, QUEUE_STEP_ROWS).sort((a, b) => a.seq - b.seq);
}

/**
 * In the transaction that deletes the rows: a transaction with no ended delivery left leaves the
 * queue. Their outbox payloads are gone already: they leave as a delivery ends DELIVERED or
 * UNDELIVERABLE, and a GIVEN_UP one's is on its row (webhook-deliveries.ts recordAttempt, adoption
 * without a URL). A segment holding GIVEN_UP ones is noted with their seq range, so the operator
 * list by status and the retry by event id find them (archive-deliveries.ts).
 */
function removedDeliveries(ledger: LedgerContext, rows: Record<string, unknown>[]): void {
  for (const id of new Set(rows.map((r) => r.aggregateId as string)))
    if (endedOf(ledger, id).length === 0) unqueueAggregate(ledger.db, id);
  const givenUp = rows.filter((r) => r.status === 'GIVEN_UP').map((r) => r.seq as number);
  // The segment being finished is the one reserved (WRITING) until this transaction marks it DONE.
  const segment = writingSegment(ledger.db);
  if (givenUp.length > 0 && segment)
    addGivenUpSegment(ledger.storage.sql, {
      segment: segment.id,
      key: segment.key,
      firstSeq: Math.min(...givenUp),
      lastSeq: Math.max(...givenUp),
    });
}

/** Ended webhook deliveries (GIVEN_UP ones too) of archived transactions, in segments found by their aggregateId. */
export const deliverySource: ArchiveSource = {
  ...endedDeliveryArchive,
  kind: 'delivery',
  // When it ended: the operator window (7 days) counts from there, per segment (archive-deliveries.ts).
  timeOf: (row) => row.updatedAt as number,
  // Registered under its transaction (archive-index.ts deliveriesId): the list by aggregateId finds it there.
  ids: (row) => [deliveriesId(row.aggregateId as string)],
  crashPoint: 'archive.deliveries-written',
  nextRows: queuedRows,
  removed: removedDeliveries,
};
