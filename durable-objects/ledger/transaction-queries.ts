/**
 * Reads over a client's Cash-Ins and Cash-Outs, one code for both kinds: the cursor list
 * (spec §4.7, §4.11) and the summary (spec §4.8). A kind differs only in its table, its view and
 * the status whose money reached a bank (the summary's settlement).
 */
import { type CashInView, cashInView } from '../../src/domain/cash-in';
import { type CashOutView, cashOutView } from '../../src/domain/cash-out';
import type { PageResult } from '../../src/domain/pagination';
import type { CashInRow } from './cash-in-store';
import type { CashOutRow } from './cash-out-store';
import type { LedgerDb } from './db';
import { keysetPage, type PageInput } from './keyset';
import { cashIns, cashOuts } from './schema';
import { summarize } from './summary-queries';

export type ListInput = PageInput;
export type TransactionKind = 'cash-in' | 'cash-out';
type Listed<V> = PageResult<V & { time: number; seq: number }>;

export function listTransactions(
  db: LedgerDb,
  kind: TransactionKind,
  input: ListInput,
): Listed<CashInView | CashOutView> {
  return kind === 'cash-in'
    ? keysetPage(db, cashIns, cashIns.requestedAt, cashIns.seq, input, (row: CashInRow) => cashInView(row))
    : keysetPage(db, cashOuts, cashOuts.requestedAt, cashOuts.seq, input, (row: CashOutRow) =>
        cashOutView(row),
      );
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
