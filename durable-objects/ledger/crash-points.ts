/**
 * The places where a real crash can separate two steps of an operation: an await (a partner call, a
 * queue send), since the writes between two awaits commit together. Operations name them with
 * `ledger.crashes.reach(point)`. In production the hook is NO_CRASHES and every point passes; the
 * staging entry's ClientLedger arms them for the recovery tests (test/crash/) through the crash
 * injection of durable-objects/staging/crash-injection.ts, which the production bundle does not
 * contain.
 */
export const CRASH_POINTS = [
  /** The partner registered the charge; the Cash-In is not stored yet. */
  'cash-in.charge-registered',
  /** The refund's hold and PROCESSING are committed; the devolution was not sent. */
  'refund.held',
  /** The partner accepted the devolution; the 202 was not answered. */
  'refund.sent',
  /** The partner's answer on a devolution was read; nothing was recorded. */
  'refund.status-read',
  /** A Cash-Out batch and all its items are committed; the 202 was not answered. */
  'cash-out-batch.accepted',
  /** A Cash-Out's limits and routing inputs were read; nothing is reserved. */
  'cash-out.checked',
  /** The money is reserved (APPROVED); SENDING was not recorded. */
  'cash-out.approved',
  /** SENDING is committed; the payment was not sent. */
  'cash-out.sending',
  /** The partner accepted the payment; SENT was not recorded. */
  'cash-out.payment-sent',
  /** The partner's outcome of the payment was read; nothing was recorded. */
  'cash-out.status-read',
  /** An unapplied receipt is booked (and listed); its devolution was not requested. */
  'unapplied.booked',
  /** The partner's answer on an unapplied receipt's devolution was read; nothing was recorded. */
  'unapplied.step-read',
  /** Health observations are on the queue; they were not marked published. */
  'outbox.health-sent',
  /** Webhook dispatches are leased; their messages were not put on the queue. */
  'webhooks.leased',
  /** A segment of parked webhook deliveries is in R2; they and their payloads were not deleted. */
  'webhooks.parked-written',
  /** An archive segment is in R2; its rows were not deleted nor indexed. */
  'archive.segment-written',
  /** A Cash-Out archive segment is in R2; its rows were not deleted nor indexed. */
  'archive.cash-out-written',
  /** A ledger-entry archive segment is in R2; its entries were not deleted. */
  'archive.ledger-written',
  /** A segment's ids are in the archive registry; its rows were not deleted. */
  'archive.ids-registered',
  /** A segment of ended webhook deliveries is in R2; they and their payloads were not deleted. */
  'archive.deliveries-written',
  /** A manifest run's body is in R2; its segments' rows were not deleted from the object. */
  'archive.run-written',
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

/** What an operation calls at a crash point. */
export interface CrashHook {
  reach(point: CrashPoint): Promise<void>;
}

/** Production's hook: no point is ever armed. */
export const NO_CRASHES: CrashHook = { reach: async () => {} };
