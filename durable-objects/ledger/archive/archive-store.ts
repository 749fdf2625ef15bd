/**
 * The archive store: every statement on archive_segments (the manifest's loose rows; the folded runs
 * are archive-runs-store.ts's, the id indexes archive-index-store.ts's). Drizzle for
 * ordinary statements; fixed texts on the SQL API for the index and manifest range look-ups (row values, a table chosen per kind) and two subqueries other
 * stores embed in one statement of theirs (ANY_SEGMENT_DONE, ledgerArchivedUntil). Every function
 * runs inside the caller's storage transaction.
 */
import { sql } from 'drizzle-orm';
import type { Position } from '../../../src/domain/pagination';
import type { LedgerDb } from '../db';
import { archiveSegments } from '../schema';
import { dropIndexEntries, type IdIndex, indexSizes, segmentIdsByHash } from './archive-index-store';
import { queuedCount } from './archive-queue-store';
import { ANY_RUN, anyRun, runBefore, runsUntil } from './archive-runs-store';
import { DAY_MS, dayStart, type SegmentMeta } from './archive-segments';
import { dropStale } from './archive-stale-store';

export { type IdIndex, insertIndexEntries } from './archive-index-store';
// The delivery queue's and stale marks' statements, where the delivery modules import them.
export { anyQueued, queueAggregate, queuedAggregates, unqueueAggregate } from './archive-queue-store';
export { markStale, staleSeqs } from './archive-stale-store';

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

/**
 * Reserves a segment (WRITING) with the seqs it will hold, under the key `keyOf` its id gives: ids are
 * AUTOINCREMENT, never reused, so a key carrying one is never another segment's, loose or folded.
 */
