/**
 * Every statement on `archive_given_up`: which archived delivery segments hold GIVEN_UP deliveries
 * and the seq range of those, one row per segment (archive-deliveries.ts reads it for the operator
 * list by status and the retry by event id). Runs inside the caller's storage transaction.
 */

export interface GivenUpSegment {
  segment: number;
  key: string;
  firstSeq: number;
  lastSeq: number;
}

const COLUMNS = 'segment, key, first_seq AS firstSeq, last_seq AS lastSeq';

/** A segment written with GIVEN_UP deliveries of seqs `firstSeq`..`lastSeq`. */
export function addGivenUpSegment(sql: SqlStorage, s: GivenUpSegment): void {
  sql.exec(
    'INSERT OR REPLACE INTO archive_given_up (segment, key, first_seq, last_seq) VALUES (?, ?, ?, ?)',
    s.segment,
    s.key,
    s.firstSeq,
    s.lastSeq,
  );
}

export function dropGivenUpSegment(sql: SqlStorage, segment: number): void {
  sql.exec('DELETE FROM archive_given_up WHERE segment = ?', segment);
}

/** The segments whose range holds `seq`, newest first (archive_given_up_last_idx from `seq` up). */
export function givenUpSegmentsHolding(sql: SqlStorage, seq: number): GivenUpSegment[] {
  return sql
    .exec<GivenUpSegment & Record<string, SqlStorageValue>>(
      `SELECT ${COLUMNS} FROM archive_given_up WHERE last_seq >= ? AND first_seq <= ? ORDER BY segment DESC`,
      seq,
      seq,
    )
    .toArray();
}

/**
 * Up to `limit` segments after `after` in the order of their newest seq, descending (ties by segment,
 * descending): a list page opens them in this order while one could still land on it.
 */
export function givenUpSegmentsDown(
  sql: SqlStorage,
  limit: number,
  after?: { lastSeq: number; segment: number },
): GivenUpSegment[] {
  const where = after ? 'WHERE (last_seq, segment) < (?, ?)' : '';
  const binds = after ? [after.lastSeq, after.segment] : [];
  return sql
    .exec<GivenUpSegment & Record<string, SqlStorageValue>>(
      `SELECT ${COLUMNS} FROM archive_given_up ${where} ORDER BY last_seq DESC, segment DESC LIMIT ?`,
      ...binds,
      limit,
    )
    .toArray();
}
