/**
 * The Cash-In state machine of spec §3.1 and decisions §4–§5, executed inside the client's
 * Durable Object. Each transition is one storage transaction that moves state, ledger entries,
 * the outbox event and the health observation together.
 */

import { eq, sql } from 'drizzle-orm';
import { buildDynamicBrCode } from '../../src/domain/brcode';
import { type CashInCreated, type CashInView, cashInView } from '../../src/domain/cash-in';
import { newCashInTxId, newEndToEndId, newInternalCode } from '../../src/domain/ids';
import { merchantFields } from '../../src/domain/merchant';
import { amountFromCents } from '../../src/domain/money';
import { failure, type OperationResult, success } from '../../src/domain/result';
import { formatBrt } from '../../src/domain/time';
import { institutionName, partnerByIspb } from '../../src/partners/catalog';
import { partnerPort } from '../../src/partners/port-registry';
import { type CashInRow, externalReferenceTaken, findCashIn, internalCodeTaken } from './cash-in-store';
import type { LedgerContext } from './context';
import { emitWebhook, observe } from './events';
import type { Remember } from './idempotency';
import { accountAt, available, placeHold, postEntry, releaseHold } from './ledger';
import { ph, prepared } from './prepared';
import { accounts, cashIns, idempotencyKeys } from './schema';

/** Late settlements already in flight are accepted this long after `expiredAt` (decisions §5). */
export const LATE_SETTLEMENT_GRACE_MS = 5 * 60_000;
/** How soon a refund in flight is checked at the partner. */
const REFUND_POLL_MS = 500;

const DEFAULT_PAYER_BANK = { ispb: '60701190', branch: '0001', account: '123456-7' };

function emitCashIn(ctx: LedgerContext, row: CashInRow, eventType: string, at: number): void {
  emitWebhook(ctx, {
    aggregateId: row.transactionId,
    eventType,
    data: cashInView(row),
    webhookUrl: row.webhookUrl,
    at,
  });
}

function update(ctx: LedgerContext, seq: number, changes: Partial<CashInRow>): CashInRow {
  return ctx.db.update(cashIns).set(changes).where(eq(cashIns.seq, seq)).returning().get() as CashInRow;
}

function notFound() {
  return failure({ code: 'CASHIN_NOT_FOUND', detail: 'No Cash-In matches this id' });
}

export interface CreateCashInInput {
  amountCents: number;
  externalReference: string;
  expirationInMinutes: number;
  webhookUrl?: string;
  payer: { name: string; document: string };
  openFinanceRedirectUrl?: string;
  locationPrefix: string;
  paymentUrlPrefix: string;
}

/** The partner that receives a new charge: the client's first partner. */
function chargePartner(ctx: LedgerContext): string {
  const account = prepared(ctx.db, 'accounts.firstTransactional', () =>
    ctx.db
      .select({ ispb: accounts.ispb })
      .from(accounts)
      .where(eq(accounts.type, 'TRANSACTIONAL'))
      .orderBy(sql`rowid`)
      .limit(1)
      .prepare(),
  ).get();
  if (!account) throw new Error('client has no TRANSACTIONAL account');
  return account.ispb;
}

/** The insert of a new Cash-In, built once per object (it runs on every POST /cash-in). */
function insertCashIn(ctx: LedgerContext) {
  return prepared(ctx.db, 'cashIns.insert', () =>
    ctx.db
      .insert(cashIns)
      .values({
        transactionId: ph('transactionId'),
        internalCode: ph('internalCode'),
        externalReference: ph('externalReference'),
        status: ph('status'),
        amount: ph('amount'),
        payerName: ph('payerName'),
        payerDocument: ph('payerDocument'),
        partnerIspb: ph('partnerIspb'),
        webhookUrl: ph('webhookUrl'),
        redirectUrl: ph('redirectUrl'),
        flow: ph('flow'),
        requestedAt: ph('requestedAt'),
        expiresAt: ph('expiresAt'),
      })
      .returning()
      .prepare(),
  );
}

