/**
 * The delivery queue's store: every statement on archive_delivery_queue, the archived transactions
 * whose ended webhook deliveries may still be hot (archive-delivery-queue.ts). Every function runs
 * inside the caller's storage transaction.
 */
import { eq } from 'drizzle-orm';
import type { LedgerDb } from '../db';
import { archiveDeliveryQueue } from '../schema';

export function queueAggregate(sqlApi: SqlStorage, aggregateId: string): void {
  sqlApi.exec('INSERT OR IGNORE INTO archive_delivery_queue (aggregate_id) VALUES (?)', aggregateId);
}

export function queuedAggregates(db: LedgerDb, limit: number): { aggregateId: string }[] {
  return db.select().from(archiveDeliveryQueue).limit(limit).all();
}

export function unqueueAggregate(db: LedgerDb, aggregateId: string): void {
  db.delete(archiveDeliveryQueue).where(eq(archiveDeliveryQueue.aggregateId, aggregateId)).run();
}

export function anyQueued(sqlApi: SqlStorage): boolean {
  return sqlApi.exec('SELECT 1 FROM archive_delivery_queue LIMIT 1').toArray().length > 0;
}

export function queuedCount(sqlApi: SqlStorage): number {
  return Number(sqlApi.exec('SELECT count(*) AS n FROM archive_delivery_queue').one().n);
}
