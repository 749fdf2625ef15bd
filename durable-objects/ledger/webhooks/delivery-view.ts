/**
 * What operators see of webhook deliveries (the operator API, the console): one delivery's view and
 * the hot rows of a list page. The delivery pipeline itself is in webhook-deliveries.ts.
 */
import { and, desc, eq, lt } from 'drizzle-orm';
import { formatUtc } from '../../../src/domain/time';
import type { DeliveryStatus } from '../../../src/domain/webhook-delivery';
import { aggregateIs } from '../archive/archive-delivery-queue';
import type { LedgerDb } from '../db';
import { webhookDeliveries as deliveries } from '../schema';

export type DeliveryRow = typeof deliveries.$inferSelect;

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
