/**
 * The archive store: every statement on the archive's own tables — archive_segments (the manifest),
 * archive_stale, archive_totals, archive_index and archive_delivery_index (the id indexes) and
 * archive_delivery_queue. Drizzle for ordinary statements; fixed texts on the SQL API for the index
 * and manifest range look-ups (row values, a table chosen per kind) and two subqueries other
 * stores embed in one statement of theirs (ANY_SEGMENT_DONE, ledgerArchivedUntil). Every function
 * runs inside the caller's storage transaction.
 */
import { eq, sql } from 'drizzle-orm';
import type { Position } from '../../../src/domain/pagination';
import type { LedgerDb } from '../db';
import { archiveDeliveryQueue, archiveSegments, archiveTotals } from '../schema';
import { DAY_MS, dayStart, type SegmentMeta } from './archive-segments';

export type SegmentRow = typeof archiveSegments.$inferSelect;
/** A segment's manifest fields (archive-totals.ts manifest). */
export type ManifestFields = Pick<
  SegmentRow,
  'firstTime' | 'firstSeq' | 'lastTime' | 'lastSeq' | 'count' | 'totals'
>;

// ---- The manifest (archive_segments) --------------------------------------------------------

/** The segment a crash left reserved (WRITING), if any. */
export function writingSegment(db: LedgerDb): SegmentRow | undefined {
  return db.select().from(archiveSegments).where(sql`${archiveSegments.state} = 'WRITING'`).get();
}

export function segmentKeyTaken(sqlApi: SqlStorage, key: string): boolean {
  return sqlApi.exec('SELECT 1 FROM archive_segments WHERE key = ?', key).toArray().length > 0;
}

/** Reserves a segment (WRITING) with the seqs it will hold. */
export function reserveSegment(
  db: LedgerDb,
  values: { key: string; seqs: number[]; kind: string } & ManifestFields,
): SegmentRow {
  return db
    .insert(archiveSegments)
    .values({ ...values, state: 'WRITING' })
    .returning()
    .get();
}

/** Drops a reservation (its rows stay hot). */
export function dropSegment(db: LedgerDb, id: number): void {
  db.delete(archiveSegments).where(sql`${archiveSegments.id} = ${id}`).run();
}

/** The segment is written and its rows gone: DONE, with the manifest of the rows written. */
export function segmentDone(db: LedgerDb, id: number, fields: ManifestFields): void {
  db.update(archiveSegments)
    .set({ state: 'DONE', seqs: null, ...fields })
    .where(sql`${archiveSegments.id} = ${id}`)
    .run();
}

/** A DONE segment written before the manifest had ranges and totals (archive-backfill.ts). */
export function legacySegment(db: LedgerDb): { id: number; key: string } | undefined {
  return db
    .select({ id: archiveSegments.id, key: archiveSegments.key })
    .from(archiveSegments)
    .where(sql`${archiveSegments.state} = 'DONE' AND ${archiveSegments.firstTime} IS NULL`)
    .get();
}

export function setManifest(db: LedgerDb, id: number, fields: ManifestFields): void {
  db.update(archiveSegments).set(fields).where(sql`${archiveSegments.id} = ${id}`).run();
}

/** Some segment of any kind exists (written or being written). */
export function anySegment(sqlApi: SqlStorage): boolean {
  return sqlApi.exec('SELECT 1 FROM archive_segments LIMIT 1').toArray().length > 0;
}

/** Some segment of `kind` exists (written or being written). */
export function hasArchiveOf(sqlApi: SqlStorage, kind: string): boolean {
  return sqlApi.exec('SELECT 1 FROM archive_segments WHERE kind = ? LIMIT 1', kind).toArray().length > 0;
}

/** Whether a DONE segment of `kind` precedes `id` (any, when `id` is undefined): the reference filter's older generation. */
export function doneSegmentBefore(sqlApi: SqlStorage, kind: string, id: number | undefined): boolean {
  const query =
    id === undefined
      ? "SELECT 1 FROM archive_segments WHERE kind = ? AND state = 'DONE' LIMIT 1"
      : "SELECT 1 FROM archive_segments WHERE kind = ? AND state = 'DONE' AND id < ? LIMIT 1";
  return sqlApi.exec(query, kind, ...(id === undefined ? [] : [id])).toArray().length > 0;
}

