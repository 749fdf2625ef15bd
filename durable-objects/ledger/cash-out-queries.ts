/** Reads over a client's Cash-Outs: the cursor list and the summary (spec §4.11, §4.8). */
import { type CashOutView, cashOutView } from '../../src/domain/cash-out';
import type { PageResult } from '../../src/domain/pagination';
import type { CashOutRow } from './cash-out-store';
import type { LedgerDb } from './db';
import { keysetPage, type PageInput } from './keyset';
import { cashOuts } from './schema';
import { summarize } from './summary-queries';

export function listCashOuts(
  db: LedgerDb,
  input: PageInput,
): PageResult<CashOutView & { time: number; seq: number }> {
  return keysetPage(db, cashOuts, cashOuts.requestedAt, cashOuts.seq, input, (row: CashOutRow) =>
    cashOutView(row),
  );
}

/** Status buckets in centavos and settlement per bank of COMPLETED only. */
export function summarizeCashOuts(db: LedgerDb, from: number, to: number) {
  const cols = {
    time: cashOuts.requestedAt,
    status: cashOuts.status,
    amount: cashOuts.amount,
    settlement: cashOuts.settlement,
  };
  return summarize(db, cashOuts, cols, from, to, 'COMPLETED');
}
