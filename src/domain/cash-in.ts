/**
 * Cash-In as the API shows it (docs/contract.md, Cash-In lifecycle): which fields appear in which status is
 * decided here and nowhere else, so GET, lists and events agree.
 */
import { endToEndIdFields, headFields } from './transaction-view';
import { fieldsOf, renderView, type ViewOf } from './view-fields';

export type CashInStatus = 'AWAITING_PAYMENT' | 'PAID' | 'EXPIRED' | 'REFUNDED' | 'CANCELLED';

export interface BankData {
  ispb: string;
  bank: string;
  branch: string;
  account: string;
}

/** The paying account's bank as the network reported it: the ISPB always, branch and account where known. */
export interface PayerBankData {
  ispb: string;
  bank: string;
  branch?: string;
  account?: string;
}

/**
 * Who actually paid a Cash-In (docs/contract.md, Who paid): name and document where the partner
 * reports them; `allowed` is the client's payer rules' verdict on that document.
 */
export interface PaidBy {
  name?: string;
  document?: string;
  bankData: PayerBankData;
  allowed: boolean;
}

/**
 * A recurring charge's place in its recurrence (docs/contract.md, Pix Automático): stored on the
 * Cash-In itself, so GET, lists, events and the archive carry it with the rest of the view.
 */
export interface CashInRecurrence {
  recurrenceId: string;
  cycle: number;
  dueDate: string;
  failedAttempts: number;
  attemptsLeft: number;
}

export interface CashInRecord {
  transactionId: string;
  internalCode: string;
  externalReference: string;
  status: CashInStatus;
  amount: number;
  payerName: string;
  payerDocument: string;
  payerBank: PayerBankData | null;
  paidBy: PaidBy | null;
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
  disputeId: string | null;
  disputeStatus: DisputeStatus | null;
  disputeOpenedAt: number | null;
  disputeRespondBy: number | null;
  disputeBlockedAmount: number | null;
  disputeDefendedAt: number | null;
  disputeClosedAt: number | null;
  recurrence: CashInRecurrence | null;
}

/** A MED infraction's state: open until the payer's bank decides (docs/contract.md, Disputes). */
export type DisputeStatus = 'OPEN' | 'DEFENDED' | 'ACCEPTED' | 'REJECTED' | 'CANCELLED';
export const DISPUTE_STATUSES: readonly DisputeStatus[] = [
  'OPEN',
  'DEFENDED',
  'ACCEPTED',
  'REJECTED',
  'CANCELLED',
];
/** While open, the blocked amount is held. */
export const OPEN_DISPUTE: readonly DisputeStatus[] = ['OPEN', 'DEFENDED'];

const f = fieldsOf<CashInRecord>();
const moneyMoved = f.statusIn('PAID', 'REFUNDED');

/**
 * The Cash-In view, field by field in output order: GET /cash-in/{id}, list items and events
 * (except CASHIN_REQUESTED) all come from it (./view-fields.ts says how).
 */
export const CASH_IN_FIELDS = [
  ...headFields<CashInRecord>(),
  ...endToEndIdFields<CashInRecord>(moneyMoved),
  f.always('status', f.text('status')),
  f.when(f.all(f.statusIn('REFUNDED'), f.filled('reason')), 'reason', f.text('reason')),
  /** Only on PAID after a refund failed at the network: why, so the client can try again. */
  f.when(
    f.all(f.statusIn('PAID'), f.is('refundState', 'FAILED'), f.filled('refundFailureCode')),
    'refundFailure',
    f.failure('refundFailureCode'),
  ),
  f.always('amount', f.money('amount')),
  f.always(
    'payer',
    f.object(
      f.always('name', f.text('payerName')),
      f.always('document', f.text('payerDocument')),
      f.when(f.all(moneyMoved, f.stored('payerBank')), 'bankData', f.json('payerBank')),
    ),
  ),
  f.when(f.all(moneyMoved, f.stored('paidBy')), 'paidBy', f.json('paidBy')),
  f.when(f.all(moneyMoved, f.stored('settlement')), 'settlement', f.json('settlement')),
  f.always('requestedAt', f.brt('requestedAt')),
  f.when(f.all(moneyMoved, f.set('paidAt')), 'paidAt', f.brt('paidAt')),
  f.when(f.all(f.statusIn('REFUNDED'), f.set('refundedAt')), 'refundedAt', f.brt('refundedAt')),
  f.when(f.all(f.statusIn('CANCELLED'), f.set('cancelledAt')), 'cancelledAt', f.brt('cancelledAt')),
  f.always('expiredAt', f.brt('expiresAt')),
  /** A Pix Automático cycle's charge: its recurrence, cycle and the payer bank's attempts. */
  f.when(f.stored('recurrence'), 'recurrence', f.json('recurrence')),
  /** Once opened, in every later status. */
  f.when(
    f.filled('disputeId'),
    'dispute',
    f.object(
      f.always('id', f.text('disputeId')),
      f.always('status', f.text('disputeStatus')),
      f.always('openedAt', f.brt('disputeOpenedAt')),
      f.always('respondBy', f.brt('disputeRespondBy')),
      f.always('blockedAmount', f.money('disputeBlockedAmount')),
      f.when(f.set('disputeDefendedAt'), 'defendedAt', f.brt('disputeDefendedAt')),
      f.when(f.set('disputeClosedAt'), 'closedAt', f.brt('disputeClosedAt')),
    ),
  ),
] as const;

export type CashInView = ViewOf<typeof CASH_IN_FIELDS>;

/** The object GET /cash-in/{id}, list items and events (except CASHIN_REQUESTED) carry. */
export const cashInView = renderView<CashInRecord, typeof CASH_IN_FIELDS>(CASH_IN_FIELDS);

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

/**
 * The statement line of a received Cash-In: its internalCode, and a Pix Automático charge's
 * recurrence and cycle, so a statement alone tells which subscription paid.
 */
export function receivedEntryDescription(row: Pick<CashInRecord, 'internalCode' | 'recurrence'>): string {
  const r = row.recurrence;
  return `PIX recebido ${row.internalCode}${r ? ` (Pix Automático ${r.recurrenceId}, ciclo ${r.cycle})` : ''}`;
}
