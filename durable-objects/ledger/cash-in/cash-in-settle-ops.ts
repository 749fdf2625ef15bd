/**
 * A Cash-In paid (docs/contract.md, Cash-In lifecycle): the sandbox's pay call or a partner's confirmed Pix
 * (partner-pix-ops.ts) moves it to PAID with its ledger entry, event and health observation in one
 * storage transaction; a payer the client blocks gets the money back from the same transaction.
 */
import { type CashInView, cashInView } from '../../../src/domain/cash-in';
import { newEndToEndId } from '../../../src/domain/ids';
import { nextRecheckAt } from '../../../src/domain/med-recheck';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { formatBrt } from '../../../src/domain/time';
import { bankName, settlementPartner } from '../../../src/partners/config';
import { bcbPartner } from '../../../src/partners/port-registry';
import type { LedgerContext } from '../context';
import { accountAt, postEntry } from '../ledger/ledger';
import { observe } from '../webhooks/events';
import { LATE_SETTLEMENT_GRACE_MS } from './cash-in-ops';
import { cashInNotFound, emitCashIn, findCashIn, updateCashIn } from './cash-in-store';
import { holdRefund } from './refund-ops';

/** The sandbox payer's bank when a pay call names none. */
const DEFAULT_PAYER_BANK = { ispb: '60701190', branch: '0001', account: '123456-7' };

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
  /**
   * The payment's end-to-end id as a real partner reports it. Its ISPB (characters 2–9) is the
   * payer's institution; API Pix gives no payer branch or account, so none is shown.
   */
  endToEndId?: string;
  blockedPayerDocuments: string[];
}

export async function settleCashIn(
  ctx: LedgerContext,
  input: SettleInput,
): Promise<OperationResult<CashInView>> {
  const now = Date.now();
  const row = findCashIn(ctx.db, input.id);
  if (!row) return cashInNotFound();
  if (row.status !== 'AWAITING_PAYMENT') {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `The Cash-In is ${row.status}; only AWAITING_PAYMENT can be paid`,
    });
  }
  const initiatedAt = input.initiatedAt ?? now;
  // A network payment the partner dates inside the window is a fact however late it reaches us
  // (the charge stays AWAITING_PAYMENT until its partner confirms it unpaid: cash-in-expiry.ts).
  const lateOk =
    input.source === 'network' &&
    (now <= row.expiresAt + LATE_SETTLEMENT_GRACE_MS || input.initiatedAt !== undefined);
  if (initiatedAt > row.expiresAt || (now > row.expiresAt && !lateOk)) {
    return failure({
      code: 'RULE_VIOLATION',
      detail: `The payment window ended at ${formatBrt(row.expiresAt)}`,
    });
  }
  const partner = settlementPartner(ctx.env, row.partnerIspb);
  const account = accountAt(ctx.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${row.partnerIspb}`);
  const reported = input.endToEndId;
  const bank = {
    ...DEFAULT_PAYER_BANK,
    ...(reported && { ispb: reported.slice(1, 9) }),
    ...input.payer?.bankData,
  };
  const payerDocument = input.payer?.document ?? row.payerDocument;
  const endToEndId = reported ?? (input.deferEndToEndId ? null : newEndToEndId('E', bank.ispb, now));
  const blocked = input.blockedPayerDocuments.includes(payerDocument);
  const paid = ctx.storage.transactionSync(() => {
    const updated = updateCashIn(ctx, row.seq, {
      status: 'PAID',
      paidAt: now,
      endToEndId,
      payerName: input.payer?.name ?? row.payerName,
      payerDocument,
      payerBank:
        reported && !input.payer?.bankData
          ? null
          : {
              ispb: bank.ispb,
              bank: bankName(ctx.env, bank.ispb),
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
    // A real partner's payment is read again while a bank may return it (return-rechecks.ts).
    if (bcbPartner(ctx.env, row.partnerIspb))
      ctx.scheduler.schedule('recheck-returns', row.transactionId, nextRecheckAt(now, now) as number);
    // A payer the client does not accept gets the money back (docs/contract.md, Sandbox). Held in the payment's
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
    updateCashIn(ctx, row.seq, { endToEndId: newEndToEndId('E', bank.ispb, row.paidAt as number) });
  });
}
