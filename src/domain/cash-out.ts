/**
 * Cash-Out as the API shows it (docs/contract.md, Cash-Out lifecycle) and the pure rules of its execution:
 * which fields appear in which status, withdrawal limits, and the routing policy that picks a partner.
 */

import type { BankData } from './cash-in';
import { normalizeDocument } from './documents';
import type { FailureCode } from './failure-codes';
import type { ClientLimits } from './limits';
import { endToEndIdFields, headFields } from './transaction-view';
import { fieldsOf, renderView, type ViewOf } from './view-fields';

export type CashOutStatus = 'PROCESSING' | 'PENDING' | 'COMPLETED' | 'CANCELLED' | 'REFUNDED';
export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';

export type Destination =
  | { type: 'PIX'; pixKeyType: PixKeyType; pixKey: string }
  | {
      type: 'BANK_ACCOUNT';
      bankAccount: {
        ispb: string;
        branch: string;
        account: string;
        accountType: 'CACC' | 'SVGS' | 'PAYMENT';
      };
    };

export interface CashOutRecord {
  transactionId: string;
  internalCode: string;
  externalReference: string;
  status: CashOutStatus;
  amount: number;
  payeeName: string;
  payeeDocument: string;
  destination: Destination;
  payeeBank: BankData | null;
  settlement: BankData | null;
  endToEndId: string | null;
  refundEndToEndId: string | null;
  failureCode: string | null;
  reason: string | null;
  requestedAt: number;
  completedAt: number | null;
  cancelledAt: number | null;
  refundedAt: number | null;
}

const f = fieldsOf<CashOutRecord>();
const settled = f.statusIn('COMPLETED', 'REFUNDED');

/**
 * The Cash-Out view, field by field in output order: GET /cash-out/{id}, list items and every
 * Cash-Out event all come from it (./view-fields.ts says how).
 */
export const CASH_OUT_FIELDS = [
  ...headFields<CashOutRecord>(),
  f.always('status', f.text('status')),
  f.always('amount', f.money('amount')),
  f.always(
    'payee',
    f.object(
      f.always('name', f.text('payeeName')),
      f.always('document', f.text('payeeDocument')),
      f.always('destination', f.json('destination')),
      f.when(f.all(settled, f.stored('payeeBank')), 'bankData', f.json('payeeBank')),
    ),
  ),
  f.always('requestedAt', f.brt('requestedAt')),
  ...endToEndIdFields<CashOutRecord>(f.statusIn('COMPLETED', 'CANCELLED')),
  f.when(f.statusIn('CANCELLED'), 'failure', f.failure('failureCode')),
  f.when(f.all(f.statusIn('REFUNDED'), f.filled('reason')), 'reason', f.text('reason')),
  f.when(
    f.all(f.statusIn('COMPLETED', 'REFUNDED', 'CANCELLED'), f.stored('settlement')),
    'settlement',
    f.json('settlement'),
  ),
  f.when(f.all(settled, f.set('completedAt')), 'completedAt', f.brt('completedAt')),
  f.when(f.all(f.statusIn('CANCELLED'), f.set('cancelledAt')), 'cancelledAt', f.brt('cancelledAt')),
  f.when(f.all(f.statusIn('REFUNDED'), f.set('refundedAt')), 'refundedAt', f.brt('refundedAt')),
] as const;

export type CashOutView = ViewOf<typeof CASH_OUT_FIELDS>;

/** The object GET /cash-out/{id}, list items and every Cash-Out event carry. */
export const cashOutView = renderView<CashOutRecord, typeof CASH_OUT_FIELDS>(CASH_OUT_FIELDS);

/** Digits (and an account's X check digit) without separators or leading zeros; "0" stays "0". */
function withoutLeadingZeros(text: string): string {
  return text
    .replace(/[^0-9X]/gi, '')
    .toUpperCase()
    .replace(/^0+(?=.)/, '');
}

