/**
 * Time-driven work of one client (expiry, partner status polls, outbox flushes, Cash-Out execution):
 * tasks in storage, one alarm set to the earliest. The alarm is the primary path; the cron sweep
 * only re-arms it, so nothing time-critical depends on cron.
 */
import { asc, eq, lte, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type LedgerDb, sqlOf } from './db';
import { ph, prepared } from './prepared';
import { tasks } from './schema';

export type TaskKind =
  | 'expire-cash-in'
  | 'poll-refund'
  | 'assign-e2e'
  | 'flush-outbox'
  /** Every due Cash-Out, in one pass (cash-out-exec.ts). */
  | 'cash-out-exec'
  | 'dispatch-webhooks'
  /** Open webhook deliveries waiting long for their next attempt go to R2 while over budget (delivery-parking.ts). */
  | 'park-webhooks'
  /** A client devolution a bank return overtook, followed to its end (refund-ops.ts). */
  | 'poll-superseded-devolution'
  /** The next pruning step: soon if the last was full, else when the oldest kept row ages out (prune.ts). */
  | 'prune'
  /** A real partner's paid Cash-In read again for bank returns whose callback was lost (return-rechecks.ts). */
  | 'recheck-returns'
  /** A cancelled Cash-In's charge taken down at its partner, so no payer can pay it (partner-pix-ops.ts). */
  | 'remove-charge'
  /** An unapplied receipt's return to its payer, step by step (unapplied-ops.ts). */
  | 'return-unapplied'
  /** The next archiving step: closed Cash-Ins past the retention window to R2 (archive.ts). */
  | 'archive'
  /** A recurrence the payer did not answer in time ends EXPIRED (recurrence-ops.ts). */
  | 'expire-recurrence'
  /** A real partner's recurrence waiting for the payer, read again (recurrence-rechecks.ts). */
  | 'recheck-recurrence'
  /** A real partner's cycle charge read again after each attempt window (recurrence-rechecks.ts). */
  | 'recheck-recurring-charge';
export type Task = typeof tasks.$inferSelect;

export class Scheduler {
  /** Tasks written so far by this object: a running pass re-arms until it stops changing (tasks.ts). */
  scheduled = 0;
  /**
   * The alarm time this instance set and has not seen fire yet (memory only: a new instance asks
   * storage), and the earliest due time scheduled since: arm() has nothing to do while that alarm
   * comes first, and its run arms again when it ends. Infinity: no task was left at the last look,
   * so only a newly scheduled one needs the alarm.
   */
  private armedAt: number | undefined;
  private earliest = Number.POSITIVE_INFINITY;

  constructor(
    private readonly db: LedgerDb,
    private readonly storage: DurableObjectStorage,
  ) {}

  /** Adds (or moves) the task `kind:ref`; call inside the transaction that creates the need. */
  schedule(kind: TaskKind, ref: string, dueAt: number): void {
    this.scheduled += 1;
    this.earliest = Math.min(this.earliest, dueAt);
    prepared(this.db, 'tasks.schedule', () =>
      this.db
        .insert(tasks)
        .values({ id: ph('id'), kind: ph('kind'), ref: ph('ref'), dueAt: ph('dueAt') })
        .onConflictDoUpdate({ target: tasks.id, set: { dueAt: sql`excluded.due_at` } })
        .prepare(),
    ).run({ id: `${kind}:${ref}`, kind, ref, dueAt });
  }

  /**
   * Several tasks in one statement (a new Cash-In's dispatch, flush and expiry), each added or moved
   * earlier: one already due sooner stays as it is, unwritten (the dispatch and flush tasks are due
   * already while a busy object's alarm catches up). At most 25: a query binds at most 100 values.
   */
  scheduleAll(list: readonly (readonly [kind: TaskKind, ref: string, dueAt: number])[]): void {
    if (list.length === 0) return;
    if (list.length > 25) throw new RangeError('scheduleAll takes at most 25 tasks');
    this.scheduled += list.length;
    for (const [, , dueAt] of list) this.earliest = Math.min(this.earliest, dueAt);
    sqlOf(this.db).exec(
      `INSERT INTO tasks (id, kind, ref, due_at) VALUES ${list.map(() => '(?, ?, ?, ?)').join(', ')}
       ON CONFLICT (id) DO UPDATE SET due_at = excluded.due_at WHERE excluded.due_at < tasks.due_at`,
      ...list.flatMap(([kind, ref, dueAt]) => [`${kind}:${ref}`, kind, ref, dueAt]),
    );
  }

  exists(kind: TaskKind, ref: string): boolean {
    return (
      this.db
        .select({ id: tasks.id })
        .from(tasks)
        .where(eq(tasks.id, `${kind}:${ref}`))
        .get() !== undefined
    );
  }

  /** When the task `kind:ref` is due, or undefined when none is scheduled. */
  dueAt(kind: TaskKind, ref: string): number | undefined {
    return this.db
      .select({ dueAt: tasks.dueAt })
      .from(tasks)
      .where(eq(tasks.id, `${kind}:${ref}`))
      .get()?.dueAt;
  }

