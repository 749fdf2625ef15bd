/**
 * The Cash-Out executor: one alarm task (`cash-out-exec:all`) takes every due Cash-Out in one pass
 * instead of one task per Cash-Out. A Cash-Out is due while its `next_at` (a partial index)
 * is set and past. A pass, in phases, each phase's writes one storage transaction:
 *
 * 1. in flight (SENDING, SENT): their statuses, one call per partner for all of them; settled ones are booked
 *    (PIX_OUT through one entry cursor per account), failed ones cancelled, pending ones polled
 *    again in POLL_MS, unknown ones (never arrived) sent again;
 * 2. RECEIVED: limits, duplicates, routing and the reservation, one after another, so later ones
 *    see earlier reservations (limit totals and available funds are kept in memory for the pass);
 * 3. APPROVED: marked SENDING, then one `sendPayments` per partner, then SENT (or CANCELLED).
 *
 * Crash safety is the step-by-step execution's: the same crash points sit between the same writes
 * and awaits, for the whole pass at once. A pass that dies leaves each Cash-Out at a stage whose
 * recovery is the same as before (SENDING asks the partner before sending again, under the same
 * idempotency id), and its task due, so the runtime's retry of the alarm runs the pass again.
 * The executor is the only writer of these stages while a pass runs (the TaskRunner runs one pass
 * at a time; approval, rejection and bank returns touch other stages), so rows read at the start
 * of a pass are still what they say after its awaits.
 */

import type { ClientRow } from '../../../src/db/clients';
import { log } from '../../../src/infra/log';
import type { PartnerOutcome, SettlementPartnerPort, StatusOrUnread } from '../../../src/partners/port';
import { partnerPort } from '../../../src/partners/port-registry';
import type { LedgerDb } from '../db';
import type { LedgerContext } from '../ledger-context';
import type { Task } from '../scheduler';
import { CashOutBook } from './cash-out-book';
import { type CashOutRow, cashOutsDue, nextCashOutDue } from './cash-out-store';

/** How often a payment in flight is checked at the partner. */
export const POLL_MS = 500;
/** A payment the partner did not answer (or a status it did not give) is tried again after this. */
const RETRY_MS = 5_000;
/** A settlement whose entry was refused (should never happen) is looked at again after this. */
const REFUSED_MS = 60_000;
/** Cash-Outs per pass; the rest are due at once and taken by the next pass. */
export const EXEC_PASS_SIZE = 200;

const UNANSWERED = { ok: false, failureCode: 'PROVIDER_UNAVAILABLE', retryable: true } as const;

/**
 * Per object, in memory: the executor's task exists and is due at this time or sooner. It lets a
 * 202 skip writing the task when a pass is already due; it is set only after the write committed
 * and dropped whenever a pass starts, so it can only be missing (a write too many), never wrong.
 */
const woken = new WeakMap<LedgerDb, number>();

/** Inside the transaction that made a Cash-Out due at `at`: make sure a pass runs by then. */
export function wakeExecutor(ledger: LedgerContext, at: number): void {
  const due = woken.get(ledger.db);
  if (due === undefined || due > at) ledger.scheduler.schedule('cash-out-exec', 'all', at);
}

/** After that transaction committed: the task is due by `at`. */
export function executorWoken(db: LedgerDb, at: number): void {
  const due = woken.get(db);
  if (due === undefined || at < due) woken.set(db, at);
}

function dueCashOuts(db: LedgerDb, now: number): CashOutRow[] {
  return cashOutsDue(db, now, EXEC_PASS_SIZE);
}

function nextDue(db: LedgerDb): number | undefined {
  return nextCashOutDue(db);
}

/** The `cash-out-exec` task: one pass, then the task is due again at the next due Cash-Out. */
export async function runCashOutExecutor(
  ledger: LedgerContext,
  task: Task,
  client: () => Promise<ClientRow | undefined>,
  degradedPartners: () => Promise<ReadonlySet<string>>,
): Promise<void> {
  woken.delete(ledger.db);
  await executePass(ledger, client, degradedPartners);
  // After the last await: a Cash-Out accepted during the pass is seen here.
  const next = nextDue(ledger.db);
  if (next === undefined) {
    ledger.scheduler.done(task);
    return;
  }
  ledger.scheduler.schedule('cash-out-exec', 'all', next);
  woken.set(ledger.db, next);
}

async function executePass(
  ledger: LedgerContext,
  client: () => Promise<ClientRow | undefined>,
  degradedPartners: () => Promise<ReadonlySet<string>>,
): Promise<void> {
  const due = dueCashOuts(ledger.db, Date.now());
  if (due.length === 0) return;
  const inFlight = due.filter((r) => r.stage === 'SENDING' || r.stage === 'SENT');
  const received = due.filter((r) => r.stage === 'RECEIVED');
  const toSend = due.filter((r) => r.stage === 'APPROVED');
  if (inFlight.length > 0) toSend.push(...(await follow(ledger, inFlight)));
  if (received.length > 0) toSend.push(...(await reserve(ledger, received, client, degradedPartners)));
  if (toSend.length > 0) await send(ledger, toSend);
}