/**
 * A PIX key as the DICT stores it (docs/contract.md, Payee identity and withdrawal limits): one payee however
 * the client wrote it.
 */
function normalizedPixKey(type: PixKeyType, key: string): string {
  const trimmed = key.trim();
  switch (type) {
    case 'EMAIL':
    case 'EVP':
      return trimmed.toLowerCase();
    case 'PHONE': {
      const digits = trimmed.replace(/\D/g, '');
      return `+${digits.startsWith('55') && digits.length >= 12 ? digits : `55${digits}`}`;
    }
    case 'CNPJ':
      // An alphanumeric CNPJ's letters are part of it: upper-cased, only separators go.
      return normalizeDocument(trimmed.replace(/[^0-9A-Za-z]/g, ''));
    default:
      return trimmed.replace(/\D/g, '');
  }
}

/**
 * The destination as it is kept and sent to the partner: a CNPJ key upper-cased (the DICT's form of
 * an alphanumeric CNPJ); every other key as the client wrote it.
 */
export function canonicalDestination(d: Destination): Destination {
  return d.type === 'PIX' && d.pixKeyType === 'CNPJ' ? { ...d, pixKey: normalizeDocument(d.pixKey) } : d;
}

/**
 * What identifies a payee for per-payee limits and duplicate detection (docs/contract.md, Payee identity
 * and withdrawal limits): PIX keys as the DICT stores them (a CNPJ key upper-case); bank accounts as
 * (ispb, branch, account with its check digit), numbers without separators or leading zeros, so
 * `0001`/`1` and `0012345-6`/`123456` are one payee.
 */
export function destinationKey(d: Destination): string {
  if (d.type === 'PIX') return `PIX:${d.pixKeyType}:${normalizedPixKey(d.pixKeyType, d.pixKey)}`;
  const { ispb, branch, account } = d.bankAccount;
  return `ACC:${ispb}:${withoutLeadingZeros(branch)}:${withoutLeadingZeros(account)}`;
}

export interface LimitUsage {
  /** Centavos already committed (not cancelled) today, this month and to this payee today (BRT). */
  day: number;
  month: number;
  payeeDay: number;
}

/**
 * The first withdrawal limit this Cash-Out would break, in the order of docs/contract.md, Payee identity and
 * withdrawal limits.
 */
export function limitViolation(
  amount: number,
  limits: ClientLimits,
  usage: LimitUsage,
): FailureCode | undefined {
  if (limits.perTransaction !== undefined && amount > limits.perTransaction) return 'AMOUNT_ABOVE_MAXIMUM';
  if (limits.daily !== undefined && usage.day + amount > limits.daily) return 'DAILY_LIMIT_EXCEEDED';
  if (limits.monthly !== undefined && usage.month + amount > limits.monthly) return 'PERIOD_LIMIT_EXCEEDED';
  if (limits.perPayeeDaily !== undefined && usage.payeeDay + amount > limits.perPayeeDaily)
    return 'PAYEE_LIMIT_EXCEEDED';
  return undefined;
}

export interface PartnerCandidate {
  ispb: string;
  /** TRANSACTIONAL balance minus holds at that partner. */
  available: number;
  /** An open PIX health incident is attributed to this partner. */
  degraded: boolean;
}

/**
 * Routing policy: among partners that can cover the amount, prefer healthy ones, then the most
 * available balance (spreading load and keeping headroom); ties keep the client's partner order.
 */
export function choosePartner(candidates: PartnerCandidate[], amount: number): string | undefined {
  const able = candidates.map((c, i) => ({ ...c, i })).filter((c) => c.available >= amount);
  able.sort((a, b) => Number(a.degraded) - Number(b.degraded) || b.available - a.available || a.i - b.i);
  return able[0]?.ispb;
}

/** Identical transfers (same payee and amount) this close together are refused as duplicates. */
export const DUPLICATE_WINDOW_MS = 10_000;
