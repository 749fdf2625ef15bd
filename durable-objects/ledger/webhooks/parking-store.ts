/**
 * Every statement on `webhook_parked_segments` and `webhook_parked` (schema-parking.ts): the segments of
 * open webhook deliveries parked in R2 and the transactions they hold (delivery-parking.ts). Runs
 * inside the caller's storage transaction.
 */

export interface ParkedSegment {
  id: number;
  dueAt: number;
  firstSeq: number;
  lastSeq: number;
  rows: number;
}

const COLUMNS = 'id, due_at AS dueAt, first_seq AS firstSeq, last_seq AS lastSeq, rows';
type Found = ParkedSegment & Record<string, SqlStorageValue>;

/** A segment about to be put (WRITING): its id, which names its key. */
export function reserveParkedSegment(sql: SqlStorage, s: Omit<ParkedSegment, 'id'>): number {
  return sql
    .exec<{ id: number }>(
      `INSERT INTO webhook_parked_segments (status, due_at, first_seq, last_seq, rows)
       VALUES ('WRITING', ?, ?, ?, ?) RETURNING id`,
      s.dueAt,
      s.firstSeq,
      s.lastSeq,
      s.rows,
    )
    .one().id;
}

/** The segment's rows left the object: it is read from now on, and its transactions are marked parked. */
export function markParked(sql: SqlStorage, id: number, hashes: readonly number[]): void {
  sql.exec(`UPDATE webhook_parked_segments SET status = 'PARKED' WHERE id = ?`, id);
  for (const hash of hashes)
    sql.exec('INSERT OR IGNORE INTO webhook_parked (hash, segment) VALUES (?, ?)', hash, id);
}

/** A segment and its marks leave (read back, or a reservation dropped). */
export function dropParkedSegment(sql: SqlStorage, id: number, hashes: readonly number[]): void {
  for (const hash of hashes) sql.exec('DELETE FROM webhook_parked WHERE hash = ? AND segment = ?', hash, id);
  sql.exec('DELETE FROM webhook_parked_segments WHERE id = ?', id);
}

/** Whether the segment is parked (not read back, not a reservation). */
export function isParked(sql: SqlStorage, id: number): boolean {
  return (
    sql.exec(`SELECT 1 FROM webhook_parked_segments WHERE id = ? AND status = 'PARKED'`, id).toArray()
      .length > 0
  );
}

/** Reservations a crash left between their put and their transaction (never read). */
export function writingSegments(sql: SqlStorage): number[] {
  return sql
    .exec<{ id: number }>(`SELECT id FROM webhook_parked_segments WHERE status = 'WRITING'`)
    .toArray()
    .map((r) => r.id);
}

/** Parked segments due by `by`, earliest first (webhook_parked_segments_due_idx). */
export function parkedDueBy(sql: SqlStorage, by: number, limit: number): ParkedSegment[] {
  return sql
    .exec<Found>(
      `SELECT ${COLUMNS} FROM webhook_parked_segments WHERE due_at <= ? AND status = 'PARKED'
       ORDER BY due_at LIMIT ?`,
      by,
      limit,
    )
    .toArray();
}

/** The earliest due parked segment's due time, if any. */
export function earliestParkedDue(sql: SqlStorage): number | undefined {
  const row = sql
    .exec<{ at: number | null }>(
      `SELECT min(due_at) AS at FROM webhook_parked_segments WHERE status = 'PARKED'`,
    )
    .one();
  return row.at ?? undefined;
}

/** The parked segments holding the transaction of `hash`, earliest due first. */
export function parkedSegmentsOf(sql: SqlStorage, hash: number): ParkedSegment[] {
  return sql
    .exec<Found>(
      `SELECT ${COLUMNS} FROM webhook_parked_segments WHERE status = 'PARKED'
       AND id IN (SELECT segment FROM webhook_parked WHERE hash = ?) ORDER BY due_at`,
      hash,
    )
    .toArray();
}

/** The parked segments whose range holds `seq`. */
export function parkedSegmentsHolding(sql: SqlStorage, seq: number): ParkedSegment[] {
  return sql
    .exec<Found>(
      `SELECT ${COLUMNS} FROM webhook_parked_segments WHERE status = 'PARKED' AND last_seq >= ? AND first_seq <= ?`,
      seq,
      seq,
    )
    .toArray();
}

/**
 * Up to `limit` parked segments after `after` in the order of their newest seq, descending (ties by
 * id): a list page opens them in this order while one could still land on it.
 */
export function parkedSegmentsDown(
  sql: SqlStorage,
  limit: number,
  after?: { lastSeq: number; id: number },
): ParkedSegment[] {
  const where = after ? 'AND (last_seq, id) < (?, ?)' : '';
  const binds = after ? [after.lastSeq, after.id] : [];
  return sql
    .exec<Found>(
      `SELECT ${COLUMNS} FROM webhook_parked_segments WHERE status = 'PARKED' ${where}
       ORDER BY last_seq DESC, id DESC LIMIT ?`,
      ...binds,
      limit,
    )
    .toArray();
}

/** How many segments and marks are kept (tests and the footprint bench). */
export function parkingSizes(sql: SqlStorage): { segments: number; marks: number } {
  const n = (q: string) => Number(sql.exec(q).one().n);
  return {
    segments: n(`SELECT count(*) AS n FROM webhook_parked_segments WHERE status = 'PARKED'`),
    marks: n('SELECT count(*) AS n FROM webhook_parked'),
  };
}
