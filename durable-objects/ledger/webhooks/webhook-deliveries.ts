/**
 * Webhook delivery state (docs/contract.md, Webhooks), kept beside the events in the client's ledger so every
 * change is one storage transaction. The dispatch task adopts new `webhook` outbox events, sends
 * the head event of each aggregate that is due to the WEBHOOKS queue, and sets its own next run;
 * the queue consumer claims an event, POSTs it and reports the outcome here.
 *
 * Per aggregate only the oldest open event (PENDING, FAILED or IN_FLIGHT) is ever dispatched, so a
 * later event waits until the earlier one is DELIVERED, GIVEN_UP or UNDELIVERABLE. A dispatch is a
 * lease: without a report within LEASE_MS it is sent again (duplicates carry the same webhook-id).
 */
import { and, asc, eq, inArray, isNotNull, lte, min } from 'drizzle-orm';
import { eventSeqOf } from '../../../src/domain/ids';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { log } from '../../../src/infra/log';
import { retryDelayAfter } from '../../../src/webhooks/retry-schedule';
import type { AttemptOutcome, ClaimedWebhook, DeliveryMessage } from '../../../src/webhooks/types';
import { enqueueIfArchived } from '../archive/archive-delivery-queue';
import type { LedgerContext } from '../context';
import { type LedgerDb, sqlOf } from '../db';
import { webhookDeliveries as deliveries, legacyEventId, outbox } from '../schema';
import { type DeliveryRow, type DeliveryView, deliveryView } from './delivery-view';

/** How long a dispatched event may go without a reported outcome before it is sent again. */
export const LEASE_MS = 2 * 60_000;
/** Queue.sendBatch takes at most 100 messages. */
const DISPATCH_BATCH = 100;
/** Events adopted per pass: the UPDATE … IN (…) that marks them binds one value each (max 100). */
const ADOPT_BATCH = 50;

/** The oldest open delivery of every aggregate. */
function headSeqs(db: LedgerDb) {
  return db
    .select({ seq: min(deliveries.seq) })
    .from(deliveries)
    .where(isNotNull(deliveries.dueAt))
    .groupBy(deliveries.aggregateId);
}

/**
 * New `webhook` outbox events become deliveries. True when more are waiting. Fixed statements on
 * the SQL API: this runs for every event, and drizzle's building and mapping (the event's data
 * parsed, unused here) cost more than SQLite does.
 */