export async function createCashIn(
  ctx: LedgerContext,
  input: CreateCashInInput,
  creating: Set<string>,
  remember: Remember,
): Promise<OperationResult<CashInCreated>> {
  const now = Date.now();
  const reference = input.externalReference;
  if (creating.has(reference) || externalReferenceTaken(ctx.db, reference)) {
    return failure({
      code: 'DUPLICATED_EXTERNAL_REFERENCE',
      detail: `externalReference '${reference}' was already used for a Cash-In`,
    });
  }
  creating.add(reference);
  try {
    const transactionId = newCashInTxId();
    let internalCode = newInternalCode();
    while (internalCodeTaken(ctx.db, internalCode)) internalCode = newInternalCode();
    const partnerIspb = chargePartner(ctx);
    const expiresAt = now + input.expirationInMinutes * 60_000;
    // Everything that could refuse this Cash-In runs before the charge exists at the partner.
    const payment = input.openFinanceRedirectUrl
      ? { openFinanceData: { paymentUrl: `${input.paymentUrlPrefix}${internalCode}` } }
      : {
          pixData: {
            copyAndPaste: buildDynamicBrCode({
              location: `${input.locationPrefix}${internalCode}`,
              amountCents: input.amountCents,
              ...merchantFields(ctx.profile),
            }),
          },
        };
    const registered = await partnerPort(ctx.env, partnerIspb).registerCharge({
      txid: transactionId,
      amountCents: input.amountCents,
      expiresAt,
    });
    await ctx.crashes.reach('cash-in.charge-registered');
    if (!registered.ok) {
      return failure({
        code: 'RULE_VIOLATION',
        detail: 'The settlement partner refused the charge; retry later',
      });
    }
    const created: CashInCreated = {
      transactionId,
      internalCode,
      externalReference: reference,
      status: 'AWAITING_PAYMENT',
      amount: amountFromCents(input.amountCents),
      payer: { name: input.payer.name, document: input.payer.document },
      ...payment,
      requestedAt: formatBrt(now),
    };
    ctx.storage.transactionSync(() => {
      const row = insertCashIn(ctx).get({
        transactionId,
        internalCode,
        externalReference: reference,
        status: 'AWAITING_PAYMENT',
        amount: input.amountCents,
        payerName: input.payer.name,
        payerDocument: input.payer.document,
        partnerIspb,
        webhookUrl: input.webhookUrl ?? null,
        redirectUrl: input.openFinanceRedirectUrl ?? null,
        flow: input.openFinanceRedirectUrl ? 'OPEN_FINANCE' : 'PIX',
        requestedAt: now,
        expiresAt,
      }) as CashInRow;
      emitCashIn(ctx, row, 'CASHIN_REQUESTED', now);
      observe(ctx, transactionId, { operation: 'CASH_IN', partnerIspb, event: 'CREATED', at: now });
      ctx.scheduler.schedule('expire-cash-in', transactionId, expiresAt + LATE_SETTLEMENT_GRACE_MS);
      remember(201, created);
    });
    return success(201, created);
  } finally {
    creating.delete(reference);
  }
}

export interface SettleInput {
  id: string;
  payer?: {
    name?: string;
    document?: string;
    bankData?: { ispb?: string; branch?: string; account?: string };
  };
  /** When the payer's bank initiated the payment (late settlements inside the grace are accepted). */
  initiatedAt?: number;
  /** `sandbox`: the window must still be open; `network`: a settlement already in flight. */
  source: 'sandbox' | 'network';
  /** The end-to-end id reaches us later (a partner that confirms before it knows it). */
  deferEndToEndId?: boolean;
  blockedPayerDocuments: string[];
}

