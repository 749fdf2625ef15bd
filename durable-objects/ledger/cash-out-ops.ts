import type { ClientRow } from '../../src/db/clients';
import {
  type CashOutView,
  cashOutView,
  choosePartner,
  type Destination,
  DUPLICATE_WINDOW_MS,
  destinationKey,
  limitViolation,
} from '../../src/domain/cash-out';
import { newEndToEndId, newInternalCode, newUuid } from '../../src/domain/ids';
import { failure, type OperationResult, success } from '../../src/domain/result';
import { formatBrt } from '../../src/domain/time';
import { needsApproval } from '../../src/domain/transitions';
import { institutionName, partnerByIspb } from '../../src/partners/catalog';
import type { TransferStatus } from '../../src/partners/port';
import { partnerPort } from '../../src/partners/port-registry';
import { maybeArchived } from './archive-index';
import {
  type CashOutRow,
  cashOutByTransactionId,
  cashOutCodeTaken,
  cashOutReferenceTaken,
  findCashOut,
  hasRecentTwin,
  insertCashOut,
  updateCashOut,
} from './cash-out-store';
import type { LedgerContext } from './context';
import { emitWebhook, observe } from './events';
import type { Remember } from './idempotency';
import {
  accountAt,
  available,
  findHold,
  placeHold,
  postEntry,
  releaseHold,
  transactionalAccounts,
} from './ledger';
import { countTowardLimits, limitUsage } from './limit-totals';

/** How often a payment in flight is checked at the partner. */
const POLL_MS = 500;
const holdId = (transactionId: string) => `cash-out:${transactionId}`;

export interface CreateCashOutInput {
  amountCents: number;
  externalReference: string;
  description?: string;
  webhookUrl?: string;
  payee: { name: string; document: string; destination: Destination };
}

export interface CashOutAccepted {
  transactionId: string;
  internalCode: string;
  externalReference: string;
  status: 'PROCESSING';
  requestedAt: string;
}

function update(ctx: LedgerContext, seq: number, changes: Partial<CashOutRow>): CashOutRow {
  return updateCashOut(ctx.db, seq, changes);
}

function emitCashOut(ctx: LedgerContext, row: CashOutRow, eventType: string, at: number): void {
  emitWebhook(ctx, {
    aggregateId: row.transactionId,
    eventType,
    data: cashOutView(row),
    webhookUrl: row.webhookUrl,
    at,
  });
}

