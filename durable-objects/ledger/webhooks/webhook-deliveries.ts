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
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { log } from '../../../src/infra/log';
import { retryDelayAfter } from '../../../src/webhooks/retry-schedule';
import type { AttemptOutcome, ClaimedWebhook, DeliveryMessage } from '../../../src/webhooks/types';
import { enqueueIfArchived } from '../archive/archive-delivery-queue';
import { hasArchiveOf } from '../archive/archive-store';
import { type LedgerDb, sqlOf } from '../db';
import type { LedgerContext } from '../ledger-context';
import {
  deferHeadIfParked,
  earliestParked,
  nextReadBackAt,
  PARK_BATCH_MS,
  PARK_MIN_WAIT_MS,
  readBackDue,
} from './delivery-parking';
import { type DeliveryRow, type DeliveryView, deliveryView } from './delivery-view';
import {
  deleteEvent,
  deleteEvents,
  dueHeads,
  eventData,
  findDelivery,
  insertDeliveries,
  keepPayloadOnRow,
  markPublished,
  newWebhookEvents,
  nextHeadDueAt,
  updateDelivery,
  updateDeliveryReturning,
} from './outbox-store';

/** How long a dispatched event may go without a reported outcome before it is sent again. */
export const LEASE_MS = 2 * 60_000;
/** Queue.sendBatch takes at most 100 messages. */
const DISPATCH_PER_DRAIN = 100;
/** Events adopted per drain: a few statements whatever the count (the lists travel as JSON). */
const ADOPT_PER_DRAIN = 200;

/**
 * New `webhook` outbox events become deliveries. True when more are waiting. Fixed statements on
 * the SQL API, a few per pass whatever the number of events: this runs for every event, and
 * drizzle's building and mapping (the event's data parsed, unused here) cost more than SQLite does.
 */
function adoptNewEvents(db: LedgerDb, now: number): boolean {
  const sql = sqlOf(db);
  const events = newWebhookEvents(sql, ADOPT_PER_DRAIN);
  if (events.length === 0) return false;
  insertDeliveries(
    sql,
    events.map((event) => {
      const deliverable = event.url !== null;
      return [
        event.event_id,
        event.seq,
        event.aggregate_id,
        event.event_type,
        event.url,
        deliverable ? 'PENDING' : 'UNDELIVERABLE',
        deliverable ? now : null,
        event.at,
      ];
    }),
    now,
  );
  // Ended at once: archived with its transaction if that is archived already (never, while nothing
  // of either kind was ever archived).
  const undeliverable = events.filter((e) => e.url === null);
  if (undeliverable.length > 0 && (hasArchiveOf(sql, 'cash-in') || hasArchiveOf(sql, 'cash-out')))
    for (const event of undeliverable) enqueueIfArchived(sql, event.aggregate_id);
  // A payload with nowhere to go is never read again: it leaves now (docs/storage-schema.md, Growth). The
  // others wait for their delivery to end (recordAttempt).
  const seqs = (keep: boolean) =>
    JSON.stringify(events.filter((e) => (e.url !== null) === keep).map((e) => e.seq));
  markPublished(sql, seqs(true), now);
  deleteEvents(sql, seqs(false));
  return events.length === ADOPT_PER_DRAIN;
}

/**
 * Marks the due head events IN_FLIGHT under a fresh lease; returns their queue messages. A head whose
 * transaction is parked (a new event of it) waits for its segment instead (delivery-parking.ts).
 */
function takeDueHeads(ledger: LedgerContext, now: number, parked: boolean): DeliveryMessage[] {
  const { db } = ledger;
  const clientId = ledger.profile.clientId;
  const due = dueHeads(db, now, DISPATCH_PER_DRAIN).filter(
    (row) => !deferHeadIfParked(ledger, row, now, parked),
  );
  return due.map((row) => {
    if (row.status === 'IN_FLIGHT') {
      log('warn', 'webhook dispatch got no report in time; sending again', {
        clientId,
        eventId: row.eventId,
        dispatch: row.dispatches,
      });
    }
    const dispatch = row.dispatches + 1;
    updateDelivery(db, row.seq, {
      status: 'IN_FLIGHT',
      dispatches: dispatch,
      dueAt: now + LEASE_MS,
      updatedAt: now,
    });
    return { clientId, eventId: row.eventId, dispatch };
  });
}

/**
 * When the dispatcher must run next: the earliest due head, or the read-back of the parked segment due
 * at `parkedDue`, if any.
 */
function nextDueAt(ledger: LedgerContext, now: number, parkedDue: number | undefined): number | undefined {
  const ats = [nextHeadDueAt(ledger.db), nextReadBackAt(parkedDue, now)].filter((at) => at !== undefined);
  return ats.length === 0 ? undefined : Math.min(...ats);
}

