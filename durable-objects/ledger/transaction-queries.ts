/**
 * Reads over a client's Cash-Ins and Cash-Outs, one code for both kinds: the cursor list
 * (spec §4.7, §4.11) and the summary (spec §4.8), hot rows and archived ones alike
 * (archive-lists.ts, archive-totals.ts). A kind differs only in its table, its view and the status
 * whose money reached a bank (the summary's settlement).
 */
import { sql } from 'drizzle-orm';
import { cashInView } from '../../src/domain/cash-in';
import { cashOutView } from '../../src/domain/cash-out';
import { type PageResult, shapePage } from '../../src/domain/pagination';
import { mergeArchived } from './archive-lists';
import { readSegment } from './archive-reads';
import { type ArchiveSource, cashInSource, cashOutSource } from './archive-sources';
import { archivedTotals, mergeTotals } from './archive-totals';
import type { CashInRow } from './cash-in-store';
import type { CashOutRow } from './cash-out-store';
import type { LedgerContext } from './context';
import { keysetRows, type PageInput, type RowSelection } from './keyset';
import { summarize } from './summary-queries';
import { CASH_IN_JSON, CASH_OUT_JSON } from './view-sql';

export type ListInput = PageInput;
export type TransactionKind = 'cash-in' | 'cash-out';
/** A list item: its view as JSON text, with its sort key. */
export type ListedItem = { row: string; time: number; seq: number };

const SOURCE: Record<TransactionKind, ArchiveSource> = { 'cash-in': cashInSource, 'cash-out': cashOutSource };
const SETTLED: Record<TransactionKind, string> = { 'cash-in': 'PAID', 'cash-out': 'COMPLETED' };
/** Hot rows are rendered by SQLite (view-sql.ts); archived ones by the same view in TypeScript. */
const VIEW_JSON: Record<TransactionKind, RowSelection> = {
  'cash-in': { key: 'view-json', sql: sql.raw(CASH_IN_JSON) },
  'cash-out': { key: 'view-json', sql: sql.raw(CASH_OUT_JSON) },
};
const RENDER: Record<TransactionKind, (row: Record<string, unknown>) => string> = {
  'cash-in': (row) => JSON.stringify(cashInView(row as CashInRow)),
  'cash-out': (row) => JSON.stringify(cashOutView(row as CashOutRow)),
};

/** A page of the kind's views, each already JSON text (what the list answers, byte for byte). */
export async function listTransactions(
  ctx: LedgerContext,
  kind: TransactionKind,
  input: ListInput,
): Promise<PageResult<ListedItem>> {
  const source = SOURCE[kind];
  const hot = keysetRows<string>(
    ctx.db,
    source.table,
    source.time,
    source.seq,
    input,
    undefined,
    VIEW_JSON[kind],
  );
  const rows = await mergeArchived(
    ctx.storage.sql,
    source,
    input,
    hot,
    (key) => readSegment(ctx.env, key),
    undefined,
    RENDER[kind],
  );
  return shapePage(rows, input.limit, input.position);
}

/** Status buckets in centavos, and settlement per bank of the kind's settled status only. */
export async function summarizeTransactions(
  ctx: LedgerContext,
  kind: TransactionKind,
  from: number,
  to: number,
) {
  const source = SOURCE[kind];
  const table = source.table as typeof import('./schema').cashIns;
  const cols = {
    time: table.requestedAt,
    status: table.status,
    amount: table.amount,
    settlement: table.settlement,
  };
  const hot = summarize(ctx.db, table, cols, from, to, SETTLED[kind]);
  const archived = await archivedTotals(ctx.storage.sql, source, from, to, (key) =>
    readSegment(ctx.env, key),
  );
  return mergeTotals(hot, archived, SETTLED[kind]);
}