/**
 * Whether any segment is DONE, as a subquery: a GET by id reads it in the statement that looks the
 * hot row up (reads/view-sql.ts), so a miss knows at once whether the archive can hold the row.
 */
export const ANY_SEGMENT_DONE = "EXISTS (SELECT 1 FROM archive_segments WHERE state = 'DONE')";

/**
 * The latest archived entry time of the account bound as `param`, as a subquery
 * (archive_segments_last_idx): EntryCursor reads it with the hot one in one statement.
 */
export const ledgerArchivedUntil = (param: string) =>
  `(SELECT max(last_time) FROM archive_segments WHERE kind = 'ledger:' || ${param})`;

const COLUMNS = `id, key, first_time AS firstTime, first_seq AS firstSeq, last_time AS lastTime,
  last_seq AS lastSeq`;

/** Manifest rows read per query while merging (most pages need one or two segments). */
export const CANDIDATE_CHUNK = 8;

/**
 * DONE segments of `kind` that may hold rows of [from, to] beyond `position` (a comparison of the
 * page plan), in scan order of their start, after `after` (the previous chunk's last one). Every
 * segment holds rows of one UTC day, so a segment that ends at or after an instant starts on that
 * instant's day or later.
 */
export function candidateSegments(
  sqlApi: SqlStorage,
  kind: string,
  scan: 'ASC' | 'DESC',
  from: number,
  to: number,
  position: Position | undefined,
  after: SegmentMeta | undefined,
): SegmentMeta[] {
  const args: (string | number)[] = [kind];
  const where = ['kind = ?', "state = 'DONE'"];
  if (scan === 'ASC') {
    // first_time >= the day of the lower bound keeps the index range to the days in play.
    const low = Math.max(from, position?.time ?? from);
    where.push('first_time >= ?', 'first_time <= ?', 'last_time >= ?');
    args.push(dayStart(low), to, from);
    if (position) {
      where.push('(last_time, last_seq) > (?, ?)');
      args.push(position.time, position.seq);
    }
    if (after) {
      where.push('(first_time, first_seq, id) > (?, ?, ?)');
      args.push(after.firstTime, after.firstSeq, after.id);
    }
  } else {
    const high = Math.min(to, position?.time ?? to);
    where.push('last_time <= ?', 'last_time >= ?', 'first_time <= ?');
    args.push(dayStart(high) + DAY_MS - 1, from, to);
    if (position) {
      where.push('(first_time, first_seq) < (?, ?)');
      args.push(position.time, position.seq);
    }
    if (after) {
      where.push('(last_time, last_seq, id) < (?, ?, ?)');
      args.push(after.lastTime, after.lastSeq, after.id);
    }
  }
  const order = scan === 'ASC' ? 'first_time, first_seq, id' : 'last_time DESC, last_seq DESC, id DESC';
  return sqlApi
    .exec<SegmentMeta & Record<string, SqlStorageValue>>(
      `SELECT ${COLUMNS} FROM archive_segments WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${CANDIDATE_CHUNK}`,
      ...args,
    )
    .toArray();
}

export interface DaySegment extends SegmentMeta {
  totals: string | null;
  stale: number;
}

/** DONE segments of `kind` whose rows lie on the UTC day starting at `start` (a summary's edge day). */
export function segmentsOfDay(sqlApi: SqlStorage, kind: string, start: number): DaySegment[] {
  return sqlApi
    .exec<DaySegment & Record<string, SqlStorageValue>>(
      `SELECT ${COLUMNS}, totals, (SELECT count(*) FROM archive_stale st WHERE st.segment = s.id) AS stale
       FROM archive_segments s WHERE kind = ? AND state = 'DONE' AND first_time >= ? AND first_time < ?`,
      kind,
      start,
      start + DAY_MS,
    )
    .toArray();
}

/** DONE delivery segments whose newest end is before `before`, oldest first, at most `limit`. */
export function deliverySegmentsEndedBefore(
  sqlApi: SqlStorage,
  before: number,
  limit: number,
): { id: number; key: string }[] {
  return sqlApi
    .exec<{ id: number; key: string }>(
      `SELECT id, key FROM archive_segments WHERE kind = 'delivery' AND state = 'DONE' AND last_time < ?
       ORDER BY last_time LIMIT ?`,
      before,
      limit,
    )
    .toArray();
}

