/**
 * Refunds of a paid Cash-In (docs/contract.md, Cash-In lifecycle): the money is held, the devolution is sent
 * under its own end-to-end id (its idempotency id at the partner), polled, and settled as one transaction
 * with its ledger entry and CASHIN_REFUNDED. Which states can be refunded is src/domain/transitions.ts.
 * Bank-initiated returns are in bank-returns.ts.
 */

import type { RefundAcceptedBody } from '../../../src/api/cash-in/schemas';
import { answerAbout } from '../../../src/domain/fixed-fields';
import { newEndToEndId } from '../../../src/domain/ids';
import { amountFromCents } from '../../../src/domain/money';
import { holdViolation } from '../../../src/domain/money-invariants';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { formatBrt } from '../../../src/domain/time';
import { refundRefusal } from '../../../src/domain/transitions';
import { partnerPort } from '../../../src/partners/port-registry';
import { booksTamper, guard } from '../ledger/books-guard';
import { forgetIdempotencyKey, type Remember } from '../ledger/idempotency';
import { accountAt, available, devolutionEntryId, placeHold, postEntry, releaseHold } from '../ledger/ledger';
import type { LedgerContext } from '../ledger-context';
import { observe } from '../webhooks/events';
import { type CashInRow, emitCashIn, findCashIn, updateCashIn } from './cash-in-store';

/**
 * How soon a refund held is checked if nothing moves it later (a crash before the send: the poll
 * sends it), and how often one waiting for its payment's endToEndId looks again.
 */
export const REFUND_POLL_MS = 500;
/** How long after the partner took the devolution it is first read: most settle within a second. */
export const REFUND_FIRST_READ_MS = 1_000;
/** The longest wait between two reads of a devolution the partner still reports in flight. */
export const REFUND_POLL_MAX_MS = 30_000;

/**
 * The next check of a refund in flight: when, and how many reads have found its devolution in flight
 * since it was sent. The first read comes a second after the partner took it, each later one twice
 * as long after the last (1 s, 2 s, 4 s, …, then every 30 s): half-second reads cost a refund several
 * partner calls and alarm runs for a devolution that settles in a second or a few, a partner's
 * callback settles one at once, and a lost callback is still found within 30 s of the devolution
 * ending.
 */
export interface RefundPoll {
  at: number;
  inFlightReads: number;
}

function pollAfter(now: number, inFlightReads: number): RefundPoll {
  const wait = REFUND_FIRST_READ_MS * 2 ** Math.min(Math.max(inFlightReads - 1, 0), 16);
  return { at: now + Math.min(REFUND_POLL_MAX_MS, wait), inFlightReads };
}

/** POST /cash-in/{id}/refund's 202 body, typed by the API's schema. */
export type RefundBody = RefundAcceptedBody;

/**
 * Sets the refund's money aside and records it PROCESSING, inside the caller's transaction. The
 * poll task sends the devolution if nobody did (or a crash lost it) and settles it.
 */
export function holdRefund(
  ledger: LedgerContext,
  row: CashInRow,
  accountNumber: string,
  refund: {
    endToEndId: string;
    reason: string;
    description: string | null;
    at: number;
    pollAt: number;
    idempotencyKey?: string;
  },
): void {
  const hold = { id: `refund:${row.transactionId}`, amount: row.amount, available: 0 };
  booksTamper(ledger.db)?.hold?.(hold);
  guard(holdViolation({ id: hold.id, account: accountNumber, amount: hold.amount, covers: row.amount }));
  placeHold(ledger.db, {
    id: hold.id,
    accountNumber,
    amount: hold.amount,
    ref: `cash-in:${row.transactionId}`,
    at: refund.at,
  });
  updateCashIn(ledger, row.seq, {
    refundState: 'PROCESSING',
    refundEndToEndId: refund.endToEndId,
    // Kept when the network's id replaces refundEndToEndId: the id answered must keep finding it.
    refundRequestId: refund.endToEndId,
    reason: refund.reason,
    refundDescription: refund.description,
    refundFailureCode: null,
    refundIdempotencyKey: refund.idempotencyKey ?? null,
  });
  ledger.scheduler.schedule('poll-refund', row.transactionId, refund.pollAt);
}

