import { findClient } from '../../src/db/clients';
import { brtDate } from '../../src/domain/time';
import { errorFields, log } from '../../src/infra/log';
import { PartnerTimeout } from '../../src/partners/timeout';
import { armArchive, overBudget, runArchiveTask } from './archive/archive';
import { pollSupersededDevolution } from './cash-in/bank-returns';
import { expireUnlessPaid } from './cash-in/cash-in-expiry';
import { assignEndToEndId } from './cash-in/cash-in-settle-ops';
import { removeCharge } from './cash-in/partner-pix-ops';
import { PartnerReads } from './cash-in/partner-reads';
import { pollRefund } from './cash-in/refund-ops';
import { recheckReturns } from './cash-in/return-rechecks';
import { FAILED_READS_PER_PASS, runReturn, scheduleUnreadFailedReturns } from './cash-in/unapplied-ops';
import { runCashOutExecutor } from './cash-out/cash-out-exec';
import { pruneLimitTotals } from './cash-out/limit-totals';
import type { LedgerContext } from './ledger-context';
import {
  expireUnlessAnswered,
  isPartnerRecurringCharge,
  recheckRecurrence,
  recheckRecurringCharge,
} from './recurrence/recurrence-rechecks';
import type { Task } from './scheduler';
import { parkingDue, parkWebhooks } from './webhooks/delivery-parking';
import { dropPublished, unpublishedObservations } from './webhooks/events';
import { dispatchWebhooks } from './webhooks/webhook-deliveries';

/** Outbox rows per flush step (a row holds one observation, or a Cash-Out pass's many). */
const OUTBOX_ROWS_PER_FLUSH = 50;
/** Queue.sendBatch takes at most 100 messages. */
const QUEUE_SEND_MAX = 100;
/** A single task running longer than this is logged as stalled (partner calls time out at 5 s). */
const TASK_STALL_MS = 30_000;
/**
 * Housekeeping (pruning, limit totals, archive arming) runs at most this often from the alarm: a
 * busy object's alarm runs many times a second, and each step is a few index reads that find
 * nothing new. Its own `prune` task being due, and the cron sweep, always run it.
 */
const HOUSEKEEPING_MS = 1_000;

/** Runs the due tasks, one run at a time: the alarm and a cron sweep may overlap. */
export class TaskRunner {
  private running: Promise<void> | undefined;
  /** The task being run and since when: a run that never ends is reported, not silently waited on. */
  private current: { id: string; since: number } | undefined;
  /** When the alarm's next housekeeping is allowed (memory only: a fresh instance runs it at once). */
  private housekeepingAt = 0;
  /** The BRT month whose stale limit totals are all gone: none can become stale before the next. */
  private limitTotalsClean: string | undefined;
  /** FAILED unapplied returns with no read scheduled may remain (memory only: each instance checks). */
  private failedReadsUnchecked = true;

  constructor(
    private readonly context: () => LedgerContext,
    /**
     * Housekeeping after the tasks (pruning, ledger/prune.ts), in bounded steps; `pruneDue`: this
     * run ran the `prune` task.
     */
    private readonly housekeeping: (now: number, pruneDue: boolean) => void,
    private readonly degradedCashOutPartners: () => Promise<ReadonlySet<string>>,
  ) {}