  cancel(kind: TaskKind, ref: string): void {
    this.db
      .delete(tasks)
      .where(eq(tasks.id, `${kind}:${ref}`))
      .run();
  }

  /** The due tasks, at most 100: built once (every alarm run asks, often many times a second). */
  due(now: number): Task[] {
    return prepared(this.db, 'tasks.due', () =>
      this.db
        .select()
        .from(tasks)
        .where(lte(tasks.dueAt, ph('now')))
        .orderBy(asc(tasks.dueAt))
        .limit(100)
        .prepare(),
    ).all({ now });
  }

  done(task: Task): void {
    prepared(this.db, 'tasks.done', () =>
      this.db
        .delete(tasks)
        .where(eq(tasks.id, ph('id')))
        .prepare(),
    ).run({ id: task.id });
  }

  /** Moves the task `kind:ref` to `atLeast` if it is due earlier; never creates one. */
  postpone(kind: TaskKind, ref: string, atLeast: number): void {
    sqlOf(this.db).exec(
      'UPDATE tasks SET due_at = ? WHERE id = ? AND due_at < ?',
      atLeast,
      `${kind}:${ref}`,
      atLeast,
    );
  }

  /** The task runs again at `dueAt` with its `attempts` set (a poll that backs off by its count). */
  again(task: Task, dueAt: number, attempts: number): void {
    this.scheduled += 1;
    this.earliest = Math.min(this.earliest, dueAt);
    sqlOf(this.db).exec('UPDATE tasks SET due_at = ?, attempts = ? WHERE id = ?', dueAt, attempts, task.id);
  }

  /** A failed task runs again later, backing off up to a minute. */
  retry(task: Task, now: number): void {
    const delay = Math.min(60_000, 1_000 * 2 ** Math.min(task.attempts, 6));
    this.earliest = Math.min(this.earliest, now + delay);
    this.db
      .update(tasks)
      .set({ dueAt: now + delay, attempts: task.attempts + 1 })
      .where(eq(tasks.id, task.id))
      .run();
  }

  /** Points the alarm at the earliest task (or clears it). */
  async arm(): Promise<void> {
    // The alarm this instance set has not fired and nothing scheduled since is due before it: it
    // runs them all (one look-up, an alarm read and often a write saved on every operation).
    if (this.armedAt !== undefined && this.earliest >= this.armedAt) return;
    this.earliest = Number.POSITIVE_INFINITY;
    const next = prepared(this.db, 'tasks.next', () =>
      this.db.select({ dueAt: tasks.dueAt }).from(tasks).orderBy(asc(tasks.dueAt)).limit(1).prepare(),
    ).get();
    if (!next) {
      // No task: nothing to arm until one is scheduled (an operation that schedules nothing, like a
      // 202 while the executor's pass is already due, then costs no look-up).
      this.armedAt = Number.POSITIVE_INFINITY;
      return;
    }
    const current = await this.storage.getAlarm();
    // An alarm time already past is either about to fire, running now (its handler took its task
    // list before this task existed), or lost. Trusting it for up to a minute, as before, left a
    // new task to the minute's cron sweep: Cash-Outs PROCESSING for up to 60 s (seen in the soak).
    // Setting it again costs one write and never delays anything.
    const overdue = current !== null && current <= Date.now();
    if (current === null || current > next.dueAt || overdue) {
      await this.storage.setAlarm(next.dueAt);
      this.armedAt = next.dueAt;
    } else this.armedAt = current;
  }

  /** The alarm fired: until arm() sets another, none of this instance's is known to be pending. */
  alarmFired(): void {
    this.armedAt = undefined;
  }
}

/**
 * A subquery that finds any task still working on the Cash-In whose transaction id is `transactionId`
 * (a column of the outer query): a charge removal or refund poll being retried, an end-to-end id
 * being assigned, a superseded devolution followed. Primary-key look-ups of the task ids
 * (`kind:ref`); a superseded devolution's task is named by the client's devolution id, which the row
 * no longer holds once the bank's return replaced it: it is found as the key range of every
 * `poll-superseded-devolution:<transactionId>|…` id ('}' follows '|').
 */
export function cashInWorkQuery(transactionId: SQLWrapper): SQL {
  return sql`SELECT 1 FROM tasks WHERE id IN (
  'remove-charge:' || ${transactionId}, 'poll-refund:' || ${transactionId},
  'assign-e2e:' || ${transactionId})
  OR (id > 'poll-superseded-devolution:' || ${transactionId} || '|'
    AND id < 'poll-superseded-devolution:' || ${transactionId} || '}')`;
}

/** Every row, oldest first: what the tests assert on (test/support/ledger-reads.ts), read here so the table keeps one home. */
export function allTasks(db: LedgerDb): Task[] {
  return db.select().from(tasks).orderBy(tasks.dueAt, tasks.id).all();
}
