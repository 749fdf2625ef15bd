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

/** The page query reads keys only; the views are rendered by a second statement (below). */
const SEQ: Record<TransactionKind, RowSelection> = {
  'cash-in': { key: 'seq', sql: sql`${cashIns.seq}` },
  'cash-out': { key: 'seq', sql: sql`${cashOuts.seq}` },
};

/**
 * The views of rows by seq, in the order given (a JSON array of seqs). Kept apart from the page
 * query on purpose: with the view expression in the range query itself, executing it cost far more
 * than rendering alone (a 1-item page: 33 % of its profile in SQLite's exec, 14 % split), most
 * likely the statement being planned again for new bound values. CROSS JOIN keeps json_each the
 * outer loop (a plain JOIN measured ~3x slower for a 1-item page).
 */
const RENDER: Record<TransactionKind, string> = {
  'cash-in': `SELECT ${CASH_IN_JSON} AS json FROM json_each(?1) j CROSS JOIN cash_ins ON cash_ins.seq = j.value ORDER BY j.key`,
  'cash-out': `SELECT ${CASH_OUT_JSON} AS json FROM json_each(?1) j CROSS JOIN cash_outs ON cash_outs.seq = j.value ORDER BY j.key`,
};

/** A page of the kind's views, each already JSON text (what the list answers, byte for byte). */
export function listTransactions(
  db: LedgerDb,
  sqlStorage: SqlStorage,
  kind: TransactionKind,
  input: ListInput,
): PageResult<ListedItem> {
  const page =
    kind === 'cash-in'
      ? keysetPage<number>(db, cashIns, cashIns.requestedAt, cashIns.seq, input, SEQ[kind])
      : keysetPage<number>(db, cashOuts, cashOuts.requestedAt, cashOuts.seq, input, SEQ[kind]);
  if (page.items.length === 0) return { ...page, items: [] };
  const seqs = JSON.stringify(page.items.map((item) => item.row));
  const texts = sqlStorage.exec<{ json: string }>(RENDER[kind], seqs).toArray();
  return { ...page, items: page.items.map((item, i) => ({ ...item, row: texts[i]?.json as string })) };
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
