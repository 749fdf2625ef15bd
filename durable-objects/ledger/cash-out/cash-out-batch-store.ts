/**
 * The batch store: every statement on `cash_out_batches` (one row per POST /cash-out/batch; its
 * items are the cash_outs rows of a seq range, which cash-out-store.ts reads). Fixed texts on the
 * SQL API, inside the caller's transaction.
 */

/** A batch: its items are the Cash-Outs with seq in [first_seq, last_seq]. */
export type BatchRow = {
  batch_id: string;
  created_at: number;
  count: number;
  amount: number;
  first_seq: number;
  last_seq: number;
};

export function insertBatch(sql: SqlStorage, batch: BatchRow): void {
  sql.exec(
    `INSERT INTO cash_out_batches (batch_id, created_at, count, amount, first_seq, last_seq)
     VALUES (?, ?, ?, ?, ?, ?)`,
    batch.batch_id,
    batch.created_at,
    batch.count,
    batch.amount,
    batch.first_seq,
    batch.last_seq,
  );
}

const BATCH_COLUMNS = 'batch_id, created_at, count, amount, first_seq, last_seq';

export function batchById(sql: SqlStorage, batchId: string): BatchRow[] {
  return sql
    .exec<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM cash_out_batches WHERE batch_id = ?`, batchId)
    .toArray();
}

/** The newest batches first. */
export function latestBatches(sql: SqlStorage, limit: number): BatchRow[] {
  return sql
    .exec<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM cash_out_batches ORDER BY first_seq DESC LIMIT ?`, limit)
    .toArray();
}