function adoptNewEvents(db: LedgerDb, now: number): boolean {
  const sql = sqlOf(db);
  const events = sql
    .exec<{
      seq: number;
      event_id: string;
      aggregate_id: string;
      event_type: string;
      url: string | null;
      at: number;
    }>(
      `SELECT seq, event_id, aggregate_id, event_type, webhook_url AS url, occurred_at AS at FROM outbox
       WHERE channel = 'webhook' AND published_at IS NULL ORDER BY seq LIMIT ?`,
      ADOPT_BATCH,
    )
    .toArray();
  if (events.length === 0) return false;
  for (const event of events) {
    const deliverable = event.url !== null;
    sql.exec(
      `INSERT INTO webhook_deliveries (event_id, seq, aggregate_id, event_type, url, status, due_at,
         last_error, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      event.event_id,
      event.seq,
      event.aggregate_id,
      event.event_type,
      event.url,
      deliverable ? 'PENDING' : 'UNDELIVERABLE',
      deliverable ? now : null,
      null, // a missing URL is told by the view (NO_URL), not stored in every row
      event.at,
      now,
    );
    // Ended at once: archived with its transaction if that is archived already.
    if (!deliverable) enqueueIfArchived(sql, event.aggregate_id);
  }
  // A payload with nowhere to go is never read again: it leaves now (docs/storage-schema.md, Growth). The
  // others wait for their delivery to end (recordAttempt).
  const seqs = (keep: boolean) =>
    JSON.stringify(events.filter((e) => (e.url !== null) === keep).map((e) => e.seq));
  sql.exec(
    'UPDATE outbox SET published_at = ? WHERE seq IN (SELECT value FROM json_each(?))',
    now,
    seqs(true),
  );
  sql.exec('DELETE FROM outbox WHERE seq IN (SELECT value FROM json_each(?))', seqs(false));
  return events.length === ADOPT_BATCH;
}

/** Marks the due head events IN_FLIGHT under a fresh lease; returns their queue messages. */
function takeDueHeads(db: LedgerDb, clientId: string, now: number): DeliveryMessage[] {
  const due = db
    .select()
    .from(deliveries)
    .where(and(inArray(deliveries.seq, headSeqs(db)), lte(deliveries.dueAt, now)))
    .orderBy(asc(deliveries.dueAt))
    .limit(DISPATCH_BATCH)
    .all();
  return due.map((row) => {
    if (row.status === 'IN_FLIGHT') {
      log('warn', 'webhook dispatch got no report in time; sending again', {
        clientId,
        eventId: row.eventId,
        dispatch: row.dispatches,
      });
    }
    const dispatch = row.dispatches + 1;
    db.update(deliveries)
      .set({ status: 'IN_FLIGHT', dispatches: dispatch, dueAt: now + LEASE_MS, updatedAt: now })
      .where(eq(deliveries.seq, row.seq))
      .run();
    return { clientId, eventId: row.eventId, dispatch };
  });
}

/** When the dispatcher must run next: the earliest due head, if any. */
function nextDueAt(db: LedgerDb): number | undefined {
  const row = db
    .select({ at: min(deliveries.dueAt) })
    .from(deliveries)
    .where(inArray(deliveries.seq, headSeqs(db)))
    .get();
  return row?.at ?? undefined;
}

/** The `dispatch-webhooks` task: adopt, send what is due, schedule the next run. */
export async function dispatchWebhooks(ctx: LedgerContext): Promise<void> {
  const now = Date.now();
  const messages = ctx.storage.transactionSync(() => {
    const more = adoptNewEvents(ctx.db, now);
    const taken = takeDueHeads(ctx.db, ctx.profile.clientId, now);
    const wake = more ? now : nextDueAt(ctx.db);
    if (wake === undefined) ctx.scheduler.cancel('dispatch-webhooks', 'all');
    else ctx.scheduler.schedule('dispatch-webhooks', 'all', wake);
    return taken;
  });
  if (messages.length === 0) return;
  await ctx.crashes.reach('webhooks.leased');
  try {
    await ctx.env.WEBHOOKS.sendBatch(messages.map((body) => ({ body })));
  } catch (error) {
    // Nothing was queued: end the leases now so the task's retry sends them again.
    ctx.storage.transactionSync(() => {
      for (const m of messages) {
        const row = find(ctx.db, m.eventId);
        if (row?.status === 'IN_FLIGHT' && row.dispatches === m.dispatch)
          ctx.db.update(deliveries).set({ dueAt: now }).where(eq(deliveries.seq, row.seq)).run();
      }
    });
    throw error;
  }
}

/** Something became due: the dispatch task runs now and works out its next run itself. */
export function dispatchSoon(ctx: LedgerContext, now: number): void {
  ctx.scheduler.schedule('dispatch-webhooks', 'all', now);
}

/** A delivery by its event id: through the seq the id carries, or the index of older ids. */
function find(db: LedgerDb, eventId: string): DeliveryRow | undefined {
  const seq = eventSeqOf(eventId);
  const where =
    seq === undefined
      ? and(eq(deliveries.eventId, eventId), legacyEventId(deliveries.eventId))
      : and(eq(deliveries.seq, seq), eq(deliveries.eventId, eventId));
  return db.select().from(deliveries).where(where).get();
}

/**
 * The consumer is about to POST: hands out the event if this dispatch is still the live one, and
 * restarts its lease. Null (nothing to do) when it was delivered, given up or re-dispatched.
 */
export function claimWebhook(
  ctx: LedgerContext,
  eventId: string,
  dispatch: number,
  now: number,
): ClaimedWebhook | null {
  const row = find(ctx.db, eventId);
  if (row?.status !== 'IN_FLIGHT' || row.dispatches !== dispatch || row.url === null) return null;
  const event = ctx.db.select({ data: outbox.data }).from(outbox).where(eq(outbox.seq, row.seq)).get();
  if (!event) return null;
  ctx.db
    .update(deliveries)
    .set({ dueAt: now + LEASE_MS, updatedAt: now })
    .where(eq(deliveries.seq, row.seq))
    .run();
  return { eventId, eventType: row.eventType, data: event.data, url: row.url };
}

/**
 * The outcome of one attempt. A success counts whichever dispatch it came from (the receiver has
 * the event); a failure only from the live dispatch, so a late duplicate cannot spend an attempt.
 */
export function recordAttempt(
  ctx: LedgerContext,
  eventId: string,
  dispatch: number,
  outcome: AttemptOutcome,
  now: number,
): void {
  const row = find(ctx.db, eventId);
  if (!row) return;
  const live = row.status === 'IN_FLIGHT' && row.dispatches === dispatch;
  const attempted = {
    attempts: live ? row.attempts + 1 : row.attempts,
    lastAttemptAt: now,
    updatedAt: now,
  };
  let changes: Partial<DeliveryRow>;
  if (outcome.kind === 'delivered') {
    if (row.status === 'DELIVERED') return;
    changes = {
      ...attempted,
      status: 'DELIVERED',
      dueAt: null,
      deliveredAt: now,
      lastResponseStatus: outcome.status,
      lastError: null,
    };
  } else if (!live) {
    return;
  } else if (outcome.kind === 'refused') {
    // Nothing was sent, so no attempt is counted.
    changes = { status: 'UNDELIVERABLE', dueAt: null, lastError: outcome.error, updatedAt: now };
  } else {
    const delay = retryDelayAfter(attempted.attempts);
    changes = {
      ...attempted,
      status: delay === undefined ? 'GIVEN_UP' : 'FAILED',
      dueAt: delay === undefined ? null : now + delay,
      lastResponseStatus: outcome.status ?? null,
      lastError: outcome.error,
    };
  }
  ctx.storage.transactionSync(() => {
    ctx.db.update(deliveries).set(changes).where(eq(deliveries.seq, row.seq)).run();
    if (changes.status === 'DELIVERED' || changes.status === 'UNDELIVERABLE') {
      // Never sent again (the operator retries FAILED and GIVEN_UP only; a redelivered message of
      // an ended delivery is acknowledged unread): the payload goes with the outcome (docs/storage-schema.md,
      // Growth).
      ctx.db.delete(outbox).where(eq(outbox.seq, row.seq)).run();
      // Ended for good after its transaction was archived: it follows it (archive-delivery-queue.ts).
      enqueueIfArchived(ctx.storage.sql, row.aggregateId);
    }
    dispatchSoon(ctx, now);
  });
}

/** Operator retry: a FAILED or GIVEN_UP event is due now, on a fresh schedule. */
export function retryDelivery(
  ctx: LedgerContext,
  eventId: string,
  now: number,
): OperationResult<DeliveryView> {
  const row = find(ctx.db, eventId);
  if (!row) return failure({ code: 'NOT_FOUND', detail: 'No webhook delivery has this eventId' });
  if (row.status !== 'FAILED' && row.status !== 'GIVEN_UP') {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only FAILED or GIVEN_UP deliveries can be retried; this one is ${row.status}`,
    });
  }
  const updated = ctx.storage.transactionSync(() => {
    const next = ctx.db
      .update(deliveries)
      .set({ status: 'PENDING', attempts: 0, dueAt: now, updatedAt: now })
      .where(eq(deliveries.seq, row.seq))
      .returning()
      .get() as DeliveryRow;
    dispatchSoon(ctx, now);
    return next;
  });
  return success(200, deliveryView(updated));
}
