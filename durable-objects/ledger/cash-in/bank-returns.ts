/**
 * Devolutions the bank made (MED claims, a customer's request at the payer bank, a devolution made
 * at the partner outside our API) and client devolutions that a bank return overtook. They are
 * facts, never refused: a short balance goes negative (the entry is a `bankFact`), and each
 * devolution is booked once, under the entry id its payment and partner id give (devolutionEntryId).
 */

import { type CashInView, cashInView } from '../../../src/domain/cash-in';
import { newEndToEndId } from '../../../src/domain/ids';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { log } from '../../../src/infra/log';
import { partnerPort } from '../../../src/partners/port-registry';
import { entryArchived, rehydrateCashIn } from '../archive/archive-reads';
import { accountAt, devolutionEntryId, entryExists, postEntry, releaseHold } from '../ledger/ledger';
import type { LedgerContext } from '../ledger-context';
import { type CashInRow, cashInNotFound, findCashIn, updateCashIn } from './cash-in-store';
import { disputeHoldId, isOpenDispute, markDisputeClosed } from './dispute-ops';
import { REFUND_POLL_MS, settleDevolution } from './refund-ops';

/** A devolution as the partner reports it; absent fields are the sandbox's (a whole-payment return). */
export interface ReportedDevolution {
  /** The devolution's id at the partner. */
  id: string;
  /** Its end-to-end id (pacs.004 RtrId). */
  endToEndId: string;
  amountCents: number;
}

function transactional(ledger: LedgerContext, row: CashInRow): string {
  const account = accountAt(ledger.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${row.partnerIspb}`);
  return account.number;
}

/**
 * A bank return of a PAID Cash-In, consuming a dispute's hold. Once the returned amount is the whole
 * Cash-In it ends REFUNDED; less than the whole leaves it PAID (docs/contract.md, Disputes), and a
 * later return of the rest ends it. Without a reported amount, the sandbox returns what is left. If the client's own refund is in flight,
 * the return supersedes it and its devolution is followed to the end (should the partner settle it
 * too, that second outflow is recorded as well: pollSupersededDevolution). Its hold stays until
 * then: that devolution leaves whatever the balance, so the money must not be withdrawn meanwhile.
 */
export async function bankReturn(
  ledger: LedgerContext,
  id: string,
  reason: string,
  reported?: ReportedDevolution,
): Promise<OperationResult<CashInView>> {
  const first = findCashIn(ledger.db, id);
  if (!first) return cashInNotFound();
  const now = Date.now();
  const endToEndId = reported?.endToEndId ?? newEndToEndId('D', first.partnerIspb, now);
  const entryId = await devolutionEntryId(first.endToEndId ?? '', reported?.id ?? endToEndId);
  // Read again: other work of this object may have run during the digest.
  const row = findCashIn(ledger.db, id) as CashInRow;
  // Only money received can be returned: nothing to give back for an unpaid or already returned one.
  if (row.status !== 'PAID' || row.endToEndId === null || row.endToEndId !== first.endToEndId) {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only a settled PAID Cash-In can be returned; this one is ${row.status}`,
    });
  }
  const accountNumber = transactional(ledger, row);
  // The same partial return reported again: booked once, the Cash-In stays as it is.
  if (await devolutionBooked(ledger, row, reported?.id ?? endToEndId)) return success(200, cashInView(row));
  const refunded = ledger.storage.transactionSync(() => {
    // The money a dispute blocked is the money leaving: its hold is consumed here, and a dispute
    // still open ends ACCEPTED (the payer's bank took the money back).
    releaseHold(ledger.db, disputeHoldId(row.transactionId));
    const settled = isOpenDispute(row) ? markDisputeClosed(ledger, row, 'ACCEPTED', now) : row;
    const returnedBefore = row.bankReturned ?? 0;
    const amount = reported?.amountCents ?? Math.max(0, row.amount - returnedBefore);
    if (returnedBefore + amount < row.amount)
      return bookPartialReturn(ledger, settled, accountNumber, { endToEndId, entryId, amount, at: now });
    if (row.refundState === 'PROCESSING' && row.refundEndToEndId) {
      ledger.scheduler.cancel('poll-refund', row.transactionId);
      ledger.scheduler.schedule(
        'poll-superseded-devolution',
        `${row.transactionId}|${row.refundEndToEndId}`,
        now + REFUND_POLL_MS,
      );
    }
    return settleDevolution(ledger, settled, accountNumber, {
      endToEndId,
      entryId,
      reason,
      at: now,
      bankFact: true,
      amount,
    });
  });
  return success(200, cashInView(refunded));
}

/**
 * Inside the caller's transaction: a return of less than what is left of the Cash-In. Its money
 * leaves (a bank fact); the Cash-In stays PAID, and a client refund in flight follows its course.
 */
