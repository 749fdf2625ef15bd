import type { CashOutAcceptedBody } from '../../../src/api/cash-out/schemas';
import { type CashOutView, cashOutView } from '../../../src/domain/cash-out';
import { answerAbout } from '../../../src/domain/fixed-fields';
import { newEndToEndId } from '../../../src/domain/ids';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { formatBrt } from '../../../src/domain/time';
import { referencesArchived } from '../archive/archive-reads';
import { takeCodes } from '../internal-codes';
import type { Remember } from '../ledger/idempotency';
import { accountAt, findHold, postEntry, releaseHold } from '../ledger/ledger';
import type { LedgerContext } from '../ledger-context';
import { emitWebhook, observe } from '../webhooks/events';
import { acceptedCashOut, type CreateCashOutInput, newCashOutRow, writeCashOuts } from './cash-out-accept';
import { holdId } from './cash-out-book';
import { executorWoken, wakeExecutor } from './cash-out-exec';
import { type CashOutRow, cashOutReferenceTaken, findCashOut, updateCashOut } from './cash-out-store';
import { countTowardLimits } from './limit-totals';

export type { CreateCashOutInput } from './cash-out-accept';
/** POST /cash-out's 202 body, typed by the API's schema. */
export type CashOutAccepted = CashOutAcceptedBody;

function update(ledger: LedgerContext, seq: number, changes: Partial<CashOutRow>): CashOutRow {
  return updateCashOut(ledger.db, seq, changes);
}

function emitCashOut(
  ledger: LedgerContext,
  row: CashOutRow,
  eventType: string,
  at: number,
  scheduleDispatch = true,
): void {
  emitWebhook(
    ledger,
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
  ledger: LedgerContext,
  input: CreateCashOutInput,
  remember: Remember,
): Promise<OperationResult<CashOutAccepted>> {
  const reference = input.externalReference;
  const duplicated = () =>
    failure({
      code: 'DUPLICATED_EXTERNAL_REFERENCE',
      detail: `externalReference '${input.externalReference}' was already used for a Cash-Out`,
    });
  const sql = ledger.storage.sql;
  if (cashOutReferenceTaken(ledger.db, reference)) return duplicated();
  // An archived Cash-Out keeps its reference: asked of the archive registry after the hot check, one
  // call to the reference's shard (archive-reads.ts referencesArchived: confirmed in its segment; none
  // while no Cash-Out was ever archived). No filter in the object: a Cash-Out's payment calls its
  // partner anyway, so one object call is small beside it, and the object keeps nothing per archived
  // Cash-Out (docs/storage-schema.md, "externalReference filter").
  const archived = await referencesArchived(ledger, 'cash-out', [reference]);
  // Hot again, with the write: another request may have taken it during the call.
  if (archived.has(reference) || cashOutReferenceTaken(ledger.db, reference)) return duplicated();
  const now = Date.now();
  const accepted = ledger.storage.transactionSync(() => {
    // Unique by construction, taken with the row (internal-codes.ts).
    const row = newCashOutRow(input, takeCodes(sql, 1)[0] as string, now);
    const body: CashOutAccepted = { ...acceptedCashOut(row), requestedAt: formatBrt(now) };
    writeCashOuts(ledger, [row], now);
    remember(202, body, answerAbout('cash-out', row));
    return body;
  });
  executorWoken(ledger.db, now);
  return success(202, accepted);
}

/** Ends a Cash-Out as CANCELLED: the money never left, so any reservation is released. */
function cancel(ledger: LedgerContext, row: CashOutRow, failureCode: string): CashOutRow {
  const now = Date.now();
  return ledger.storage.transactionSync(() => {
    // A hold exists exactly while a reserved Cash-Out is unsettled: it counted toward the limits.
    if (findHold(ledger.db, holdId(row.transactionId))) {
      releaseHold(ledger.db, holdId(row.transactionId));
      countTowardLimits(ledger.db, row.requestedAt, row.destinationKey, -row.amount);
    }
    const cancelled = update(ledger, row.seq, {
      status: 'CANCELLED',
      stage: 'DONE',
      failureCode,
      cancelledAt: now,
      nextAt: null,
    });
    emitCashOut(ledger, cancelled, 'CASHOUT_FAILED', now);
    if (row.partnerIspb) {
      observe(ledger, row.transactionId, {
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
function awaitingApproval(ledger: LedgerContext, id: string, verb: 'approved' | 'rejected') {
  const row = findCashOut(ledger.db, id);
  if (!row) return failure({ code: 'CASHOUT_NOT_FOUND', detail: 'No Cash-Out matches this id' });
  if (row.stage !== 'AWAITING_APPROVAL') {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only a PENDING Cash-Out awaiting approval can be ${verb}; this one is ${row.status}`,
    });
  }
  return row;
}

export function approveCashOut(ledger: LedgerContext, id: string): OperationResult<CashOutView> {
  const row = awaitingApproval(ledger, id, 'approved');
  if ('ok' in row) return row;
  const now = Date.now();
  const approved = ledger.storage.transactionSync(() => {
    const updated = update(ledger, row.seq, { stage: 'APPROVED', status: 'PROCESSING', nextAt: now });
    wakeExecutor(ledger, now);
    return updated;
  });
  executorWoken(ledger.db, now);
  return success(200, cashOutView(approved));
}

export function rejectCashOut(ledger: LedgerContext, id: string): OperationResult<CashOutView> {
  const row = awaitingApproval(ledger, id, 'rejected');
  if ('ok' in row) return row;
  return success(200, cashOutView(cancel(ledger, row, 'APPROVAL_REJECTED')));
}

/** The payee's bank returns a completed Cash-Out: COMPLETED → REFUNDED, money back in. */
export function returnCashOut(
  ledger: LedgerContext,
  id: string,
  reason: string,
): OperationResult<CashOutView> {
  const row = findCashOut(ledger.db, id);
  if (!row) return failure({ code: 'CASHOUT_NOT_FOUND', detail: 'No Cash-Out matches this id' });
  if (row.status !== 'COMPLETED' || !row.partnerIspb) {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only a COMPLETED Cash-Out can be returned; this one is ${row.status}`,
    });
  }
  const account = accountAt(ledger.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${row.partnerIspb}`);
  const now = Date.now();
  const refundEndToEndId = newEndToEndId('D', row.payeeBank?.ispb ?? row.partnerIspb, now);
  const refunded = ledger.storage.transactionSync(() => {
    postEntry(ledger.db, {
      accountNumber: account.number,
      type: 'PIX_REFUND_IN',
      amount: row.amount,
      ref: `cash-out:${row.transactionId}`,
      at: now,
      description: `Devolucao recebida ${row.internalCode} (${reason})`,
      endToEndId: refundEndToEndId,
      originalEndToEndId: row.endToEndId,
    });
    const updated = update(ledger, row.seq, {
      status: 'REFUNDED',
      reason,
      refundEndToEndId,
      refundedAt: now,
    });
    emitCashOut(ledger, updated, 'CASHOUT_REFUNDED', now);
    observe(ledger, row.transactionId, {
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
