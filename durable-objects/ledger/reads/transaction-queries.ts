/**
 * Reads over a client's Cash-Ins and Cash-Outs, one code for both kinds: the cursor list
 * (docs/contract.md, Lists, cursors and periods) and the summary (docs/contract.md, Summaries), hot rows and
 * archived ones alike (archive-lists.ts, archive-totals.ts). A kind differs only in its table, its view and
 * the status whose money reached a bank (the summary's settlement).
 */
import { cashInView } from '../../../src/domain/cash-in';
import { cashOutView } from '../../../src/domain/cash-out';
import { type PageResult, shapePage } from '../../../src/domain/pagination';
import { mergeArchived } from '../archive/archive-lists';
import { readSegment } from '../archive/archive-reads';
import { type ArchiveSource, cashInSource, cashOutSource } from '../archive/archive-sources';
import { archivedTotals, mergeTotals } from '../archive/archive-totals';
import { type CashInRow, cashInJsonSql } from '../cash-in/cash-in-store';
import { type CashOutRow, cashOutJsonSql } from '../cash-out/cash-out-store';
import type { LedgerContext } from '../ledger-context';
import { keysetRows, type PageInput } from './keyset';
import { summarize } from './summary-queries';

export type ListInput = PageInput;
export type TransactionKind = 'cash-in' | 'cash-out';
/** A list item: its view as JSON text, with its sort key. */
export type ListedItem = { row: string; time: number; seq: number };

const SOURCE: Record<TransactionKind, ArchiveSource> = { 'cash-in': cashInSource, 'cash-out': cashOutSource };
const SETTLED: Record<TransactionKind, string> = { 'cash-in': 'PAID', 'cash-out': 'COMPLETED' };
/** The statements that render a kind's views as JSON text (its store). */
const JSON_SQL = { 'cash-in': cashInJsonSql, 'cash-out': cashOutJsonSql };

/** Archived rows: the same field tables rendered in TypeScript (src/domain/view-fields.ts). */
const RENDER_ARCHIVED: Record<TransactionKind, (row: Record<string, unknown>) => string> = {
  'cash-in': (row) => JSON.stringify(cashInView(row as CashInRow)),
  'cash-out': (row) => JSON.stringify(cashOutView(row as CashOutRow)),
};

/** A hot row's seq until the page is cut, or an archived row already rendered. */
type Pending = { hot: number } | { json: string };

/** A page of the kind's views, each already JSON text (what the list answers, byte for byte). */
export async function listTransactions(
  ledger: LedgerContext,
  kind: TransactionKind,
  input: ListInput,
): Promise<PageResult<ListedItem>> {
  const source = SOURCE[kind];
  const hot = keysetRows<number>(
    ledger.db,
    source.table,
    source.time,
    source.seq,
    input,
    undefined,
    JSON_SQL[kind].seq,
  );
  const rows = await mergeArchived<Record<string, unknown>, Pending>(
    ledger,
    source,
    input,
    hot.map((h) => ({ ...h, row: { hot: h.row } })),
    (key) => readSegment(ledger.env, key),
    undefined,
    (row) => ({ json: RENDER_ARCHIVED[kind](row) }),
  );
  const page = shapePage(rows, input.limit, input.position);
  const seqs = page.items.flatMap((item) => ('hot' in item.row ? [item.row.hot] : []));
  const texts =
    seqs.length === 0
      ? []
      : ledger.storage.sql.exec<{ json: string }>(JSON_SQL[kind].hot, JSON.stringify(seqs)).toArray();
  let next = 0;
  return {
    ...page,
    items: page.items.map((item) => ({
      ...item,
      row: 'json' in item.row ? item.row.json : (texts[next++]?.json as string),
    })),
  };
}

/** Status buckets in centavos, and settlement per bank of the kind's settled status only. */
export async function summarizeTransactions(
  ledger: LedgerContext,
  kind: TransactionKind,
  from: number,
  to: number,
) {
  const source = SOURCE[kind];
  const table = source.table as typeof import('../schema').cashIns;
  const cols = {
    time: table.requestedAt,
    status: table.status,
    amount: table.amount,
    settlement: table.settlement,
  };
  const hot = summarize(ledger.db, table, cols, from, to, SETTLED[kind]);
  const archived = await archivedTotals(ledger, source, from, to, (key) => readSegment(ledger.env, key));
  return mergeTotals(hot, archived, SETTLED[kind]);
}