export async function settleCashIn(
  ctx: LedgerContext,
  input: SettleInput,
): Promise<OperationResult<CashInView>> {
  const now = Date.now();
  const row = findCashIn(ctx.db, input.id);
  if (!row) return notFound();
  if (row.status !== 'AWAITING_PAYMENT') {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `The Cash-In is ${row.status}; only AWAITING_PAYMENT can be paid`,
    });
  }
  const initiatedAt = input.initiatedAt ?? now;
  const lateOk = input.source === 'network' && now <= row.expiresAt + LATE_SETTLEMENT_GRACE_MS;
  if (initiatedAt > row.expiresAt || (now > row.expiresAt && !lateOk)) {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `The payment window ended at ${formatBrt(row.expiresAt)}`,
    });
  }
  const partner = partnerByIspb(row.partnerIspb);
  const account = accountAt(ctx.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${row.partnerIspb}`);
  const bank = { ...DEFAULT_PAYER_BANK, ...input.payer?.bankData };
  const payerDocument = input.payer?.document ?? row.payerDocument;
  const endToEndId = input.deferEndToEndId ? null : newEndToEndId('E', bank.ispb, now);
  const blocked = input.blockedPayerDocuments.includes(payerDocument);
  const paid = ctx.storage.transactionSync(() => {
    const updated = update(ctx, row.seq, {
      status: 'PAID',
      paidAt: now,
      endToEndId,
      payerName: input.payer?.name ?? row.payerName,
      payerDocument,
      payerBank: {
        ispb: bank.ispb,
        bank: institutionName(bank.ispb),
        branch: bank.branch,
        account: bank.account,
      },
      settlement: {
        ispb: row.partnerIspb,
        bank: partner?.name ?? row.partnerIspb,
        branch: account.branch,
        account: account.number,
      },
    });
    postEntry(ctx.db, {
      accountNumber: account.number,
      type: 'PIX_IN',
      amount: row.amount,
      ref: `cash-in:${row.transactionId}`,
      at: now,
      description: `PIX recebido ${row.internalCode}`,
      endToEndId,
    });
    emitCashIn(ctx, updated, 'CASHIN_PAID', now);
    observe(ctx, row.transactionId, {
      operation: 'CASH_IN',
      partnerIspb: row.partnerIspb,
      institutionIspb: bank.ispb,
      event: 'SETTLED',
      latencyMs: now - row.requestedAt,
      at: now,
    });
    ctx.scheduler.cancel('expire-cash-in', row.transactionId);
    if (endToEndId === null) ctx.scheduler.schedule('assign-e2e', row.transactionId, now + 2_000);
    // A payer the client does not accept gets the money back (decisions §4). Held in the payment's
    // own transaction, so no crash can separate them and nothing can spend it meanwhile; the poll
    // sends the devolution as soon as the payment endToEndId is known.
    if (blocked) {
      holdRefund(ctx, updated, account.number, {
        endToEndId: newEndToEndId('D', row.partnerIspb, now),
        reason: 'PAYER_NOT_ALLOWED',
        description: null,
        at: now,
        pollAt: now,
      });
    }
    return updated;
  });
  return success(200, cashInView(findCashIn(ctx.db, row.transactionId) ?? paid));
}

/** A deferred payment end-to-end id arrives (see `deferEndToEndId`). */
export function assignEndToEndId(ctx: LedgerContext, transactionId: string): void {
  const row = findCashIn(ctx.db, transactionId);
  if (!row || row.endToEndId !== null || row.paidAt === null) return;
  const bank = row.payerBank ?? { ispb: DEFAULT_PAYER_BANK.ispb };
  ctx.storage.transactionSync(() => {
    update(ctx, row.seq, { endToEndId: newEndToEndId('E', bank.ispb, row.paidAt as number) });
  });
}

export interface RefundBody {
  transactionId: string;
  internalCode: string;
  externalReference: string;
  endToEndId: string;
  status: 'PROCESSING';
  amount: number;
  requestedAt: string;
  message: string;
}

const REFUSAL: Partial<Record<CashInRow['status'], string>> = {
  AWAITING_PAYMENT: 'The Cash-In is not paid yet',
  EXPIRED: 'The Cash-In expired without payment',
  CANCELLED: 'The Cash-In was cancelled',
  REFUNDED: 'The Cash-In was already refunded',
};

/**
 * Sets the refund's money aside and records it PROCESSING, inside the caller's transaction. The
 * poll task sends the devolution if nobody did (or a crash lost it) and settles it.
 */
function holdRefund(
  ctx: LedgerContext,
  row: CashInRow,
  accountNumber: string,
  refund: { endToEndId: string; reason: string; description: string | null; at: number; pollAt: number },
): void {
  placeHold(ctx.db, {
    id: `refund:${row.transactionId}`,
    accountNumber,
    amount: row.amount,
    ref: `cash-in:${row.transactionId}`,
    at: refund.at,
  });
  update(ctx, row.seq, {
    refundState: 'PROCESSING',
    refundEndToEndId: refund.endToEndId,
    reason: refund.reason,
    refundDescription: refund.description,
  });
  ctx.scheduler.schedule('poll-refund', row.transactionId, refund.pollAt);
}

/** Checks, holds the money, records PROCESSING and sends the devolution to the network. */
export async function startRefund(
  ctx: LedgerContext,
  row: CashInRow,
  reason: string,
  description: string | null,
  remember: Remember,
  idempotencyKey?: string,
): Promise<OperationResult<RefundBody>> {
  const refusal = REFUSAL[row.status];
  if (refusal) return failure({ code: 'REFUND_NOT_ALLOWED', detail: refusal });
  if (row.refundState === 'PROCESSING') {
    return failure({ code: 'REFUND_NOT_ALLOWED', detail: 'A refund of this Cash-In is already in progress' });
  }
  if (row.endToEndId === null) {
    return failure({
      code: 'MISSING_E2E',
      detail: 'The payment endToEndId is not available yet; retry later',
    });
  }
  const account = accountAt(ctx.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account || available(ctx.db, account.number) < row.amount) {
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
  ctx.storage.transactionSync(() => {
    // Polled even if we crash before sending: the poll re-sends under the same idempotency id.
    holdRefund(ctx, row, account.number, {
      endToEndId: refundEndToEndId,
      reason,
      description,
      at: now,
      pollAt: now + REFUND_POLL_MS,
    });
    remember(202, body);
  });
  await ctx.crashes.reach('refund.held');
  const sent = await partnerPort(ctx.env, row.partnerIspb).sendDevolution({
    endToEndId: refundEndToEndId,
    originalEndToEndId: row.endToEndId,
    amountCents: row.amount,
  });
  await ctx.crashes.reach('refund.sent');
  if (!sent.ok && !sent.retryable) {
    // Other events ran while the partner answered (the poll, a late settlement): reset only the
    // refund this call started, as it still stands.
    const current = findCashIn(ctx.db, row.transactionId);
    if (current?.refundState !== 'PROCESSING' || current.refundEndToEndId !== refundEndToEndId)
      return success(202, body);
    ctx.storage.transactionSync(() => {
      releaseHold(ctx.db, `refund:${row.transactionId}`);
      update(ctx, row.seq, {
        refundState: 'NONE',
        refundEndToEndId: null,
        reason: null,
        refundDescription: null,
      });
      ctx.scheduler.cancel('poll-refund', row.transactionId);
      if (idempotencyKey !== undefined)
        ctx.db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, idempotencyKey)).run();
    });
    return failure({ code: 'RULE_VIOLATION', detail: 'The settlement partner refused the devolution' });
  }
  return success(202, body);
}

/**
 * The devolution reached the payer: the debit, REFUNDED, the event and the observation, inside
 * the caller's transaction.
 */
function settleDevolution(
  ctx: LedgerContext,
  row: CashInRow,
  accountNumber: string,
  devolution: { endToEndId: string; reason?: string; at: number },
): CashInRow {
  postEntry(ctx.db, {
    accountNumber,
    type: 'PIX_REFUND_OUT',
    amount: row.amount,
    ref: `cash-in:${row.transactionId}`,
    at: devolution.at,
    description: `Devolucao PIX ${row.internalCode}`,
    endToEndId: devolution.endToEndId,
    originalEndToEndId: row.endToEndId,
  });
  const refunded = update(ctx, row.seq, {
    status: 'REFUNDED',
    refundState: 'DONE',
    refundEndToEndId: devolution.endToEndId,
    refundedAt: devolution.at,
    ...(devolution.reason !== undefined && { reason: devolution.reason }),
  });
  emitCashIn(ctx, refunded, 'CASHIN_REFUNDED', devolution.at);
  observe(ctx, row.transactionId, {
    operation: 'CASH_IN',
    partnerIspb: row.partnerIspb,
    institutionIspb: row.payerBank?.ispb ?? null,
    event: 'RETURNED',
    at: devolution.at,
  });
  return refunded;
}

/** Poll task: settles, fails or re-sends the devolution in flight. Returns when to poll again. */
export async function pollRefund(ctx: LedgerContext, transactionId: string): Promise<number | undefined> {
  const row = findCashIn(ctx.db, transactionId);
  if (row?.refundState !== 'PROCESSING' || !row.refundEndToEndId) return undefined;
  // An automatic refund waits for the payment endToEndId a partner confirms later (assign-e2e).
  if (!row.endToEndId) return Date.now() + REFUND_POLL_MS;
  const port = partnerPort(ctx.env, row.partnerIspb);
  const status = await port.transferStatus(row.refundEndToEndId);
  await ctx.crashes.reach('refund.status-read');
  const now = Date.now();
  if (status.state === 'PENDING') return now + REFUND_POLL_MS;
  if (status.state === 'UNKNOWN') {
    await port.sendDevolution({
      endToEndId: row.refundEndToEndId,
      originalEndToEndId: row.endToEndId,
      amountCents: row.amount,
    });
    return now + REFUND_POLL_MS;
  }
  const account = accountAt(ctx.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${row.partnerIspb}`);
  ctx.storage.transactionSync(() => {
    releaseHold(ctx.db, `refund:${row.transactionId}`);
    if (status.state === 'FAILED') {
      update(ctx, row.seq, {
        refundState: 'NONE',
        refundEndToEndId: null,
        reason: null,
        refundDescription: null,
      });
      return;
    }
    settleDevolution(ctx, row, account.number, { endToEndId: row.refundEndToEndId as string, at: now });
  });
  return undefined;
}

