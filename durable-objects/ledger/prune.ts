/**
 * Transient rows leave once their job is done, so a client's object grows with its transactions
 * only, not with everything that happened to them (issue 16):
 * - health observations: 1 h after the queue took them (the analyzer keeps their ids 6 h, and a
 *   crash between send and mark re-sends before they are marked, never after);
 * - webhook deliveries that ended (DELIVERED, GIVEN_UP, UNDELIVERABLE) and their outbox events:
 *   7 days after they ended, the window the operator API and the console show (a GIVEN_UP one can
 *   be retried until then); PENDING, IN_FLIGHT and FAILED ones stay, whatever their age;
 * - idempotency keys: 24 h after they were stored, the replay window (spec §4.1).
 * Finished tasks are deleted by the scheduler as they finish. The caller runs a step in one storage
 * transaction (an event never outlives or predeceases its delivery row). Every step deletes at most
 * PRUNE_BATCH rows per table, by index, so pruning never stalls a request; when a batch was full
 * the caller schedules another run soon.
 */
import { sql } from 'drizzle-orm';
import type { LedgerDb } from './db';
import { REPLAY_WINDOW_MS } from './idempotency';

export const PRUNE_BATCH = 500;
export const HEALTH_OUTBOX_KEEP_MS = 60 * 60 * 1000;
export const FINISHED_DELIVERY_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
const FINISHED = ['DELIVERED', 'GIVEN_UP', 'UNDELIVERABLE'] as const;

/** Rows deleted per table in this step. */
export interface PruneStep {
  healthOutbox: number;
  deliveries: number;
  idempotencyKeys: number;
}

function changes(db: LedgerDb): number {
  return db.get<{ n: number }>(sql`SELECT changes() AS n`)?.n ?? 0;
}

export function pruneOnce(db: LedgerDb, now: number, batch = PRUNE_BATCH): PruneStep {
  // By outbox_unpublished_idx (channel, published_at, seq): a range on published_at.
  db.run(sql`DELETE FROM outbox WHERE seq IN (
      SELECT seq FROM outbox WHERE channel = 'health' AND published_at IS NOT NULL
        AND published_at < ${now - HEALTH_OUTBOX_KEEP_MS} ORDER BY published_at LIMIT ${batch})`);
  const healthOutbox = changes(db);

  // By webhook_deliveries_finished_idx (status, updated_at): each ended delivery with its event.
  // Subqueries, not bound lists: a Durable Object query binds at most 100 values.
  let deliveries = 0;
  const cutoff = now - FINISHED_DELIVERY_KEEP_MS;
  for (const status of FINISHED) {
    const ended = sql`SELECT seq FROM webhook_deliveries WHERE status = ${status} AND updated_at < ${cutoff}
        ORDER BY updated_at, seq LIMIT ${batch - deliveries}`;
    db.run(sql`DELETE FROM outbox WHERE seq IN (${ended})`);
    db.run(sql`DELETE FROM webhook_deliveries WHERE seq IN (${ended})`);
    deliveries += changes(db);
    if (deliveries >= batch) break;
  }

  // By idempotency_created_idx.
  db.run(sql`DELETE FROM idempotency_keys WHERE key IN (
      SELECT key FROM idempotency_keys WHERE created_at < ${now - REPLAY_WINDOW_MS}
        ORDER BY created_at LIMIT ${batch})`);
  const idempotencyKeys = changes(db);
  return { healthOutbox, deliveries, idempotencyKeys };
}

/** Whether a step hit its batch limit somewhere: there may be more to prune right away. */
export function pruneFull(step: PruneStep, batch = PRUNE_BATCH): boolean {
  return step.healthOutbox >= batch || step.deliveries >= batch || step.idempotencyKeys >= batch;
}
