/**
 * Account statement views (docs/contract.md, Statement and balance): ledger rows in centavos become statement
 * items with BRL amounts, America/Sao_Paulo dates with milliseconds, normalized types, and no absent fields.
 */
import { amountFromCents } from './money';
import { brtStartOfDay, formatBrt } from './time';

export const STATEMENT_TYPES = [
  'PIX_IN',
  'PIX_OUT',
  'PIX_REFUND_IN',
  'PIX_REFUND_OUT',
  'TRANSFER_IN',
  'TRANSFER_OUT',
  'BILL_PAYMENT',
  'OTHER',
] as const;

export type StatementType = (typeof STATEMENT_TYPES)[number];

const KNOWN = new Set<string>(STATEMENT_TYPES);

/**
 * An unknown partner type is `OTHER` (docs/contract.md, Statement and balance); `typeRaw` keeps the partner's
 * own label.
 */
export function normalizeEntryType(type: string): StatementType {
  return KNOWN.has(type) ? (type as StatementType) : 'OTHER';
}

/**
 * Account numbers in paths: letters, digits and hyphen, at most 32 characters (docs/contract.md, Statement
 * and balance).
 */
export const ACCOUNT_NUMBER = /^[A-Za-z0-9-]{1,32}$/;

/** The ledger row as stored (amounts in centavos, times in epoch milliseconds). */
export interface EntryRow {
  id: string;
  type: string;
  typeRaw: string | null;
  direction: 'CREDIT' | 'DEBIT';
  amount: number;
  balanceAfter: number | null;
  description: string | null;
  endToEndId: string | null;
  originalEndToEndId: string | null;
  createdAt: number;
}

export interface StatementItem {
  id: string;
  date: string;
  direction: 'CREDIT' | 'DEBIT';
  type: StatementType;
  typeRaw?: string;
  amount: number;
  balanceAfter?: number;
  description?: string;
  endToEndId?: string;
  originalEndToEndId?: string;
}

/**
 * One statement item. `endToEndId` only on PIX entries and `originalEndToEndId` only on PIX
 * refunds, whatever the row holds; absent values are omitted, never null (docs/contract.md, Field
 * conventions).
 */
export function statementItem(row: EntryRow): StatementItem {
  const type = normalizeEntryType(row.type);
  const pix = type.startsWith('PIX_');
  const pixRefund = type === 'PIX_REFUND_IN' || type === 'PIX_REFUND_OUT';
  return {
    id: row.id,
    date: formatBrt(row.createdAt),
    direction: row.direction,
    type,
    ...(row.typeRaw !== null && { typeRaw: row.typeRaw }),
    amount: amountFromCents(row.amount),
    ...(row.balanceAfter !== null && { balanceAfter: amountFromCents(row.balanceAfter) }),
    ...(row.description !== null && { description: row.description }),
    ...(pix && row.endToEndId !== null && { endToEndId: row.endToEndId }),
    ...(pixRefund && row.originalEndToEndId !== null && { originalEndToEndId: row.originalEndToEndId }),
  };
}

export interface AccountView {
  number: string;
  branch: string | null;
  type: 'TRANSACTIONAL' | 'PROPRIETARY';
  bank: { ispb: string; name: string | null };
}

/** First instant with statement data: 00:00:00.000 America/Sao_Paulo of the client's start date. */
export function statementCutoff(statementStartDate: string): number {
  return brtStartOfDay(statementStartDate);
}

/** The 422 detail of a `from` (or balance `at`) before the cutoff names the first available date. */
export function cutoffDetail(statementStartDate: string, what: string): string {
  return `${what} is available from ${statementStartDate} (${formatBrt(statementCutoff(statementStartDate))})`;
}

/**
 * The partner's label of a devolution the bank made without us asking (a MED claim, a customer
 * request at the payer bank): a fact, posted even when the balance cannot cover it.
 */
export const BANK_RETURN_LABEL = 'DEVOLUCAO PIX PELO BANCO';
