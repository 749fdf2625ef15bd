/** Reads over a client's Cash-Ins: the cursor list and the summary (spec §4.7–4.8). */
import { type CashInView, cashInView } from '../../src/domain/cash-in';
import type { PageResult } from '../../src/domain/pagination';
import type { CashInRow } from './cash-in-store';
import type { LedgerDb } from './db';
import { keysetPage, type PageInput } from './keyset';
import { cashIns } from './schema';
import { summarize } from './summary-queries';

export type ListInput = PageInput;

export function listCashIns(
  db: LedgerDb,
  input: ListInput,
): PageResult<CashInView & { time: number; seq: number }> {
  return keysetPage(db, cashIns, cashIns.requestedAt, cashIns.seq, input, (row: CashInRow) =>
    cashInView(row),
  );
}

/** Status buckets in centavos and settlement per bank of PAID only. */
export function summarizeCashIns(db: LedgerDb, from: number, to: number) {
  const cols = {
    time: cashIns.requestedAt,
    status: cashIns.status,
    amount: cashIns.amount,
    settlement: cashIns.settlement,
  };
  return summarize(db, cashIns, cols, from, to, 'PAID');
}