/** A devolution initiated by a bank (MED claim or customer request): PAID → REFUNDED now. */
export function bankReturn(ctx: LedgerContext, id: string, reason: string): OperationResult<CashInView> {
  const row = findCashIn(ctx.db, id);
  if (!row) return notFound();
  if (row.status !== 'PAID' || row.refundState === 'PROCESSING' || row.endToEndId === null) {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only a settled PAID Cash-In can be returned; this one is ${row.status}`,
    });
  }
  const account = accountAt(ctx.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account || available(ctx.db, account.number) < row.amount) {
    return failure({
      code: 'RULE_VIOLATION',
      detail: 'The TRANSACTIONAL balance cannot cover this devolution',
    });
  }
  const now = Date.now();
  const refundEndToEndId = newEndToEndId('D', row.partnerIspb, now);
  const refunded = ctx.storage.transactionSync(() =>
    settleDevolution(ctx, row, account.number, { endToEndId: refundEndToEndId, reason, at: now }),
  );
  return success(200, cashInView(refunded));
}

export function cancelCashIn(ctx: LedgerContext, id: string): OperationResult<CashInView> {
  const row = findCashIn(ctx.db, id);
  if (!row) return notFound();
  if (row.status !== 'AWAITING_PAYMENT') {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only AWAITING_PAYMENT can be cancelled; this Cash-In is ${row.status}`,
    });
  }
  const now = Date.now();
  const cancelled = ctx.storage.transactionSync(() => {
    const updated = update(ctx, row.seq, { status: 'CANCELLED', cancelledAt: now });
    emitCashIn(ctx, updated, 'CASHIN_CANCELLED', now);
    ctx.scheduler.cancel('expire-cash-in', row.transactionId);
    return updated;
  });
  return success(200, cashInView(cancelled));
}

