/**
 * Reads over a client's Cash-Ins and Cash-Outs, one code for both kinds: the cursor list
 * (spec §4.7, §4.11) and the summary (spec §4.8). A kind differs only in its table, its view and
 * the status whose money reached a bank (the summary's settlement).
 */
import { sql } from 'drizzle-orm';
import type { PageResult } from '../../src/domain/pagination';
import type { LedgerDb } from './db';
import { keysetPage, type PageInput, type RowSelection } from './keyset';
import { cashIns, cashOuts } from './schema';
import { summarize } from './summary-queries';
import { CASH_IN_JSON, CASH_OUT_JSON } from './view-sql';

export type ListInput = PageInput;
export type TransactionKind = 'cash-in' | 'cash-out';
/** A list item: its view as JSON text, with its sort key. */
export type ListedItem = { row: string; time: number; seq: number };

const VIEW_JSON: Record<TransactionKind, RowSelection> = {
  'cash-in': { key: 'view-json', sql: sql.raw(CASH_IN_JSON) },
  'cash-out': { key: 'view-json', sql: sql.raw(CASH_OUT_JSON) },
};

/** A page of the kind's views, each already JSON text (what the list answers, byte for byte). */
export function listTransactions(
  db: LedgerDb,
  kind: TransactionKind,
  input: ListInput,
): PageResult<ListedItem> {
  return kind === 'cash-in'
    ? keysetPage(db, cashIns, cashIns.requestedAt, cashIns.seq, input, VIEW_JSON[kind])
    : keysetPage(db, cashOuts, cashOuts.requestedAt, cashOuts.seq, input, VIEW_JSON[kind]);
}

/** Status buckets in centavos, and settlement per bank of the kind's settled status only. */
export function summarizeTransactions(db: LedgerDb, kind: TransactionKind, from: number, to: number) {
  const table = kind === 'cash-in' ? cashIns : cashOuts;
  const cols = {
    time: table.requestedAt,
    status: table.status,
    amount: table.amount,
    settlement: table.settlement,
  };
  return summarize(db, table, cols, from, to, kind === 'cash-in' ? 'PAID' : 'COMPLETED');
}