function bookPartialReturn(
  ledger: LedgerContext,
  row: CashInRow,
  accountNumber: string,
  devolution: { endToEndId: string; entryId: string; amount: number; at: number },
): CashInRow {
  postEntry(ledger.db, {
    id: devolution.entryId,
    accountNumber,
    type: 'PIX_REFUND_OUT',
    amount: devolution.amount,
    ref: `cash-in:${row.transactionId}`,
    at: devolution.at,
    description: `Devolucao PIX ${row.internalCode} (parcial)`,
    endToEndId: devolution.endToEndId,
    originalEndToEndId: row.endToEndId,
    bankFact: true,
  });
  log('warn', 'the bank returned part of a Cash-In; it stays PAID', { transactionId: row.transactionId });
  return updateCashIn(ledger, row.seq, { bankReturned: (row.bankReturned ?? 0) + devolution.amount });
}

/** Whether this devolution of the Cash-In's payment is booked, hot or archived. */
export async function devolutionBooked(
  ledger: LedgerContext,
  row: CashInRow,
  devolutionId: string,
): Promise<boolean> {
  if (!row.endToEndId) return false;
  const entryId = await devolutionEntryId(row.endToEndId, devolutionId);
  // Its entry may be archived already; one hot now and archived during the read was seen hot.
  return (
    entryExists(ledger.db, entryId) || (await entryArchived(ledger, transactional(ledger, row), entryId))
  );
}

/**
 * Ends the follow-up of a superseded client devolution, inside the caller's transaction: the task
 * goes and, with it, the refund's hold. Both were made together by bankReturn, so the hold is
 * released exactly once, by whichever path (poll or partner report) sees the devolution end first.
 */
function endSuperseded(ledger: LedgerContext, transactionId: string, devolutionId: string): void {
  const ref = `${transactionId}|${devolutionId}`;
  if (!ledger.scheduler.exists('poll-superseded-devolution', ref)) return;
  ledger.scheduler.cancel('poll-superseded-devolution', ref);
  releaseHold(ledger.db, `refund:${transactionId}`);
}

/**
 * A devolution of a Cash-In already REFUNDED: money left once more, and the books say so (a
 * second PIX_REFUND_OUT, a bank fact). Once only: an entry already booked under its id stays alone.
 * When it is the superseded client devolution, its follow-up and hold end in the same transaction.
 * Returns whether it was booked now.
 */
export async function bookLateDevolution(
  ledger: LedgerContext,
  row: CashInRow,
  devolution: ReportedDevolution,
): Promise<boolean> {
  if (!row.endToEndId) return false;
  const entryId = await devolutionEntryId(row.endToEndId, devolution.id);
  const accountNumber = transactional(ledger, row);
  const booked = await devolutionBooked(ledger, row, devolution.id);
  return ledger.storage.transactionSync(() => {
    endSuperseded(ledger, row.transactionId, devolution.id);
    if (booked || entryExists(ledger.db, entryId)) return false;
    postEntry(ledger.db, {
      id: entryId,
      accountNumber,
      type: 'PIX_REFUND_OUT',
      amount: devolution.amountCents,
      ref: `cash-in:${row.transactionId}`,
      at: Date.now(),
      description: `Devolucao PIX ${row.internalCode} (apos retorno do banco)`,
      endToEndId: devolution.endToEndId,
      originalEndToEndId: row.endToEndId,
      bankFact: true,
    });
    log('warn', 'a further devolution of a returned payment was booked', {
      transactionId: row.transactionId,
    });
    return true;
  });
}

/**
 * Follows a client devolution that a bank return overtook. Never sends it again; if the partner
 * settled it anyway, it is booked (bookLateDevolution) in the same transaction that ends this
 * task and releases the refund's hold, so a crash cannot post it twice. Failed or unknown at the
 * partner, it never left: the hold goes, in the transaction that ends the task.
 */
export async function pollSupersededDevolution(
  ledger: LedgerContext,
  ref: string,
): Promise<number | undefined> {
  const [transactionId, devolutionId] = ref.split('|') as [string, string];
  // A row archived while this was pending (before the archive counted this task) comes back hot.
  if (!findCashIn(ledger.db, transactionId)) await rehydrateCashIn(ledger, transactionId);
  const row = findCashIn(ledger.db, transactionId);
  if (!row?.endToEndId) {
    log('error', 'a superseded devolution has no paid Cash-In', { transactionId });
    ledger.storage.transactionSync(() => endSuperseded(ledger, transactionId, devolutionId));
    return undefined;
  }
  const status = await partnerPort(ledger.env, row.partnerIspb).devolutionStatus(
    row.endToEndId,
    devolutionId,
  );
  if (status.state === 'PENDING') return Date.now() + REFUND_POLL_MS;
  if (status.state === 'SETTLED') {
    await bookLateDevolution(ledger, row, {
      id: devolutionId,
      // The network's id for it (a real partner's rtrId), the one on the payer's receipt.
      endToEndId: status.endToEndId || devolutionId,
      amountCents: row.amount,
    });
    return undefined;
  }
  ledger.storage.transactionSync(() => endSuperseded(ledger, transactionId, devolutionId));
  return undefined;
}