/** The newest end of the oldest DONE delivery segment (undefined: none is archived). */
export function oldestDeliverySegmentEnd(sqlApi: SqlStorage): number | undefined {
  return sqlApi
    .exec<{ at: number }>(
      `SELECT last_time AS at FROM archive_segments WHERE kind = 'delivery' AND state = 'DONE'
       ORDER BY last_time LIMIT 1`,
    )
    .toArray()[0]?.at;
}

/** A delivery segment leaves: its index entries (by primary key), stale marks and manifest row. */
export function dropDeliverySegment(sqlApi: SqlStorage, segment: number, hashes: number[]): void {
  for (const hash of hashes)
    sqlApi.exec('DELETE FROM archive_delivery_index WHERE hash = ? AND segment = ?', hash, segment);
  sqlApi.exec('DELETE FROM archive_stale WHERE segment = ?', segment);
  sqlApi.exec('DELETE FROM archive_segments WHERE id = ?', segment);
}

// ---- Stale copies (archive_stale) -----------------------------------------------------------

/** Seqs of a segment whose copy was superseded by a rehydration. */
export function staleSeqs(sqlApi: SqlStorage, segment: number): Set<number> {
  const rows = sqlApi
    .exec<{ seq: number }>('SELECT seq FROM archive_stale WHERE segment = ?', segment)
    .toArray();
  return new Set(rows.map((r) => r.seq));
}

export function markStale(sqlApi: SqlStorage, segment: number, seq: number): void {
  sqlApi.exec('INSERT OR IGNORE INTO archive_stale (segment, seq) VALUES (?, ?)', segment, seq);
}

// ---- The id indexes (archive_index, archive_delivery_index) ---------------------------------

/**
 * Which id index: archived deliveries have their own table (same shape), so that when they expire
 * after 7 days it empties whole instead of leaving half-full pages in the lasting one (`main`:
 * transactions and ledger entries).
 */
export type IdIndex = 'main' | 'deliveries';
const INDEX_TABLE: Record<IdIndex, string> = {
  main: 'archive_index',
  deliveries: 'archive_delivery_index',
};

export function insertIndexEntries(
  sqlApi: SqlStorage,
  index: IdIndex,
  segment: number,
  hashes: number[],
): void {
  for (const hash of hashes)
    sqlApi.exec(`INSERT OR IGNORE INTO ${INDEX_TABLE[index]} (hash, segment) VALUES (?, ?)`, hash, segment);
}

/** DONE segments of `kind` indexed under any of `hashes`, newest first. */
export function segmentsByHash(
  sqlApi: SqlStorage,
  index: IdIndex,
  hashes: number[],
  kind: string,
): { id: number; key: string }[] {
  return sqlApi
    .exec<{ id: number; key: string }>(
      `SELECT DISTINCT s.id AS id, s.key AS key FROM ${INDEX_TABLE[index]} i JOIN archive_segments s ON s.id = i.segment
       WHERE i.hash IN (${hashes.map(() => '?').join(', ')}) AND s.state = 'DONE' AND s.kind = ?
       ORDER BY s.id DESC`,
      ...hashes,
      kind,
    )
    .toArray();
}

/**
 * Of the segment ids a registry named (archive-index.ts), those of `kind` in the manifest (DONE only
 * when `done`), newest first: an id the manifest does not hold (a reservation dropped after its ids
 * were registered) names nothing.
 */
export function segmentsAmong(
  sqlApi: SqlStorage,
  ids: number[],
  kind: string,
  done: boolean,
): { id: number; key: string }[] {
  const out: { id: number; key: string }[] = [];
  // A Durable Object's query binds at most 100 values.
  for (let i = 0; i < ids.length; i += 90) {
    const chunk = ids.slice(i, i + 90);
    out.push(
      ...sqlApi
        .exec<{ id: number; key: string }>(
          `SELECT id, key FROM archive_segments WHERE id IN (${chunk.map(() => '?').join(', ')}) AND kind = ?
           ${done ? "AND state = 'DONE'" : ''}`,
          ...chunk,
          kind,
        )
        .toArray(),
    );
  }
  return out.sort((a, b) => b.id - a.id);
}