/**
 * Ends the payment window. `now: true` (sandbox) closes it at this instant; the task path runs
 * after the late-settlement grace. `expiredAt` stays the end of the window either way.
 */
export function expireCashIn(
  ctx: LedgerContext,
  id: string,
  immediately: boolean,
): OperationResult<CashInView> {
  const row = findCashIn(ctx.db, id);
  if (!row) return notFound();
  if (row.status !== 'AWAITING_PAYMENT') {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only AWAITING_PAYMENT can expire; this Cash-In is ${row.status}`,
    });
  }
  const now = Date.now();
  if (!immediately && now < row.expiresAt + LATE_SETTLEMENT_GRACE_MS) {
    ctx.scheduler.schedule('expire-cash-in', row.transactionId, row.expiresAt + LATE_SETTLEMENT_GRACE_MS);
    return failure({ code: 'RULE_VIOLATION', detail: 'Still inside the late-settlement grace' });
  }
  const expired = ctx.storage.transactionSync(() => {
    const updated = update(ctx, row.seq, {
      status: 'EXPIRED',
      ...(immediately && { expiresAt: Math.min(row.expiresAt, now) }),
    });
    emitCashIn(ctx, updated, 'CASHIN_EXPIRED', now);
    observe(ctx, row.transactionId, {
      operation: 'CASH_IN',
      partnerIspb: row.partnerIspb,
      event: 'EXPIRED',
      at: now,
    });
    ctx.scheduler.cancel('expire-cash-in', row.transactionId);
    return updated;
  });
  return success(200, cashInView(expired));
}