export function acceptCashOut(
  ctx: LedgerContext,
  input: CreateCashOutInput,
  remember: Remember,
): OperationResult<CashOutAccepted> {
  // An archived Cash-Out keeps its reference (a hash hit counts: refusing is the safe side).
  const reference = input.externalReference;
  if (cashOutReferenceTaken(ctx.db, reference) || maybeArchived(ctx.storage.sql, reference, 'cash-out')) {
    return failure({
      code: 'DUPLICATED_EXTERNAL_REFERENCE',
      detail: `externalReference '${input.externalReference}' was already used for a Cash-Out`,
    });
  }
  const now = Date.now();
  const transactionId = newUuid();
  let internalCode = newInternalCode();
  while (cashOutCodeTaken(ctx.db, internalCode) || maybeArchived(ctx.storage.sql, internalCode, 'cash-out'))
    internalCode = newInternalCode();
  const accepted: CashOutAccepted = {
    transactionId,
    internalCode,
    externalReference: input.externalReference,
    status: 'PROCESSING',
    requestedAt: formatBrt(now),
  };
  ctx.storage.transactionSync(() => {
    const row = insertCashOut(ctx.db, {
      transactionId,
      internalCode,
      externalReference: input.externalReference,
      status: 'PROCESSING',
      stage: 'RECEIVED',
      amount: input.amountCents,
      description: input.description ?? null,
      webhookUrl: input.webhookUrl ?? null,
      payeeName: input.payee.name,
      payeeDocument: input.payee.document,
      destination: input.payee.destination,
      destinationKey: destinationKey(input.payee.destination),
      requestedAt: now,
    });
    emitCashOut(ctx, row, 'CASHOUT_REQUESTED', now);
    ctx.scheduler.schedule('cash-out-step', transactionId, now);
    remember(202, accepted);
  });
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

function complete(
  ctx: LedgerContext,
  row: CashOutRow,
  status: Extract<TransferStatus, { state: 'SETTLED' }>,
): void {
  const ispb = row.partnerIspb as string;
  const account = accountAt(ctx.db, ispb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${ispb}`);
  const now = Date.now();
  const payee = status.payeeBank;
  ctx.storage.transactionSync(() => {
    releaseHold(ctx.db, holdId(row.transactionId));
    postEntry(ctx.db, {
      accountNumber: account.number,
      type: 'PIX_OUT',
      amount: row.amount,
      ref: `cash-out:${row.transactionId}`,
      at: now,
      description: row.description ?? `PIX enviado ${row.internalCode}`,
      endToEndId: status.endToEndId,
    });
    const done = update(ctx, row.seq, {
      status: 'COMPLETED',
      stage: 'DONE',
      endToEndId: status.endToEndId,
      completedAt: now,
      ...(payee && { payeeBank: { ...payee, bank: institutionName(payee.ispb) } }),
    });
    emitCashOut(ctx, done, 'CASHOUT_COMPLETED', now);
    observe(ctx, row.transactionId, {
      operation: 'CASH_OUT',
      partnerIspb: ispb,
      institutionIspb: payee?.ispb ?? null,
      event: 'SETTLED',
      latencyMs: now - row.requestedAt,
      at: now,
    });
  });
}

/** Limits, duplicates, routing and the reservation: one synchronous section, so concurrent
 * Cash-Outs can never both count the same money. */
function reserve(
  ctx: LedgerContext,
  row: CashOutRow,
  client: ClientRow | undefined,
  degraded: ReadonlySet<string>,
): number | undefined {
  const usage = limitUsage(ctx.db, row.requestedAt, row.destinationKey);
  const violation = limitViolation(row.amount, client?.limits ?? {}, usage);
  if (violation) {
    cancel(ctx, row, violation);
    return undefined;
  }
  if (hasRecentTwin(ctx.db, row, DUPLICATE_WINDOW_MS)) {
    cancel(ctx, row, 'DUPLICATED_TRANSFER');
    return undefined;
  }
  const transactional = transactionalAccounts(ctx.db);
  const ispb = choosePartner(
    transactional.map((a) => ({
      ispb: a.ispb,
      available: available(ctx.db, a.number),
      degraded: degraded.has(a.ispb),
    })),
    row.amount,
  );
  if (!ispb) {
    cancel(ctx, row, 'INSUFFICIENT_FUNDS');
    return undefined;
  }
  const account = transactional.find((a) => a.ispb === ispb) as (typeof transactional)[number];
  const approval = needsApproval(row.amount, client?.approvalThresholdCents);
  const now = Date.now();
  ctx.storage.transactionSync(() => {
    countTowardLimits(ctx.db, row.requestedAt, row.destinationKey, row.amount);
    placeHold(ctx.db, {
      id: holdId(row.transactionId),
      accountNumber: account.number,
      amount: row.amount,
      ref: `cash-out:${row.transactionId}`,
      at: now,
    });
    update(ctx, row.seq, {
      partnerIspb: ispb,
      settlement: {
        ispb,
        bank: partnerByIspb(ispb)?.name ?? ispb,
        branch: account.branch,
        account: account.number,
      },
      stage: approval ? 'AWAITING_APPROVAL' : 'APPROVED',
      status: approval ? 'PENDING' : 'PROCESSING',
    });
    observe(ctx, row.transactionId, {
      operation: 'CASH_OUT',
      partnerIspb: ispb,
      event: 'CREATED',
      at: row.requestedAt,
    });
  });
  return approval ? undefined : now;
}

async function send(ctx: LedgerContext, row: CashOutRow): Promise<number | undefined> {
  await ctx.crashes.reach('cash-out.approved');
  ctx.storage.transactionSync(() => update(ctx, row.seq, { stage: 'SENDING' }));
  await ctx.crashes.reach('cash-out.sending');
  const sent = await partnerPort(ctx.env, row.partnerIspb as string).sendPayment({
    idempotencyId: row.transactionId,
    amountCents: row.amount,
    payee: { name: row.payeeName, document: row.payeeDocument, destination: row.destination },
    description: row.description,
  });
  await ctx.crashes.reach('cash-out.payment-sent');
  if (!sent.ok) {
    if (sent.retryable) return Date.now() + 5_000;
    cancel(ctx, row, sent.failureCode);
    return undefined;
  }
  ctx.storage.transactionSync(() => update(ctx, row.seq, { stage: 'SENT' }));
  return Date.now() + POLL_MS;
}

/**
 * Runs the next step of one Cash-Out; returns when to run again (undefined: nothing more to do,
 * either finished or waiting for an operator).
 */
export async function stepCashOut(
  ctx: LedgerContext,
  transactionId: string,
  client: () => Promise<ClientRow | undefined>,
  degradedPartners: () => Promise<ReadonlySet<string>> = async () => new Set(),
): Promise<number | undefined> {
  const row = cashOutByTransactionId(ctx.db, transactionId);
  if (!row) return undefined;
  switch (row.stage) {
    case 'RECEIVED': {
      const [config, degraded] = await Promise.all([client(), degradedPartners()]);
      await ctx.crashes.reach('cash-out.checked');
      // Re-read: another step may have run while we awaited.
      const fresh = cashOutByTransactionId(ctx.db, transactionId);
      if (fresh?.stage !== 'RECEIVED') return fresh && fresh.stage !== 'DONE' ? Date.now() : undefined;
      return reserve(ctx, fresh, config, degraded);
    }
    case 'APPROVED':
      return send(ctx, row);
    case 'SENDING':
    case 'SENT': {
      // After a crash in SENDING we do not know whether the partner got it: ask, never guess.
      const status = await partnerPort(ctx.env, row.partnerIspb as string).transferStatus(row.transactionId);
      await ctx.crashes.reach('cash-out.status-read');
      const fresh = cashOutByTransactionId(ctx.db, transactionId);
      if (!fresh || fresh.stage === 'DONE') return undefined;
      if (status.state === 'UNKNOWN') return send(ctx, fresh);
      if (status.state === 'PENDING') {
        if (fresh.stage === 'SENDING')
          ctx.storage.transactionSync(() => update(ctx, fresh.seq, { stage: 'SENT' }));
        return Date.now() + POLL_MS;
      }
      if (status.state === 'FAILED') cancel(ctx, fresh, status.failureCode);
      else complete(ctx, fresh, status);
      return undefined;
    }
    default:
      return undefined;
  }
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
  const approved = ctx.storage.transactionSync(() => {
    const updated = update(ctx, row.seq, { stage: 'APPROVED', status: 'PROCESSING' });
    ctx.scheduler.schedule('cash-out-step', row.transactionId, Date.now());
    return updated;
  });
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
