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
import { entryArchived } from '../archive/archive-reads';
import type { LedgerContext } from '../context';
import { accountAt, devolutionEntryId, entryExists, postEntry, releaseHold } from '../ledger/ledger';
import { type CashInRow, cashInNotFound, findCashIn } from './cash-in-store';
import { REFUND_POLL_MS, settleDevolution } from './refund-ops';

/** A devolution as the partner reports it; absent fields are the sandbox's (a whole-payment return). */
export interface ReportedDevolution {
  /** The devolution's id at the partner. */
  id: string;
  /** Its end-to-end id (pacs.004 RtrId). */
  endToEndId: string;
  amountCents: number;
}

function transactional(ctx: LedgerContext, row: CashInRow): string {
  const account = accountAt(ctx.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${row.partnerIspb}`);
  return account.number;
}

/**
 * A bank return of a PAID Cash-In: PAID → REFUNDED now. If the client's own refund is in flight,
 * the return supersedes it: its hold goes, and its devolution is followed to the end (should the
 * partner settle it too, that second outflow is recorded as well: pollSupersededDevolution).
 */
export async function bankReturn(
  ctx: LedgerContext,
  id: string,
  reason: string,
  reported?: ReportedDevolution,
): Promise<OperationResult<CashInView>> {
  const first = findCashIn(ctx.db, id);
  if (!first) return cashInNotFound();
  const now = Date.now();
  const endToEndId = reported?.endToEndId ?? newEndToEndId('D', first.partnerIspb, now);
  const entryId = await devolutionEntryId(first.endToEndId ?? '', reported?.id ?? endToEndId);
  // Read again: other work of this object may have run during the digest.
  const row = findCashIn(ctx.db, id) as CashInRow;
  // Only money received can be returned: nothing to give back for an unpaid or already returned one.
  if (row.status !== 'PAID' || row.endToEndId === null || row.endToEndId !== first.endToEndId) {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only a settled PAID Cash-In can be returned; this one is ${row.status}`,
    });
  }
  const accountNumber = transactional(ctx, row);
  const refunded = ctx.storage.transactionSync(() => {
    if (row.refundState === 'PROCESSING' && row.refundEndToEndId) {
      releaseHold(ctx.db, `refund:${row.transactionId}`);
      ctx.scheduler.cancel('poll-refund', row.transactionId);
      ctx.scheduler.schedule(
        'poll-superseded-devolution',
        `${row.transactionId}|${row.refundEndToEndId}`,
        now + REFUND_POLL_MS,
      );
    }
    return settleDevolution(ctx, row, accountNumber, {
      endToEndId,
      entryId,
      reason,
      at: now,
      bankFact: true,
      ...(reported && { amount: reported.amountCents }),
    });
  });
  return success(200, cashInView(refunded));
}

/**
 * A devolution of a Cash-In already REFUNDED: money left once more, and the books say so (a
 * second PIX_REFUND_OUT, a bank fact). Once only: an entry already booked under its id stays alone.
 * Returns whether it was booked now.
 */
export async function bookLateDevolution(
  ctx: LedgerContext,
  row: CashInRow,
  devolution: ReportedDevolution,
  whenDone?: () => void,
): Promise<boolean> {
  if (!row.endToEndId) return false;
  const entryId = await devolutionEntryId(row.endToEndId, devolution.id);
  const accountNumber = transactional(ctx, row);
  // Its entry may be archived already; one hot now and archived during the read was seen hot.
  const booked = entryExists(ctx.db, entryId) || (await entryArchived(ctx, accountNumber, entryId));
  return ctx.storage.transactionSync(() => {
    whenDone?.();
    if (booked || entryExists(ctx.db, entryId)) return false;
    postEntry(ctx.db, {
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
 * task, so a crash cannot post it twice.
 */
export async function pollSupersededDevolution(ctx: LedgerContext, ref: string): Promise<number | undefined> {
  const [transactionId, devolutionId] = ref.split('|') as [string, string];
  const row = findCashIn(ctx.db, transactionId);
  if (!row?.endToEndId) return undefined;
  const status = await partnerPort(ctx.env, row.partnerIspb).devolutionStatus(row.endToEndId, devolutionId);
  if (status.state === 'PENDING') return Date.now() + REFUND_POLL_MS;
  if (status.state !== 'SETTLED') return undefined;
  await bookLateDevolution(
    ctx,
    row,
    { id: devolutionId, endToEndId: status.endToEndId || devolutionId, amountCents: row.amount },
    () => ctx.scheduler.cancel('poll-superseded-devolution', ref),
  );
  return undefined;
}