/** The `dispatch-webhooks` task: read back what is due soon, adopt, send what is due, schedule the next run. */
export async function dispatchWebhooks(ledger: LedgerContext): Promise<void> {
  await readBackDue(ledger, Date.now());
  const now = Date.now();
  const messages = ledger.storage.transactionSync(() => {
    const more = adoptNewEvents(ledger.db, now);
    // One look-up says both whether a head may wait for its segment and when the next read-back is.
    const parkedDue = earliestParked(ledger);
    const taken = takeDueHeads(ledger, now, parkedDue !== undefined);
    const wake = more ? now : nextDueAt(ledger, now, parkedDue);
    if (wake === undefined) ledger.scheduler.cancel('dispatch-webhooks', 'all');
    else ledger.scheduler.schedule('dispatch-webhooks', 'all', wake);
    return taken;
  });
  if (messages.length === 0) return;
  await ledger.crashes.reach('webhooks.leased');
  try {
    await ledger.env.WEBHOOKS.sendBatch(messages.map((body) => ({ body })));
  } catch (error) {
    // Nothing was queued: end the leases now so the task's retry sends them again.
    ledger.storage.transactionSync(() => {
      for (const m of messages) {
        const row = findDelivery(ledger.db, m.eventId);
        if (row?.status === 'IN_FLIGHT' && row.dispatches === m.dispatch)
          updateDelivery(ledger.db, row.seq, { dueAt: now });
      }
    });
    throw error;
  }
}

/** Something became due: the dispatch task runs now and works out its next run itself. */
export function dispatchSoon(ledger: LedgerContext, now: number): void {
  ledger.scheduler.schedule('dispatch-webhooks', 'all', now);
}

/**
 * The consumer is about to POST: hands out the event if this dispatch is still the live one, and
 * restarts its lease. Null (nothing to do) when it was delivered, given up or re-dispatched.
 */
export function claimWebhook(
  ledger: LedgerContext,
  eventId: string,
  dispatch: number,
  now: number,
): ClaimedWebhook | null {
  const row = findDelivery(ledger.db, eventId);
  if (row?.status !== 'IN_FLIGHT' || row.dispatches !== dispatch || row.url === null) return null;
  // A delivery given up and retried carries its payload on its row (keepPayloadOnRow).
  const data = eventData(ledger.db, row.seq)?.data ?? row.payload;
  if (data === null || data === undefined) return null;
  updateDelivery(ledger.db, row.seq, { dueAt: now + LEASE_MS, updatedAt: now });
  return { eventId, eventType: row.eventType, data, url: row.url };
}

/**
 * The outcome of one attempt. A success counts whichever dispatch it came from (the receiver has
 * the event); a failure only from the live dispatch, so a late duplicate cannot spend an attempt.
 */
export function recordAttempt(
  ledger: LedgerContext,
  eventId: string,
  dispatch: number,
  outcome: AttemptOutcome,
  now: number,
): void {
  const row = findDelivery(ledger.db, eventId);
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
      payload: null,
    };
  } else if (!live) {
    return;
  } else if (outcome.kind === 'refused') {
    // Nothing was sent, so no attempt is counted.
    changes = {
      status: 'UNDELIVERABLE',
      dueAt: null,
      lastError: outcome.error,
      updatedAt: now,
      payload: null,
    };
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
  ledger.storage.transactionSync(() => {
    updateDelivery(ledger.db, row.seq, changes);
    if (changes.status === 'DELIVERED' || changes.status === 'UNDELIVERABLE') {
      // Never sent again (the operator retries FAILED and GIVEN_UP only; a redelivered message of
      // an ended delivery is acknowledged unread): the payload goes with the outcome (docs/storage-schema.md,
      // Growth).
      deleteEvent(ledger.db, row.seq);
    }
    // Given up, only an operator retry sends it again: its payload moves onto its row, which can
    // then go to the archive alone (docs/storage-schema.md, Idempotency keys and delivery lists).
    if (changes.status === 'GIVEN_UP') keepPayloadOnRow(ledger.storage.sql, row.seq);
    // Ended after its transaction was archived: it follows it (archive-delivery-queue.ts).
    if (changes.dueAt === null) enqueueIfArchived(ledger.storage.sql, row.aggregateId);
    // A long wait ahead: the delivery may be parked meanwhile (delivery-parking.ts), with others failing about now.
    if (changes.status === 'FAILED' && (changes.dueAt as number) - now >= PARK_MIN_WAIT_MS)
      ledger.scheduler.scheduleAll([['park-webhooks', 'all', now + PARK_BATCH_MS]]);
    dispatchSoon(ledger, now);
  });
}

/** Operator retry: a FAILED or GIVEN_UP event is due now, on a fresh schedule. */
export function retryDelivery(
  ledger: LedgerContext,
  eventId: string,
  now: number,
): OperationResult<DeliveryView> {
  const row = findDelivery(ledger.db, eventId);
  if (!row) return failure({ code: 'NOT_FOUND', detail: 'No webhook delivery has this eventId' });
  if (row.status !== 'FAILED' && row.status !== 'GIVEN_UP') {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only FAILED or GIVEN_UP deliveries can be retried; this one is ${row.status}`,
    });
  }
  const updated = ledger.storage.transactionSync(() => {
    const next = updateDeliveryReturning(ledger.db, row.seq, {
      status: 'PENDING',
      attempts: 0,
      dueAt: now,
      updatedAt: now,
    });
    dispatchSoon(ledger, now);
    return next;
  });
  return success(200, deliveryView(updated));
}