/** Some segment of `kind` (in any state) is indexed under any of `hashes`. */
export function anyIndexed(sqlApi: SqlStorage, hashes: number[], kind: string): boolean {
  return (
    sqlApi
      .exec(
        `SELECT 1 FROM archive_index i JOIN archive_segments s ON s.id = i.segment
         WHERE i.hash IN (${hashes.map(() => '?').join(', ')}) AND s.kind = ? LIMIT 1`,
        ...hashes,
        kind,
      )
      .toArray().length > 0
  );
}

// ---- Running totals (archive_totals) --------------------------------------------------------

/** [status, ispb ('' = none), bank, count, amount in centavos] */
export type TotalRow = [string, string, string | null, number, number];

/** Adds (sign 1) or takes out (sign -1) totals of one day; a bucket that reaches zero goes. */
export function addDayTotals(
  sqlApi: SqlStorage,
  kind: string,
  day: string,
  totals: TotalRow[],
  sign: 1 | -1,
) {
  for (const [status, ispb, bank, count, amount] of totals) {
    sqlApi.exec(
      `INSERT INTO archive_totals (kind, day, status, ispb, bank, count, amount) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (kind, day, status, ispb) DO UPDATE SET count = count + excluded.count, amount = amount + excluded.amount`,
      kind,
      day,
      status,
      ispb,
      bank,
      sign * count,
      sign * amount,
    );
  }
  sqlApi.exec('DELETE FROM archive_totals WHERE kind = ? AND day = ? AND count = 0', kind, day);
}

/** Totals of `kind` over the whole UTC days [fromDay, toDay], by status and settling bank. */
export function totalsOfDays(sqlApi: SqlStorage, kind: string, fromDay: string, toDay: string): TotalRow[] {
  return sqlApi
    .exec<{ status: string; ispb: string; bank: string | null; count: number; amount: number }>(
      `SELECT status, ispb, max(bank) AS bank, sum(count) AS count, sum(amount) AS amount FROM archive_totals
       WHERE kind = ? AND day >= ? AND day <= ? GROUP BY status, ispb`,
      kind,
      fromDay,
      toDay,
    )
    .toArray()
    .map((r) => [r.status, r.ispb, r.bank, r.count, r.amount]);
}

// ---- The delivery queue (archive_delivery_queue) --------------------------------------------

export function queueAggregate(sqlApi: SqlStorage, aggregateId: string): void {
  sqlApi.exec('INSERT OR IGNORE INTO archive_delivery_queue (aggregate_id) VALUES (?)', aggregateId);
}

export function queuedAggregates(db: LedgerDb, limit: number): { aggregateId: string }[] {
  return db.select().from(archiveDeliveryQueue).limit(limit).all();
}

export function unqueueAggregate(db: LedgerDb, aggregateId: string): void {
  db.delete(archiveDeliveryQueue).where(eq(archiveDeliveryQueue.aggregateId, aggregateId)).run();
}

export function anyQueued(sqlApi: SqlStorage): boolean {
  return sqlApi.exec('SELECT 1 FROM archive_delivery_queue LIMIT 1').toArray().length > 0;
}

// ---- What the tests assert on (test/support/ledger-reads.ts) --------------------------------

/** Every segment, by id. */
export function allSegments(db: LedgerDb): SegmentRow[] {
  return db.select().from(archiveSegments).orderBy(archiveSegments.id).all();
}

/** How many rows the id indexes and the delivery queue hold (the delivery index: of one segment, when named). */
export function archiveSizes(sqlApi: SqlStorage, segment?: number) {
  const n = (text: string, ...binds: SqlStorageValue[]) => Number(sqlApi.exec(text, ...binds).one().n);
  return {
    indexEntries: n('SELECT count(*) AS n FROM archive_index'),
    deliveryIndexEntries:
      segment === undefined
        ? n('SELECT count(*) AS n FROM archive_delivery_index')
        : n('SELECT count(*) AS n FROM archive_delivery_index WHERE segment = ?', segment),
    queuedAggregates: n('SELECT count(*) AS n FROM archive_delivery_queue'),
  };
}

/** Every running total, by kind and day. */
export function allArchiveTotals(db: LedgerDb): (typeof archiveTotals.$inferSelect)[] {
  return db.select().from(archiveTotals).orderBy(archiveTotals.kind, archiveTotals.day).all();
}
