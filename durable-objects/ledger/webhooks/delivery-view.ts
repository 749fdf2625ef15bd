/**
 * What operators see of webhook deliveries (the operator API, the console): one delivery's view and
 * the hot rows of a list page. The delivery pipeline itself is in webhook-deliveries.ts.
 */
import { formatUtc } from '../../../src/domain/time';
import type { DeliveryStatus } from '../../../src/domain/webhook-delivery';
import type { DeliveryRow } from './outbox-store';

export type { DeliveryRow } from './outbox-store';

export interface DeliveryView {
  eventId: string;
  eventType: string;
  aggregateId: string;
  url?: string;
  status: DeliveryStatus;
  attempts: number;
  lastResponseStatus?: number;
  lastError?: string;
  nextAttemptAt?: string;
  lastAttemptAt?: string;
  deliveredAt?: string;
  createdAt: string;
}

/** Why a delivery without a URL ended UNDELIVERABLE (rows of older versions store it). */
const NO_URL = 'no webhook URL was given for this transaction';

/** The operator's view; times in UTC like the rest of the operator API. */
export function deliveryView(row: DeliveryRow): DeliveryView {
  const lastError = row.lastError ?? (row.status === 'UNDELIVERABLE' && row.url === null ? NO_URL : null);
  const waiting = (row.status === 'PENDING' || row.status === 'FAILED') && row.dueAt !== null;
  return {
    eventId: row.eventId,
    eventType: row.eventType,
    aggregateId: row.aggregateId,
    ...(row.url !== null && { url: row.url }),
    status: row.status,
    attempts: row.attempts,
    ...(row.lastResponseStatus !== null && { lastResponseStatus: row.lastResponseStatus }),
    ...(lastError !== null && { lastError }),
    ...(waiting && { nextAttemptAt: formatUtc(row.dueAt as number) }),
    ...(row.lastAttemptAt !== null && { lastAttemptAt: formatUtc(row.lastAttemptAt) }),
    ...(row.deliveredAt !== null && { deliveredAt: formatUtc(row.deliveredAt) }),
    createdAt: formatUtc(row.createdAt),
  };
}

import type { DeliveryListInput } from './outbox-store';

export { type DeliveryListInput, deliveryRows } from './outbox-store';

/** A page from its limit + 1 rows, newest first. */
export function deliveryPage(
  rows: DeliveryRow[],
  limit: number,
): { items: DeliveryView[]; nextCursor?: string } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(deliveryView),
    ...(rows.length > limit && last && { nextCursor: String(last.seq) }),
  };
}

/**
 * Adds to a page's `rows` (seq → row) the rows of segments of deliveries kept outside the table
 * (archived GIVEN_UP ones, parked ones), met in the order of their newest seq, descending: `next`
 * gives the batch after `after` (fewer than `batch` at the end), and each is opened while it could
 * still land among the page's limit + 1 newest. `read` gives a segment's rows that belong on the page.
 */
export async function addFromSegmentsDown<S extends { firstSeq: number; lastSeq: number }>(
  input: DeliveryListInput,
  rows: Map<number, DeliveryRow>,
  batch: number,
  next: (after: S | undefined) => S[],
  read: (segment: S) => Promise<DeliveryRow[]>,
): Promise<void> {
  const cutoff = () => [...rows.keys()].sort((a, b) => b - a)[input.limit] ?? 0;
  let after: S | undefined;
  for (;;) {
    const found = next(after);
    for (const segment of found) {
      if (segment.lastSeq < cutoff()) return;
      if (input.before !== undefined && segment.firstSeq >= input.before) continue;
      for (const row of await read(segment)) if (!rows.has(row.seq)) rows.set(row.seq, row);
    }
    after = found.at(-1);
    if (found.length < batch) return;
  }
}
