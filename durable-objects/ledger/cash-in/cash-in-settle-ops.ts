/**
 * A Cash-In paid (docs/contract.md, Cash-In lifecycle): the sandbox's pay call or a partner's confirmed Pix
 * (partner-pix-ops.ts) moves it to PAID with its ledger entry, event and health observation in one
 * storage transaction. Who paid is recorded as `paidBy`; a payment the client's payer rules do not
 * allow is not confirmed to it and gets its money back from the same transaction.
 */
import {
  type CashInView,
  cashInView,
  type PaidBy,
  type PayerBankData,
  receivedEntryDescription,
} from '../../../src/domain/cash-in';
import { newEndToEndId } from '../../../src/domain/ids';
import { nextRecheckAt } from '../../../src/domain/med-recheck';
import { type PayerRules, payerAllowed } from '../../../src/domain/payer-rules';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { formatBrt } from '../../../src/domain/time';
import { bankName, settlementPartner } from '../../../src/partners/config';
import { bcbPartner } from '../../../src/partners/port-registry';
import { accountAt, postEntry } from '../ledger/ledger';
import type { LedgerContext } from '../ledger-context';
import { observe } from '../webhooks/events';
import { LATE_SETTLEMENT_GRACE_MS } from './cash-in-ops';
import { type CashInRow, cashInNotFound, emitCashIn, findCashIn, updateCashIn } from './cash-in-store';
import { holdRefund } from './refund-ops';

/** The sandbox payer's bank when a pay call names none. */
const DEFAULT_PAYER_BANK = { ispb: '60701190', branch: '0001', account: '123456-7' };

export interface SettleInput {
  id: string;
  /**
   * The account that paid, as reported: the sandbox's pay request (the declared payer where it
   * names none), or a real partner's payer report. Never written over the declared payer.
   */
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
  rules: PayerRules;
}

/** Who paid (docs/contract.md, Who paid): the sandbox's payer defaults to the declared one; a partner's only as reported. */
function whoPaid(ledger: LedgerContext, row: CashInRow, input: SettleInput): Omit<PaidBy, 'allowed'> {
  const reported = input.endToEndId;
  const given = input.payer?.bankData;
  const bankData: PayerBankData = reported
    ? { ispb: reported.slice(1, 9), bank: bankName(ledger.env, reported.slice(1, 9)) }
    : {
        ispb: given?.ispb ?? DEFAULT_PAYER_BANK.ispb,
        bank: bankName(ledger.env, given?.ispb ?? DEFAULT_PAYER_BANK.ispb),
        branch: given?.branch ?? DEFAULT_PAYER_BANK.branch,
        account: given?.account ?? DEFAULT_PAYER_BANK.account,
      };
  if (input.source === 'sandbox')
    return {
      name: input.payer?.name ?? row.payerName,
      document: input.payer?.document ?? row.payerDocument,
      bankData,
    };
  return {
    ...(input.payer?.name !== undefined && { name: input.payer.name }),
    ...(input.payer?.document !== undefined && { document: input.payer.document }),
    bankData,
  };
}

export async function settleCashIn(
  ledger: LedgerContext,
  input: SettleInput,
): Promise<OperationResult<CashInView>> {
  const now = Date.now();
  const row = findCashIn(ledger.db, input.id);
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
  const partner = settlementPartner(ledger.env, row.partnerIspb);
  const account = accountAt(ledger.db, row.partnerIspb, 'TRANSACTIONAL');
  if (!account) throw new Error(`no TRANSACTIONAL account at ${row.partnerIspb}`);
  const payer = whoPaid(ledger, row, input);
  const paidBy: PaidBy = { ...payer, allowed: payerAllowed(input.rules, row.payerDocument, payer.document) };
  const bank = payer.bankData;
  const endToEndId = input.endToEndId ?? (input.deferEndToEndId ? null : newEndToEndId('E', bank.ispb, now));
  const paid = ledger.storage.transactionSync(() => {
    const updated = updateCashIn(ledger, row.seq, {
      status: 'PAID',
      paidAt: now,
      endToEndId,
      // The declared payer stays as the client wrote it; the paying account is paidBy's.
      payerBank: bank,
      paidBy,
      settlement: {
        ispb: row.partnerIspb,
        bank: partner?.name ?? row.partnerIspb,
        branch: account.branch,
        account: account.number,
      },
    });
    postEntry(ledger.db, {
      accountNumber: account.number,
      type: 'PIX_IN',
      amount: row.amount,
      ref: `cash-in:${row.transactionId}`,
      at: now,
      description: receivedEntryDescription(row),
      endToEndId,
    });
    // A payment the client may not take is never confirmed to it: it would credit its customer.
    if (paidBy.allowed) emitCashIn(ledger, updated, 'CASHIN_PAID', now);
    observe(ledger, row.transactionId, {
      operation: 'CASH_IN',
      partnerIspb: row.partnerIspb,
      institutionIspb: bank.ispb,
      event: 'SETTLED',
      // A Pix Automático charge is created days before the payer's bank pays it on its due date:
      // that wait is the calendar's, not the network's, so it carries no latency.
      ...(row.recurrence === null && { latencyMs: now - row.requestedAt }),
      at: now,
    });
    ledger.scheduler.cancel('expire-cash-in', row.transactionId);
    if (endToEndId === null) ledger.scheduler.schedule('assign-e2e', row.transactionId, now + 2_000);
    // A real partner's payment is read again while a bank may return it (return-rechecks.ts).
    if (bcbPartner(ledger.env, row.partnerIspb))
      ledger.scheduler.schedule('recheck-returns', row.transactionId, nextRecheckAt(now, now) as number);
    // A payer the client does not accept gets the money back (docs/contract.md, Who paid). Held in the
    // payment's own transaction, so no crash can separate them and nothing can spend it meanwhile;
    // the poll sends the devolution as soon as the payment endToEndId is known.
    if (!paidBy.allowed) {
      holdRefund(ledger, updated, account.number, {
        endToEndId: newEndToEndId('D', row.partnerIspb, now),
        reason: 'PAYER_NOT_ALLOWED',
        description: null,
        at: now,
        pollAt: now,
      });
    }
    return updated;
  });
  return success(200, cashInView(findCashIn(ledger.db, row.transactionId) ?? paid));
}

/** A deferred payment end-to-end id arrives (see `deferEndToEndId`). */
export function assignEndToEndId(ledger: LedgerContext, transactionId: string): void {
  const row = findCashIn(ledger.db, transactionId);
  if (!row || row.endToEndId !== null || row.paidAt === null) return;
  const bank = row.paidBy?.bankData ?? row.payerBank ?? { ispb: DEFAULT_PAYER_BANK.ispb };
  ledger.storage.transactionSync(() => {
    updateCashIn(ledger, row.seq, { endToEndId: newEndToEndId('E', bank.ispb, row.paidAt as number) });
  });
}