/** Checks, holds the money, records PROCESSING and sends the devolution to the network. */
export async function startRefund(
  ledger: LedgerContext,
  row: CashInRow,
  reason: string,
  description: string | null,
  remember: Remember,
  idempotencyKey?: string,
): Promise<OperationResult<RefundBody>> {
  const refusal = refundRefusal(row);
  if (refusal) return failure(refusal);
  // Refunds are whole: after a partial bank return, one would give back more than was received.
  if ((row.bankReturned ?? 0) > 0)
    return failure({
      code: 'REFUND_NOT_ALLOWED',
      detail: "The payer's bank already returned part of this Cash-In",
    });
  const account = accountAt(ledger.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account || available(ledger.db, account.number) < row.amount) {
    return failure({
      code: 'RULE_VIOLATION',
      detail: 'The TRANSACTIONAL balance at the settlement partner cannot cover this refund',
    });
  }
  const now = Date.now();
  const refundEndToEndId = newEndToEndId('D', row.partnerIspb, now);
  const body: RefundBody = {
    transactionId: row.transactionId,
    internalCode: row.internalCode,
    externalReference: row.externalReference,
    endToEndId: refundEndToEndId,
    status: 'PROCESSING',
    amount: amountFromCents(row.amount),
    requestedAt: formatBrt(now),
    message: 'Refund sent to the PIX network; CASHIN_REFUNDED follows when the devolution settles',
  };
  ledger.storage.transactionSync(() => {
    // Polled even if we crash before sending: the poll re-sends under the same idempotency id.
    holdRefund(ledger, row, account.number, {
      endToEndId: refundEndToEndId,
      reason,
      description,
      at: now,
      pollAt: now + REFUND_POLL_MS,
      ...(idempotencyKey !== undefined && { idempotencyKey }),
    });
    remember(202, body, answerAbout('cash-in', row));
  });
  await ledger.crashes.reach('refund.held');
  const sent = await partnerPort(ledger.env, row.partnerIspb).sendDevolution({
    endToEndId: refundEndToEndId,
    originalEndToEndId: row.endToEndId as string, // refundRefusal refused one without it
    amountCents: row.amount,
  });
  await ledger.crashes.reach('refund.sent');
  // Taken (or unanswered: it may have been): the first read a second from now, not before; a poll
  // that ran meanwhile keeps its own schedule.
  if (sent.ok || sent.retryable)
    ledger.scheduler.postpone('poll-refund', row.transactionId, Date.now() + REFUND_FIRST_READ_MS);
  if (!sent.ok && !sent.retryable) {
    // Other events ran while the partner answered (the poll, a late settlement): reset only the
    // refund this call started, as it still stands.
    const current = findCashIn(ledger.db, row.transactionId);
    if (current?.refundState !== 'PROCESSING' || current.refundEndToEndId !== refundEndToEndId)
      return success(202, body);
    ledger.storage.transactionSync(() => {
      releaseHold(ledger.db, `refund:${row.transactionId}`);
      updateCashIn(ledger, row.seq, {
        refundState: 'NONE',
        refundEndToEndId: null,
        reason: null,
        refundDescription: null,
      });
      ledger.scheduler.cancel('poll-refund', row.transactionId);
      if (idempotencyKey !== undefined) forgetIdempotencyKey(ledger.db, idempotencyKey);
    });
    return failure({ code: 'RULE_VIOLATION', detail: 'The settlement partner refused the devolution' });
  }
  return success(202, body);
}

/**
 * The devolution reached the payer: the debit, REFUNDED, the event and the observation, inside
 * the caller's transaction. `entryId` (devolutionEntryId) makes the debit once-only; `amount` is
 * what the bank says it returned, the whole payment unless it says otherwise.
 */
