/**
 * Staging-only crash injection for the recovery tests (test/crash/). A point names a place where a
 * real crash can separate two steps of an operation: an await (a partner call, a queue send), since
 * the writes between two awaits commit together. An armed point makes everything committed so far
 * durable, leaves a `crashed:<point>` key as a trace, then aborts the object: its memory is gone and
 * nothing after the point runs, as after an eviction or a machine failure. Recovery is then up to
 * the alarm (retried by the runtime when it dies), the cron sweep and the client's retries.
 * Only `ClientLedger.armCrash` arms points and it refuses outside staging, so in production
 * `reach` is a lookup in an empty set.
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
  /** Health observations are on the queue; they were not marked published. */
  'outbox.health-sent',
  /** Webhook dispatches are leased; their messages were not put on the queue. */
  'webhooks.leased',
  /** An archive segment is in R2; its rows were not deleted nor indexed. */
  'archive.segment-written',
  /** A Cash-Out archive segment is in R2; its rows were not deleted nor indexed. */
  'archive.cash-out-written',
  /** A ledger-entry archive segment is in R2; its entries were not deleted. */
  'archive.ledger-written',
  /** A segment of ended webhook deliveries is in R2; they and their payloads were not deleted. */
  'archive.deliveries-written',
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

export class CrashPoints {
  private readonly armed = new Set<CrashPoint>();

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly abort: (reason: string) => void,
  ) {}

  arm(point: CrashPoint): void {
    this.armed.add(point);
  }

  /** Dies here if the point is armed (once); otherwise does nothing. */
  async reach(point: CrashPoint): Promise<void> {
    if (!this.armed.delete(point)) return;
    // The trace tells a test the crash really happened (memory does not survive it).
    await this.storage.put(`crashed:${point}`, Date.now());
    await this.storage.sync();
    this.abort(`simulated crash at ${point}`);
    throw new Error(`simulated crash at ${point}`);
  }
}
