/**
 * MED disputes of a received payment (docs/contract.md, Disputes): the payer's bank opens an
 * infraction and the partner blocks the money at once, so the block becomes a hold on the client's
 * TRANSACTIONAL account in the transaction that records the dispute. Closing it REJECTED or
 * CANCELLED releases the hold in the closing transaction; ACCEPTED is followed by the bank's
 * return, booked through bank-returns.ts, which consumes the hold (never counted twice).
 */

import { type CashInView, cashInView, type DisputeStatus, OPEN_DISPUTE } from '../../../src/domain/cash-in';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { accountAt, placeHold, releaseHold, returnedSince } from '../ledger/ledger';
import type { LedgerContext } from '../ledger-context';
import { type CashInRow, cashInNotFound, emitCashIn, findCashIn, updateCashIn } from './cash-in-store';

/** The sandbox's deadline for a defense, after the dispute opens. */
export const SANDBOX_RESPOND_MS = 72 * 3_600_000;

export type DisputeOutcome = 'ACCEPTED' | 'REJECTED' | 'CANCELLED';

export interface OpenedDispute {
  /** The infraction's id at the partner. */
  disputeId: string;
  openedAt: number;
  respondBy: number;
  /** What the partner blocked; the whole unreturned amount when it does not say. */
  amountCents?: number;
  /** The sandbox refuses an amount above what can be blocked; a partner's fact is capped instead. */
  strictAmount?: boolean;
}

/** The hold's id: one per Cash-In, so a dispute reported again can never hold twice. */
export const disputeHoldId = (transactionId: string) => `dispute:${transactionId}`;

export const isOpenDispute = (row: CashInRow): boolean =>
  row.disputeStatus !== null && OPEN_DISPUTE.includes(row.disputeStatus);

/**
 * What a dispute may block: what is neither returned nor being returned. Refunds are whole, so what
 * left a PAID Cash-In is its bank returns, kept on the row (hot or archived alike).
 */
export function blockable(_ledger: LedgerContext, row: CashInRow): number {
  if (row.status !== 'PAID' || row.endToEndId === null || row.refundState === 'PROCESSING') return 0;
  return Math.max(0, row.amount - (row.bankReturned ?? 0));
}

/**
 * What the partner still blocks of an infraction it reports: its amount less the bank's returns of the
 * payment booked at or after it opened, which left from that block (docs/contract.md, Disputes). An
 * infraction first seen after its MED return was booked (the partner was down meanwhile) holds none
 * of it again: no later return would consume that hold. Without an amount, `most` already excludes
 * every return.
 */
function stillBlocked(
  ledger: LedgerContext,
  row: CashInRow,
  opened: OpenedDispute,
  most: number,
  accountNumber: string,
): number {
  if (opened.amountCents === undefined || row.endToEndId === null) return most;
  const since = returnedSince(ledger.db, accountNumber, row.endToEndId, opened.openedAt);
  // Entries since it opened may be archived already (a run under the hot budget, an operator's): any
  // return on the row may then be one of them. A hold too small protects less; one too big is never released.
  const archived = since.archivedUntil !== null && since.archivedUntil >= opened.openedAt;
  const returned = archived ? (row.bankReturned ?? 0) : since.hot;
  return Math.max(0, Math.min(opened.amountCents - returned, most));
}

