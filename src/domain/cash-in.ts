/**
 * Cash-In as the API shows it (docs/contract.md, Cash-In lifecycle): which fields appear in which status is
 * decided here and nowhere else, so GET, lists and events agree.
 */
import { failureOf } from './failure-codes';
import { formatBrt } from './time';
import { endToEndIds, viewHead } from './transaction-view';

export type CashInStatus = 'AWAITING_PAYMENT' | 'PAID' | 'EXPIRED' | 'REFUNDED' | 'CANCELLED';

export interface BankData {
  ispb: string;
  bank: string;
  branch: string;
  account: string;
}

export interface CashInRecord {
  transactionId: string;
  internalCode: string;
  externalReference: string;
  status: CashInStatus;
  amount: number;
  payerName: string;
  payerDocument: string;
  payerBank: BankData | null;
  settlement: BankData | null;
  endToEndId: string | null;
  refundEndToEndId: string | null;
  reason: string | null;
  /** FAILED while the last refund's failure is the latest word (the Cash-In is PAID again). */
  refundState: string;
  refundFailureCode: string | null;
  requestedAt: number;
  expiresAt: number;
  paidAt: number | null;
  refundedAt: number | null;
  cancelledAt: number | null;
}

export interface CashInView {
  transactionId: string;
  internalCode: string;
  externalReference: string;
  endToEndId?: string;
  originalEndToEndId?: string;
  status: CashInStatus;
  reason?: string;
  /** Only on PAID after a refund failed at the network: why, so the client can try again. */
  refundFailure?: { code: string; message: string };
  amount: number;
  payer: { name: string; document: string; bankData?: BankData };
  settlement?: BankData;
  requestedAt: string;
  paidAt?: string;
  refundedAt?: string;
  cancelledAt?: string;
  expiredAt: string;
}

/** The object GET /cash-in/{id}, list items and events (except CASHIN_REQUESTED) carry. */
export function cashInView(r: CashInRecord): CashInView {
  const moneyMoved = r.status === 'PAID' || r.status === 'REFUNDED';
  const view: CashInView = {
    ...viewHead(r),
    payer: { name: r.payerName, document: r.payerDocument },
    requestedAt: formatBrt(r.requestedAt),
    expiredAt: formatBrt(r.expiresAt),
    ...endToEndIds(r, moneyMoved),
  };
  if (r.status === 'REFUNDED' && r.reason) view.reason = r.reason;
  if (r.status === 'PAID' && r.refundState === 'FAILED' && r.refundFailureCode)
    view.refundFailure = failureOf(r.refundFailureCode);
  if (moneyMoved && r.payerBank) view.payer.bankData = r.payerBank;
  if (moneyMoved && r.settlement) view.settlement = r.settlement;
  if (moneyMoved && r.paidAt !== null) view.paidAt = formatBrt(r.paidAt);
  if (r.status === 'REFUNDED' && r.refundedAt !== null) view.refundedAt = formatBrt(r.refundedAt);
  if (r.status === 'CANCELLED' && r.cancelledAt !== null) view.cancelledAt = formatBrt(r.cancelledAt);
  return orderKeys(view);
}

const KEY_ORDER = [
  'transactionId',
  'internalCode',
  'externalReference',
  'endToEndId',
  'originalEndToEndId',
  'status',
  'reason',
  'refundFailure',
  'amount',
  'payer',
  'settlement',
  'requestedAt',
  'paidAt',
  'refundedAt',
  'cancelledAt',
  'expiredAt',
] as const;

/** Stable key order so the same Cash-In serializes identically on GET, list and events. */
function orderKeys(view: CashInView): CashInView {
  const out: Record<string, unknown> = {};
  for (const key of KEY_ORDER) if (view[key] !== undefined) out[key] = view[key];
  return out as unknown as CashInView;
}

/** The creation response (OpenAPI createCashIn): no settlement data yet, plus how to pay. */
export interface CashInCreated {
  transactionId: string;
  internalCode: string;
  externalReference: string;
  status: 'AWAITING_PAYMENT';
  amount: number;
  payer: { name: string; document: string };
  pixData?: { copyAndPaste: string; qrCodeImageBase64?: string };
  openFinanceData?: { paymentUrl: string };
  requestedAt: string;
}
