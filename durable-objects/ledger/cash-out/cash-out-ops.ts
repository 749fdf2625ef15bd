import { type CashOutView, cashOutView } from '../../../src/domain/cash-out';
import { newEndToEndId, newInternalCode } from '../../../src/domain/ids';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { formatBrt } from '../../../src/domain/time';
import { archivedAmong } from '../archive/archive-index';
import type { LedgerContext } from '../context';
import type { Remember } from '../ledger/idempotency';
import { accountAt, findHold, postEntry, releaseHold } from '../ledger/ledger';
import { emitWebhook, observe } from '../webhooks/events';
import {
  type AcceptedCashOut,
  acceptedCashOut,
  type CreateCashOutInput,
  newCashOutRow,
  writeCashOuts,
} from './cash-out-accept';
import { holdId } from './cash-out-book';
import { executorWoken, wakeExecutor } from './cash-out-exec';
import {
  type CashOutRow,
  cashOutCodeTaken,
  cashOutKeysTaken,
  findCashOut,
  updateCashOut,
} from './cash-out-store';
import { countTowardLimits } from './limit-totals';

export type { CreateCashOutInput } from './cash-out-accept';
export type CashOutAccepted = AcceptedCashOut & { requestedAt: string };

function update(ctx: LedgerContext, seq: number, changes: Partial<CashOutRow>): CashOutRow {
  return updateCashOut(ctx.db, seq, changes);
}

function emitCashOut(
  ctx: LedgerContext,
  row: CashOutRow,
  eventType: string,
  at: number,
  scheduleDispatch = true,
): void {
  emitWebhook(
    ctx,
    {
      aggregateId: row.transactionId,
      eventType,
      data: cashOutView(row),
      webhookUrl: row.webhookUrl,
      at,
    },
    scheduleDispatch,
  );
}

export async function acceptCashOut(
  ctx: LedgerContext,
  input: CreateCashOutInput,
  remember: Remember,
): Promise<OperationResult<CashOutAccepted>> {
  const reference = input.externalReference;
  const duplicated = () =>
    failure({
      code: 'DUPLICATED_EXTERNAL_REFERENCE',
      detail: `externalReference '${input.externalReference}' was already used for a Cash-Out`,
    });
  // The reference and a first candidate code in one statement; another code only on a collision.
  let internalCode = newInternalCode();
  let taken = cashOutKeysTaken(ctx.db, reference, internalCode);
  if (taken.reference) return duplicated();
  for (;;) {
    // An archived Cash-Out keeps its reference and code (a hash hit counts: refusing is the safe
    // side): asked of the archive registry after the hot check (archive-index.ts), none while no
    // Cash-Out was ever archived.
    const archived = await archivedAmong(ctx, 'cash-out', [reference, internalCode]);
    if (archived.has(reference)) return duplicated();
    if (!taken.code && !archived.has(internalCode)) {
      // Hot again, with the write: another request may have taken either during the call.
      taken = cashOutKeysTaken(ctx.db, reference, internalCode);
      if (taken.reference) return duplicated();
      if (!taken.code) break;
    }
    internalCode = newInternalCode();
    taken = { reference: false, code: cashOutCodeTaken(ctx.db, internalCode) };
  }
  const now = Date.now();
  const row = newCashOutRow(input, internalCode, now);
  const accepted: CashOutAccepted = { ...acceptedCashOut(row), requestedAt: formatBrt(now) };
  ctx.storage.transactionSync(() => {
    writeCashOuts(ctx, [row], now);
    remember(202, accepted);
  });
  executorWoken(ctx.db, now);
  return success(202, accepted);
}