function transactionalOf(ledger: LedgerContext, row: CashInRow): string {
  const account = accountAt(ledger.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${row.partnerIspb}`);
  return account.number;
}

const ruleViolation = (detail: string) => failure({ code: 'RULE_VIOLATION', detail });

/**
 * Records the dispute and holds its blocked amount, one transaction, CASHIN_DISPUTE_OPENED with it.
 * The same infraction reported again answers the Cash-In as it is.
 */
export function openDispute(
  ledger: LedgerContext,
  id: string,
  opened: OpenedDispute,
): OperationResult<CashInView> {
  const row = findCashIn(ledger.db, id);
  if (!row) return cashInNotFound();
  if (row.disputeId === opened.disputeId) return success(200, cashInView(row));
  if (row.disputeId !== null) return ruleViolation('This Cash-In already has a dispute');
  if (row.status !== 'PAID' || row.endToEndId === null) {
    return ruleViolation(`Only a settled PAID Cash-In can be disputed; this one is ${row.status}`);
  }
  const most = blockable(ledger, row);
  if (opened.strictAmount && opened.amountCents !== undefined && opened.amountCents > most) {
    return failure({
      code: 'VALIDATION_ERROR',
      detail: 'amount is above what is neither refunded nor being refunded',
      errors: { amount: [`must be at most ${most / 100}`] },
    });
  }
  const accountNumber = transactionalOf(ledger, row);
  const blocked = stillBlocked(ledger, row, opened, most, accountNumber);
  const disputed = ledger.storage.transactionSync(() => {
    if (blocked > 0) {
      placeHold(ledger.db, {
        id: disputeHoldId(row.transactionId),
        accountNumber,
        amount: blocked,
        ref: `cash-in:${row.transactionId}`,
        at: opened.openedAt,
      });
    }
    const updated = updateCashIn(ledger, row.seq, {
      disputeId: opened.disputeId,
      disputeStatus: 'OPEN',
      disputeOpenedAt: opened.openedAt,
      disputeRespondBy: opened.respondBy,
      disputeBlockedAmount: blocked,
    });
    emitCashIn(ledger, updated, 'CASHIN_DISPUTE_OPENED', opened.openedAt);
    return updated;
  });
  return success(201, cashInView(disputed));
}

/**
 * Inside the caller's transaction: the dispute ends with `outcome` and CASHIN_DISPUTE_CLOSED. The
 * hold goes with REJECTED and CANCELLED; ACCEPTED keeps it until the bank's return consumes it
 * (bank-returns.ts), so the money stays blocked until it has left.
 */
export function markDisputeClosed(
  ledger: LedgerContext,
  row: CashInRow,
  outcome: DisputeOutcome,
  at: number,
): CashInRow {
  if (outcome !== 'ACCEPTED') releaseHold(ledger.db, disputeHoldId(row.transactionId));
  const closed = updateCashIn(ledger, row.seq, { disputeStatus: outcome, disputeClosedAt: at });
  emitCashIn(ledger, closed, 'CASHIN_DISPUTE_CLOSED', at);
  return closed;
}

/** Closes an open dispute (a partner's decision); the return of an ACCEPTED one is booked apart. */
export function closeDispute(
  ledger: LedgerContext,
  id: string,
  outcome: DisputeOutcome,
  at: number,
): OperationResult<CashInView> {
  const row = findCashIn(ledger.db, id);
  if (!row) return cashInNotFound();
  if (row.disputeStatus === outcome) return success(200, cashInView(row));
  if (!isOpenDispute(row)) return ruleViolation('This Cash-In has no open dispute');
  const closed = ledger.storage.transactionSync(() => markDisputeClosed(ledger, row, outcome, at));
  return success(200, cashInView(closed));
}

/** Why a defense cannot be made now, or undefined. */
export function defenseRefusal(row: CashInRow, now: number): string | undefined {
  const status: DisputeStatus | null = row.disputeStatus;
  if (status === null) return 'This Cash-In has no dispute';
  if (status === 'DEFENDED') return 'A defense was already sent for this dispute';
  if (status !== 'OPEN') return `This dispute is closed (${status})`;
  if (now > (row.disputeRespondBy ?? 0)) return 'The deadline for a defense (respondBy) has passed';
  return undefined;
}

/** The defense the partner took: DEFENDED, defendedAt, CASHIN_DISPUTE_UPDATED, one transaction. */
export function recordDefense(ledger: LedgerContext, id: string, at: number): OperationResult<CashInView> {
  const row = findCashIn(ledger.db, id);
  if (!row) return cashInNotFound();
  // Another defense may have been recorded while the partner answered this one.
  const refusal = defenseRefusal(row, at);
  if (refusal) return ruleViolation(refusal);
  const defended = ledger.storage.transactionSync(() => {
    const updated = updateCashIn(ledger, row.seq, { disputeStatus: 'DEFENDED', disputeDefendedAt: at });
    emitCashIn(ledger, updated, 'CASHIN_DISPUTE_UPDATED', at);
    return updated;
  });
  return success(202, cashInView(defended));
}