export function reserveSegment(
  db: LedgerDb,
  values: { keyOf: (id: number) => string; seqs: number[]; kind: string } & ManifestFields,
): SegmentRow {
  const { keyOf, ...rest } = values;
  const { id } = db
    .insert(archiveSegments)
    .values({ ...rest, key: '#reserving', state: 'WRITING' })
    .returning({ id: archiveSegments.id })
    .get();
  return db
    .update(archiveSegments)
    .set({ key: keyOf(id) })
    .where(sql`${archiveSegments.id} = ${id}`)
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

/** Some segment of any kind exists (written or being written, loose or folded). */
export function anySegment(sqlApi: SqlStorage): boolean {
  return sqlApi.exec('SELECT 1 FROM archive_segments LIMIT 1').toArray().length > 0 || anyRun(sqlApi);
}

/** Some segment of `kind` exists (written or being written, loose or folded). */
export function hasArchiveOf(sqlApi: SqlStorage, kind: string): boolean {
  const loose = sqlApi.exec('SELECT 1 FROM archive_segments WHERE kind = ? LIMIT 1', kind).toArray();
  return loose.length > 0 || anyRun(sqlApi, kind);
}

/** Whether a DONE segment of `kind` precedes `id` (any, when `id` is undefined): the reference filter's older generation. */
export function doneSegmentBefore(sqlApi: SqlStorage, kind: string, id: number | undefined): boolean {
  const query =
    id === undefined
      ? "SELECT 1 FROM archive_segments WHERE kind = ? AND state = 'DONE' LIMIT 1"
      : "SELECT 1 FROM archive_segments WHERE kind = ? AND state = 'DONE' AND id < ? LIMIT 1";
  if (sqlApi.exec(query, kind, ...(id === undefined ? [] : [id])).toArray().length > 0) return true;
  return id === undefined ? anyRun(sqlApi, kind) : runBefore(sqlApi, kind, id);
}

/**
 * Whether any segment is DONE, as a subquery: a GET by id reads it in the statement that looks the
 * hot row up (reads/view-sql.ts), so a miss knows at once whether the archive can hold the row.
 */
export const ANY_SEGMENT_DONE = `(EXISTS (SELECT 1 FROM archive_segments WHERE state = 'DONE') OR ${ANY_RUN})`;

/**
 * The latest archived entry time of the account bound as `param`, loose (archive_segments_last_idx)
 * or folded, as a subquery: EntryCursor reads it with the hot one in one statement. The aggregate
 * max skips a NULL side (the scalar max(NULL, x) would be NULL).
 */
export const ledgerArchivedUntil = (param: string) =>
  `(SELECT max(t) FROM (SELECT max(last_time) AS t FROM archive_segments WHERE kind = 'ledger:' || ${param}
    UNION ALL SELECT ${runsUntil(`'ledger:' || ${param}`)}))`;

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

export interface DayRow extends SegmentMeta {
  totals: string | null;
}

/** DONE segments of `kind` whose rows lie on the UTC day starting at `start` (a summary's edge day). */
export function segmentsOfDay(sqlApi: SqlStorage, kind: string, start: number): DayRow[] {
  return sqlApi
    .exec<DayRow & Record<string, SqlStorageValue>>(
      `SELECT ${COLUMNS}, totals FROM archive_segments WHERE kind = ? AND state = 'DONE' AND first_time >= ? AND first_time < ?`,
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
  dropIndexEntries(sqlApi, 'deliveries', segment, hashes);
  dropStale(sqlApi, segment);
  sqlApi.exec('DELETE FROM archive_segments WHERE id = ?', segment);
}

// ---- Folding closed days into runs (archive-fold.ts) ----------------------------------------

/** The first time of the oldest foldable loose row of `kind`: DONE, with its manifest, before `until`, above `floor`. */
export function foldableTime(
  sqlApi: SqlStorage,
  kind: string,
  until: number,
  floor: number,
): number | undefined {
  return sqlApi
    .exec<{ t: number }>(
      `SELECT first_time AS t FROM archive_segments WHERE kind = ? AND first_time < ? AND state = 'DONE' AND id > ?
       ORDER BY first_time LIMIT 1`,
      kind,
      until,
      floor,
    )
    .toArray()[0]?.t;
}

/** A loose row as a run's body holds it (archive-fold.ts). */
export type LooseRow = SegmentMeta & { count: number; totals: string | null };

/** The DONE rows of `kind` on the UTC day starting at `start` above `floor`, by id, at most `limit`. */
export function looseOfDay(
  sqlApi: SqlStorage,
  kind: string,
  start: number,
  floor: number,
  limit: number,
): LooseRow[] {
  return sqlApi
    .exec<LooseRow & Record<string, SqlStorageValue>>(
      `SELECT ${COLUMNS}, count, totals FROM archive_segments WHERE kind = ? AND first_time >= ? AND first_time < ?
       AND state = 'DONE' AND id > ? ORDER BY id LIMIT ?`,
      kind,
      start,
      start + DAY_MS,
      floor,
      limit,
    )
    .toArray();
}

/** The first row of `kind` with an id in [lo, hi] that is not a DONE row of the day starting at `start`. */
export function otherSegmentIn(
  sqlApi: SqlStorage,
  kind: string,
  lo: number,
  hi: number,
  start: number,
): number | undefined {
  return sqlApi
    .exec<{ id: number }>(
      `SELECT id FROM archive_segments WHERE id >= ? AND id <= ? AND kind = ?
       AND (state <> 'DONE' OR first_time IS NULL OR first_time < ? OR first_time >= ?) ORDER BY id LIMIT 1`,
      lo,
      hi,
      kind,
      start,
      start + DAY_MS,
    )
    .toArray()[0]?.id;
}

/** The rows `ids` leave (a run's body holds them), only if every one is still a DONE row of `kind`. */
export function takeSegments(sqlApi: SqlStorage, kind: string, ids: number[]): boolean {
  const chunks = Array.from({ length: Math.ceil(ids.length / 90) }, (_, i) => ids.slice(i * 90, i * 90 + 90));
  const marks = (chunk: number[]) => chunk.map(() => '?').join(', ');
  let done = 0;
  for (const chunk of chunks)
    done += Number(
      sqlApi
        .exec(
          `SELECT count(*) AS n FROM archive_segments WHERE id IN (${marks(chunk)}) AND kind = ? AND state = 'DONE'`,
          ...chunk,
          kind,
        )
        .one().n,
    );
  if (done !== ids.length) return false;
  for (const chunk of chunks)
    sqlApi.exec(`DELETE FROM archive_segments WHERE id IN (${marks(chunk)})`, ...chunk);
  return true;
}

// ---- Segments found through the id indexes (archive-index-store.ts) -------------------------

/** DONE segments of `kind` indexed under any of `hashes` (loose rows: an indexed segment is never folded), newest first. */
export function segmentsByHash(
  sqlApi: SqlStorage,
  index: IdIndex,
  hashes: number[],
  kind: string,
): { id: number; key: string }[] {
  return segmentsAmong(sqlApi, segmentIdsByHash(sqlApi, index, hashes), kind, true);
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

/** Some segment of `kind` (in any state) is in the object's own main index under any of `hashes`. */
export function anyIndexed(sqlApi: SqlStorage, hashes: number[], kind: string): boolean {
  return segmentsAmong(sqlApi, segmentIdsByHash(sqlApi, 'main', hashes), kind, false).length > 0;
}

// ---- What the tests assert on (test/support/ledger-reads.ts) --------------------------------

/** Every segment, by id. */
export function allSegments(db: LedgerDb): SegmentRow[] {
  return db.select().from(archiveSegments).orderBy(archiveSegments.id).all();
}

/** How many rows the id indexes and the delivery queue hold (the delivery index: of one segment, when named). */
export function archiveSizes(sqlApi: SqlStorage, segment?: number) {
  return { ...indexSizes(sqlApi, segment), queuedAggregates: queuedCount(sqlApi) };
}
