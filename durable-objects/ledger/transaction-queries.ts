/**
 * Reads over a client's Cash-Ins and Cash-Outs, one code for both kinds: the cursor list
 * (spec §4.7, §4.11) and the summary (spec §4.8), hot rows and archived ones alike
 * (archive-lists.ts, archive-totals.ts). A kind differs only in its table, its view and the status
 * whose money reached a bank (the summary's settlement).
 */
import { type CashInView, cashInView } from '../../src/domain/cash-in';
import { type CashOutView, cashOutView } from '../../src/domain/cash-out';
import type { PageResult } from '../../src/domain/pagination';
import { mergeArchived } from './archive-lists';
import { readSegment } from './archive-reads';
import { type ArchiveSource, cashInSource, cashOutSource } from './archive-sources';
import { archivedTotals, mergeTotals } from './archive-totals';
import type { CashInRow } from './cash-in-store';
import type { CashOutRow } from './cash-out-store';
import type { LedgerContext } from './context';
import { keysetRows, type PageInput, shapeRows } from './keyset';
import { summarize } from './summary-queries';

export type ListInput = PageInput;
export type TransactionKind = 'cash-in' | 'cash-out';
type Listed<V> = PageResult<V & { time: number; seq: number }>;

const SOURCE: Record<TransactionKind, ArchiveSource> = { 'cash-in': cashInSource, 'cash-out': cashOutSource };
const SETTLED: Record<TransactionKind, string> = { 'cash-in': 'PAID', 'cash-out': 'COMPLETED' };

export async function listTransactions(
  ctx: LedgerContext,
  kind: TransactionKind,
  input: ListInput,
): Promise<Listed<CashInView | CashOutView>> {
  const source = SOURCE[kind];
  const hot = keysetRows<Record<string, unknown>>(ctx.db, source.table, source.time, source.seq, input);
  const rows = await mergeArchived(ctx.storage.sql, source, input, hot, (key) => readSegment(ctx.env, key));
  return kind === 'cash-in'
    ? shapeRows(rows, input, (row) => cashInView(row as CashInRow))
    : shapeRows(rows, input, (row) => cashOutView(row as CashOutRow));
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