/** Ends a Cash-Out as CANCELLED: the money never left, so any reservation is released. */
function cancel(ctx: LedgerContext, row: CashOutRow, failureCode: string): CashOutRow {
  const now = Date.now();
  return ctx.storage.transactionSync(() => {
    // A hold exists exactly while a reserved Cash-Out is unsettled: it counted toward the limits.
    if (findHold(ctx.db, holdId(row.transactionId))) {
      releaseHold(ctx.db, holdId(row.transactionId));
      countTowardLimits(ctx.db, row.requestedAt, row.destinationKey, -row.amount);
    }
    const cancelled = update(ctx, row.seq, {
      status: 'CANCELLED',
      stage: 'DONE',
      failureCode,
      cancelledAt: now,
      nextAt: null,
    });
    emitCashOut(ctx, cancelled, 'CASHOUT_FAILED', now);
    if (row.partnerIspb) {
      observe(ctx, row.transactionId, {
        operation: 'CASH_OUT',
        partnerIspb: row.partnerIspb,
        event: 'FAILED',
        failureCode,
        latencyMs: now - row.requestedAt,
        at: now,
      });
    }
    return cancelled;
  });
}

/** The Cash-Out an operator decision applies to, or why there is none. */
function awaitingApproval(ctx: LedgerContext, id: string, verb: 'approved' | 'rejected') {
  const row = findCashOut(ctx.db, id);
  if (!row) return failure({ code: 'CASHOUT_NOT_FOUND', detail: 'No Cash-Out matches this id' });
  if (row.stage !== 'AWAITING_APPROVAL') {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only a PENDING Cash-Out awaiting approval can be ${verb}; this one is ${row.status}`,
    });
  }
  return row;
}

export function approveCashOut(ctx: LedgerContext, id: string): OperationResult<CashOutView> {
  const row = awaitingApproval(ctx, id, 'approved');
  if ('ok' in row) return row;
  const now = Date.now();
  const approved = ctx.storage.transactionSync(() => {
    const updated = update(ctx, row.seq, { stage: 'APPROVED', status: 'PROCESSING', nextAt: now });
    wakeExecutor(ctx, now);
    return updated;
  });
  executorWoken(ctx.db, now);
  return success(200, cashOutView(approved));
}

export function rejectCashOut(ctx: LedgerContext, id: string): OperationResult<CashOutView> {
  const row = awaitingApproval(ctx, id, 'rejected');
  if ('ok' in row) return row;
  return success(200, cashOutView(cancel(ctx, row, 'APPROVAL_REJECTED')));
}

/** The payee's bank returns a completed Cash-Out: COMPLETED → REFUNDED, money back in. */
export function returnCashOut(ctx: LedgerContext, id: string, reason: string): OperationResult<CashOutView> {
  const row = findCashOut(ctx.db, id);
  if (!row) return failure({ code: 'CASHOUT_NOT_FOUND', detail: 'No Cash-Out matches this id' });
  if (row.status !== 'COMPLETED' || !row.partnerIspb) {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only a COMPLETED Cash-Out can be returned; this one is ${row.status}`,
    });
  }
  const account = accountAt(ctx.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${row.partnerIspb}`);
  const now = Date.now();
  const refundEndToEndId = newEndToEndId('D', row.payeeBank?.ispb ?? row.partnerIspb, now);
  const refunded = ctx.storage.transactionSync(() => {
    postEntry(ctx.db, {
      accountNumber: account.number,
      type: 'PIX_REFUND_IN',
      amount: row.amount,
      ref: `cash-out:${row.transactionId}`,
      at: now,
      description: `Devolucao recebida ${row.internalCode} (${reason})`,
      endToEndId: refundEndToEndId,
      originalEndToEndId: row.endToEndId,
    });
    const updated = update(ctx, row.seq, { status: 'REFUNDED', reason, refundEndToEndId, refundedAt: now });
    emitCashOut(ctx, updated, 'CASHOUT_REFUNDED', now);
    observe(ctx, row.transactionId, {
      operation: 'CASH_OUT',
      partnerIspb: row.partnerIspb as string,
      institutionIspb: row.payeeBank?.ispb ?? null,
      event: 'RETURNED',
      at: now,
    });
    return updated;
  });
  return success(200, cashOutView(refunded));
}