/** One call per partner over its Cash-Outs; the answers in `rows`' order. A call that throws
 * answers `failed` for its partner's Cash-Outs only. */
async function perPartner<R>(
  ledger: LedgerContext,
  rows: CashOutRow[],
  call: (port: SettlementPartnerPort, rows: CashOutRow[]) => Promise<R[]>,
  failed: (error: unknown) => R,
): Promise<R[]> {
  const groups = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const ispb = row.partnerIspb as string;
    const group = groups.get(ispb);
    if (group) group.push(i);
    else groups.set(ispb, [i]);
  });
  const answers = new Array<R>(rows.length);
  await Promise.all(
    [...groups].map(async ([ispb, indices]) => {
      let got: R[];
      try {
        got = await call(
          partnerPort(ledger.env, ispb),
          indices.map((i) => rows[i] as CashOutRow),
        );
      } catch (error) {
        got = indices.map(() => failed(error));
      }
      indices.forEach((i, j) => {
        answers[i] = got[j] ?? failed(new Error(`partner ${ispb} gave no answer`));
      });
    }),
  );
  return answers;
}

/** Phase 1: where the payments in flight stand; returns those the partner never got. */
async function follow(ledger: LedgerContext, rows: CashOutRow[]): Promise<CashOutRow[]> {
  // After a crash in SENDING we do not know whether the partner got it: ask, never guess.
  const statuses = await perPartner<StatusOrUnread>(
    ledger,
    rows,
    (port, group) => port.transferStatuses(group.map((r) => r.transactionId)),
    (error) => ({ state: 'UNREAD', reason: error instanceof Error ? error.message : String(error) }),
  );
  await ledger.crashes.reach('cash-out.status-read');
  const now = Date.now();
  const resend: CashOutRow[] = [];
  const pending: number[] = [];
  const unread: number[] = [];
  const refused: number[] = [];
  ledger.storage.transactionSync(() => {
    const book = new CashOutBook(ledger, now);
    rows.forEach((row, i) => {
      const status = statuses[i] as StatusOrUnread;
      if (status.state === 'UNKNOWN') resend.push(row);
      else if (status.state === 'PENDING') pending.push(row.seq);
      else if (status.state === 'UNREAD') unread.push(row.seq);
      else if (status.state === 'FAILED') book.cancel(row, status.failureCode, true);
      else if (!book.complete(row, status)) refused.push(row.seq);
    });
    book.move(pending, 'SENT', now + POLL_MS);
    book.move(unread, undefined, now + RETRY_MS);
    book.move(refused, undefined, now + REFUSED_MS);
    book.close();
  });
  if (unread.length > 0)
    log('warn', 'cash-out statuses unread; asking again later', { count: unread.length });
  if (refused.length > 0) log('error', 'settled cash-out entry refused', { count: refused.length });
  return resend;
}

/** Phase 2: reservations of the RECEIVED ones; returns those approved to be sent. */
async function reserve(
  ledger: LedgerContext,
  rows: CashOutRow[],
  client: () => Promise<ClientRow | undefined>,
  degradedPartners: () => Promise<ReadonlySet<string>>,
): Promise<CashOutRow[]> {
  const [config, degraded] = await Promise.all([client(), degradedPartners()]);
  await ledger.crashes.reach('cash-out.checked');
  return ledger.storage.transactionSync(() => {
    const book = new CashOutBook(ledger, Date.now());
    const approved = book.reserveAll(rows, config, degraded);
    book.close();
    return approved;
  });
}

/** Phase 3: SENDING, the payments (one call per partner), then SENT, a retry or CANCELLED. */
async function send(ledger: LedgerContext, rows: CashOutRow[]): Promise<void> {
  await ledger.crashes.reach('cash-out.approved');
  ledger.storage.transactionSync(() =>
    new CashOutBook(ledger, Date.now()).move(
      rows.map((r) => r.seq),
      'SENDING',
      Date.now(),
    ),
  );
  await ledger.crashes.reach('cash-out.sending');
  const answers = await perPartner<PartnerOutcome<{ acceptedAt: number }>>(
    ledger,
    rows,
    (port, group) =>
      port.sendPayments(
        group.map((row) => ({
          idempotencyId: row.transactionId,
          amountCents: row.amount,
          payee: { name: row.payeeName, document: row.payeeDocument, destination: row.destination },
          description: row.description,
        })),
      ),
    () => UNANSWERED,
  );
  await ledger.crashes.reach('cash-out.payment-sent');
  const now = Date.now();
  ledger.storage.transactionSync(() => {
    const book = new CashOutBook(ledger, now);
    const sent: number[] = [];
    const retry: number[] = [];
    rows.forEach((row, i) => {
      const answer = answers[i] as PartnerOutcome<{ acceptedAt: number }>;
      if (answer.ok) sent.push(row.seq);
      else if (answer.retryable) retry.push(row.seq);
      else book.cancel(row, answer.failureCode, true);
    });
    book.move(sent, 'SENT', now + POLL_MS);
    book.move(retry, undefined, now + RETRY_MS);
    book.close();
  });
}