export function settleDevolution(
  ledger: LedgerContext,
  row: CashInRow,
  accountNumber: string,
  devolution: {
    endToEndId: string;
    entryId: string;
    reason?: string;
    at: number;
    bankFact?: boolean;
    /** Our devolution, settled at the partner (recorded even if a bank return left the balance short). */
    settled?: boolean;
    amount?: number;
  },
): CashInRow {
  postEntry(ledger.db, {
    ...(devolution.bankFact && { bankFact: true }),
    ...(devolution.settled && { settled: true }),
    id: devolution.entryId,
    accountNumber,
    type: 'PIX_REFUND_OUT',
    amount: devolution.amount ?? row.amount,
    ref: `cash-in:${row.transactionId}`,
    at: devolution.at,
    description: `Devolucao PIX ${row.internalCode}`,
    endToEndId: devolution.endToEndId,
    originalEndToEndId: row.endToEndId,
  });
  const refunded = updateCashIn(ledger, row.seq, {
    status: 'REFUNDED',
    refundState: 'DONE',
    refundIdempotencyKey: null,
    refundEndToEndId: devolution.endToEndId,
    refundedAt: devolution.at,
    ...(devolution.reason !== undefined && { reason: devolution.reason }),
  });
  emitCashIn(ledger, refunded, 'CASHIN_REFUNDED', devolution.at);
  observe(ledger, row.transactionId, {
    operation: 'CASH_IN',
    partnerIspb: row.partnerIspb,
    institutionIspb: row.payerBank?.ispb ?? null,
    event: 'RETURNED',
    at: devolution.at,
  });
  return refunded;
}

/**
 * Poll task (and a partner's callback about our devolution): settles, fails or re-sends the
 * devolution in flight. Returns when to poll again; `inFlightReads`: the poll's count so far.
 */
export async function pollRefund(
  ledger: LedgerContext,
  transactionId: string,
  inFlightReads = 0,
): Promise<RefundPoll | undefined> {
  const row = findCashIn(ledger.db, transactionId);
  if (row?.refundState !== 'PROCESSING' || !row.refundEndToEndId) return undefined;
  // An automatic refund waits for the payment endToEndId a partner confirms later (assign-e2e).
  if (!row.endToEndId) return { at: Date.now() + REFUND_POLL_MS, inFlightReads: 0 };
  const port = partnerPort(ledger.env, row.partnerIspb);
  let status = await port.devolutionStatus(row.endToEndId, row.refundEndToEndId);
  await ledger.crashes.reach('refund.status-read');
  const now = Date.now();
  if (status.state === 'PENDING') return pollAfter(now, inFlightReads + 1);
  if (status.state === 'UNKNOWN') {
    const sent = await port.sendDevolution({
      endToEndId: row.refundEndToEndId,
      originalEndToEndId: row.endToEndId,
      amountCents: row.amount,
    });
    // Sent (again): read as one startRefund just sent.
    if (sent.ok || sent.retryable) return { at: Date.now() + REFUND_FIRST_READ_MS, inFlightReads: 0 };
    // Refused outright (e.g. a bank already returned part of the payment): it never left, so the
    // refund fails here rather than being sent again forever with its money held.
    status = { state: 'FAILED', failureCode: sent.failureCode };
  }
  const account = accountAt(ledger.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${row.partnerIspb}`);
  const entryId = await devolutionEntryId(row.endToEndId, row.refundEndToEndId);
  // A partner callback may have run this same poll while we awaited: act only on the refund as read.
  const current = findCashIn(ledger.db, transactionId);
  if (current?.refundState !== 'PROCESSING' || current.refundEndToEndId !== row.refundEndToEndId)
    return undefined;
  ledger.storage.transactionSync(() => {
    releaseHold(ledger.db, `refund:${row.transactionId}`);
    // Ended here: a partner's callback that got here first leaves no poll behind to read again.
    ledger.scheduler.cancel('poll-refund', row.transactionId);
    if (status.state === 'FAILED') {
      // The client hears of it and can act: PAID again with refundFailure, CASHIN_REFUND_FAILED, and
      // the refund's idempotency key forgotten so that a retry with it runs again.
      const failed = updateCashIn(ledger, row.seq, {
        refundState: 'FAILED',
        refundFailureCode: status.failureCode,
        refundEndToEndId: null,
        reason: null,
        refundDescription: null,
        refundIdempotencyKey: null,
      });
      if (row.refundIdempotencyKey !== null) forgetIdempotencyKey(ledger.db, row.refundIdempotencyKey);
      emitCashIn(ledger, failed, 'CASHIN_REFUND_FAILED', now);
      return;
    }
    // Settled, the devolution is known by the network's id for it (pacs.004 RtrId), the one on the
    // payer's receipt and the bank's records; our id stays its idempotency id (and its entry's).
    settleDevolution(ledger, row, account.number, {
      endToEndId: status.endToEndId || (row.refundEndToEndId as string),
      entryId,
      at: now,
      settled: true,
    });
  });
  return undefined;
}
