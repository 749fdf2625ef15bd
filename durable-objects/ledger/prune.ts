/**
 * Transient rows leave once their job is done, so a client's object grows with its transactions
 * only, not with everything that happened to them (docs/storage-schema.md, Growth). Some leave as their job
 * ends, not here: health observations as the queue takes them (tasks.ts), the payload of a webhook event once
 * its delivery is DELIVERED or UNDELIVERABLE (webhook-deliveries.ts: never sent again), finished tasks (the
 * scheduler). The rest age out here:
 * - webhook deliveries that ended (DELIVERED, GIVEN_UP, UNDELIVERABLE), a GIVEN_UP one with its event's
 *   payload (on its row since migration 0028): 7 days after they
 *   ended, the window the operator API and the console show (a GIVEN_UP one can be retried until
 *   then), unless the archive took them first; PENDING, IN_FLIGHT and FAILED ones stay, whatever their age;
 * - idempotency keys: 24 h after they were stored, the replay window (docs/contract.md, Idempotency).
 * What no rule names stays: unpublished observations, webhook events not yet adopted by a delivery,
 * open deliveries, running idempotency keys (memory only, idempotency.ts), and everything money is
 * made of. The caller runs a step in one storage transaction (an event never outlives its delivery
 * row). Every step deletes at most PRUNE_STEP_ROWS rows per rule, by index, so pruning never stalls a
 * request; `nextPruneAt` tells when to run again: soon when a step was full, else when the oldest
 * kept row ages out, so an idle object still sheds its rows from its own alarm.
 */
import type { SQL } from 'drizzle-orm';
import type { LedgerDb } from './db';
import { expiredIdempotencyKeys, oldestIdempotencyExpiry, pruneIdempotencyKeys } from './ledger/idempotency';
import type { Scheduler } from './scheduler';
import { deleteDeliveries, endedDeliveries, oldestEndedExpiry } from './webhooks/outbox-store';

export const PRUNE_STEP_ROWS = 500;
export const FINISHED_DELIVERY_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
const FINISHED = ['DELIVERED', 'GIVEN_UP', 'UNDELIVERABLE'] as const;

/** Rows deleted per rule in this step. */
export interface PruneStep {
  deliveries: number;
  idempotencyKeys: number;
}

/** What each rule may delete at `now`, oldest first, through its index (also what the tests explain). */
export const prunable = {
  /** webhook_deliveries_finished_idx (status, updated_at): one final status at a time. */
  deliveries: (status: (typeof FINISHED)[number], now: number, limit: number) =>
    endedDeliveries(status, now - FINISHED_DELIVERY_KEEP_MS, limit),
  /** idempotency_created_idx (ledger/idempotency.ts). */
  keys: expiredIdempotencyKeys,
};

export function pruneOnce(db: LedgerDb, now: number, limit = PRUNE_STEP_ROWS): PruneStep {
  // Each ended delivery with its event. Subqueries, not bound lists: a Durable Object query binds
  // at most 100 values.
  let deliveries = 0;
  for (const status of FINISHED) {
    const ended = prunable.deliveries(status, now, limit - deliveries);
    deliveries += deleteDeliveries(db, ended);
    if (deliveries >= limit) break;
  }

  const idempotencyKeys = pruneIdempotencyKeys(db, now, limit);
  return { deliveries, idempotencyKeys };
}

/** Whether a step hit its limit somewhere: there may be more to prune right away. */
export function pruneFull(step: PruneStep, limit = PRUNE_STEP_ROWS): boolean {
  return Object.values(step).some((rows) => rows >= limit);
}

/** Soonest a step after a full one runs again: the rest of the backlog, without hogging the object. */
export const PRUNE_AGAIN_MS = 1_000;

/**
 * When the next step has something to delete: soon after a full step, else just after the oldest
 * row each rule keeps ages out (each read is the head of the index its delete uses); null when
 * nothing is waiting to age out.
 */
export function nextPruneAt(db: LedgerDb, now: number, step: PruneStep): number | null {
  if (pruneFull(step)) return now + PRUNE_AGAIN_MS;
  const head = (query: SQL) => db.get<{ at: number }>(query)?.at;
  const ages = [
    ...FINISHED.map((status) => head(oldestEndedExpiry(status, FINISHED_DELIVERY_KEEP_MS))),
    head(oldestIdempotencyExpiry),
  ].filter((at): at is number => at !== undefined);
  // Every rule deletes rows strictly older than its cutoff: one millisecond past the age.
  return ages.length === 0 ? null : Math.max(now + PRUNE_AGAIN_MS, Math.min(...ages) + 1);
}

/**
 * Points the `prune:all` task at the next step (see nextPruneAt) and returns its time; writes only
 * when that time moved, so a step costs a few index reads, not a write.
 */
export function armPrune(db: LedgerDb, scheduler: Scheduler, now: number, step: PruneStep): number | null {
  const at = nextPruneAt(db, now, step);
  const current = scheduler.dueAt('prune', 'all');
  if (at === null) {
    if (current !== undefined) scheduler.cancel('prune', 'all');
  } else if (current !== at) scheduler.schedule('prune', 'all', at);
  return at;
}