  /** A run is going on: it arms the alarm for whatever is scheduled meanwhile before it ends. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** `full`: housekeeping without its shortcuts (the cron sweep's backstop, once a minute). */
  runDue(full = false): Promise<void> {
    if (this.running) {
      const age = this.current ? Date.now() - this.current.since : 0;
      if (age > TASK_STALL_MS)
        log('error', 'ledger task stalled', { task: this.current?.id, runningForMs: age });
      return this.running;
    }
    this.running = this.runOnce(full).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runOnce(full: boolean): Promise<void> {
    const ledger = this.context();
    const now = Date.now();
    const reads = new PartnerReads();
    let pruneDue = full;
    try {
      // The cron sweep gives FAILED returns kept from before they were read again their read (unapplied-ops.ts).
      if (full && this.failedReadsUnchecked)
        this.failedReadsUnchecked =
          ledger.storage.transactionSync(() => scheduleUnreadFailedReturns(ledger, now)) ===
          FAILED_READS_PER_PASS;
      for (const task of ledger.scheduler.due(now)) {
        if (task.kind === 'prune') pruneDue = true;
        this.current = { id: task.id, since: Date.now() };
        try {
          await runTask(ledger, task, this.degradedCashOutPartners, reads);
        } catch (error) {
          // A partner that did not answer a read in time (src/partners/timeout.ts) is a transient:
          // the read wrote nothing and the task reads again; only other failures are errors.
          if (error instanceof PartnerTimeout)
            log('warn', 'ledger task runs again: a partner did not answer in time', {
              task: task.id,
              ...errorFields(error),
            });
          else log('error', 'ledger task failed', { task: task.id, ...errorFields(error) });
          ledger.scheduler.retry(task, Date.now());
        } finally {
          this.current = undefined;
        }
      }
      // Each step below has its own shortcut (pruning waits for its next row to age out, limit
      // totals for a new day); the gate spares a busy object's alarm even their look-ups.
      if (full || pruneDue || now >= this.housekeepingAt) {
        this.housekeepingAt = now + HOUSEKEEPING_MS;
        this.housekeeping(now, pruneDue);
        const day = brtDate(now);
        if ((full || this.limitTotalsClean !== day) && pruneLimitTotals(ledger.db, now) === 0)
          this.limitTotalsClean = day;
        armArchive(ledger, now);
      }
    } finally {
      // Operations that scheduled work while this run went on left the alarm to it (ClientLedger's
      // withAlarm skips arming while busy): arm again until nothing new was scheduled meanwhile.
      // Nothing can run between the last check and `running` being cleared (microtasks only).
      for (let seen = -1; seen !== ledger.scheduler.scheduled; ) {
        seen = ledger.scheduler.scheduled;
        await ledger.scheduler.arm();
      }
    }
  }
}

export async function runTask(
  ledger: LedgerContext,
  task: Task,
  degradedCashOutPartners: () => Promise<ReadonlySet<string>>,
  reads = new PartnerReads(),
): Promise<void> {
  switch (task.kind) {
    case 'expire-cash-in': {
      if (isPartnerRecurringCharge(ledger, task.ref)) {
        ledger.scheduler.done(task);
        ledger.scheduler.schedule('recheck-recurring-charge', task.ref, Date.now());
        return;
      }
      const again = await expireUnlessPaid(ledger, task.ref, reads);
      if (again === undefined) ledger.scheduler.done(task);
      else ledger.scheduler.schedule('expire-cash-in', task.ref, again);
      return;
    }
    case 'recheck-returns': {
      const again = await recheckReturns(ledger, task.ref, reads);
      if (again === undefined) ledger.scheduler.done(task);
      else ledger.scheduler.schedule('recheck-returns', task.ref, again);
      return;
    }
    case 'assign-e2e':
      ledger.scheduler.done(task);
      assignEndToEndId(ledger, task.ref);
      return;
    case 'poll-superseded-devolution': {
      const again = await pollSupersededDevolution(ledger, task.ref);
      if (again === undefined) ledger.scheduler.done(task);
      else ledger.scheduler.schedule('poll-superseded-devolution', task.ref, again);
      return;
    }
    case 'poll-refund': {
      // Its attempts count the reads that found the devolution in flight (refund-ops.ts).
      const again = await pollRefund(ledger, task.ref, task.attempts);
      if (again === undefined) ledger.scheduler.done(task);
      else ledger.scheduler.again(task, again.at, again.inFlightReads);
      return;
    }
    case 'remove-charge': {
      const again = await removeCharge(ledger, task.ref);
      if (again === undefined) ledger.scheduler.done(task);
      else ledger.scheduler.schedule('remove-charge', task.ref, again);
      return;
    }
    case 'return-unapplied': {
      const again = await runReturn(ledger, task.ref);
      if (again === undefined) ledger.scheduler.done(task);
      else ledger.scheduler.schedule('return-unapplied', task.ref, again);
      return;
    }
    case 'cash-out-exec':
      // Reschedules (or ends) itself after its pass.
      await runCashOutExecutor(
        ledger,
        task,
        () => findClient(ledger.env, ledger.profile.clientId),
        degradedCashOutPartners,
      );
      return;
    case 'dispatch-webhooks':
      // Reschedules (or cancels) itself inside its own transaction.
      await dispatchWebhooks(ledger);
      return;
    case 'archive':
      await runArchiveTask(ledger);
      return;
    case 'park-webhooks': {
      // Over the object's size budget only: below it, open deliveries stay hot as they always did.
      const more = overBudget(ledger) && (await parkWebhooks(ledger, Date.now()));
      // Deliveries that failed while the step ran may wait to be parked too.
      if (more || (overBudget(ledger) && parkingDue(ledger, Date.now())))
        ledger.scheduler.schedule('park-webhooks', 'all', Date.now() + 1_000);
      else ledger.scheduler.done(task);
      return;
    }
    case 'expire-recurrence': {
      const again = await expireUnlessAnswered(ledger, task.ref, reads);
      if (again === undefined) ledger.scheduler.done(task);
      else ledger.scheduler.schedule('expire-recurrence', task.ref, again);
      return;
    }
    case 'recheck-recurrence': {
      const again = await recheckRecurrence(ledger, task.ref, reads);
      if (again === undefined) ledger.scheduler.done(task);
      else ledger.scheduler.schedule('recheck-recurrence', task.ref, again);
      return;
    }
    case 'recheck-recurring-charge': {
      const again = await recheckRecurringCharge(ledger, task.ref, reads);
      if (again === undefined) ledger.scheduler.done(task);
      else ledger.scheduler.schedule('recheck-recurring-charge', task.ref, again);
      return;
    }
    case 'flush-outbox':
      await flushHealthOutbox(ledger);
      ledger.scheduler.done(task);
      return;
    default:
      ledger.scheduler.done(task);
  }
}

/**
 * Hands health observations to their queue, then deletes them. A crash between send and delete re-sends them
 * (at-least-once); the analyzer drops duplicates by event id. Webhook events stay in the outbox
 * for the delivery pipeline.
 */
export async function flushHealthOutbox(ledger: LedgerContext): Promise<void> {
  for (;;) {
    const rows = unpublishedObservations(ledger, OUTBOX_ROWS_PER_FLUSH);
    if (rows.length === 0) return;
    const messages = rows.flatMap((r) => r.messages.map((body) => ({ body })));
    for (let i = 0; i < messages.length; i += QUEUE_SEND_MAX)
      await ledger.env.HEALTH_SIGNALS.sendBatch(messages.slice(i, i + QUEUE_SEND_MAX));
    await ledger.crashes.reach('outbox.health-sent');
    dropPublished(
      ledger,
      rows.map((r) => r.seq),
    );
  }
}
