/**
 * The archive manifest (archive_segments): per segment its kind, first and last (time, seq) and
 * count, so a list page opens only the segments that can hold its rows. Every segment holds rows of
 * one UTC day (archive.ts), which bounds each look-up to the days the page or summary touches:
 * a segment that ends at or after an instant starts on that instant's day or later.
 */
import type { Position } from '../../../src/domain/pagination';

type Row = Record<string, unknown> & { seq: number };

/** A segment's body: v1 (Cash-Ins only) is still read. */
export type Segment =
  | { v: 2; clientId: string; kind: string; rows: Row[] }
  | { v: 1; clientId: string; cashIns: Row[] };

export const segmentRows = (s: Segment): Row[] => (s.v === 1 ? s.cashIns : s.rows);

export async function gzipJson(value: unknown): Promise<ArrayBuffer> {
  const stream = new Blob([JSON.stringify(value)]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

export async function gunzipJson<T>(body: ReadableStream): Promise<T> {
  return (await new Response(body.pipeThrough(new DecompressionStream('gzip'))).json()) as T;
}

export const DAY_MS = 86_400_000;
export const dayStart = (ms: number) => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface SegmentMeta {
  id: number;
  key: string;
  firstTime: number;
  firstSeq: number;
  lastTime: number;
  lastSeq: number;
}

const COLUMNS = `id, key, first_time AS firstTime, first_seq AS firstSeq, last_time AS lastTime,
  last_seq AS lastSeq`;

/** Manifest rows read per query while merging (most pages need one or two segments). */
export const CANDIDATE_CHUNK = 8;

/** Where a segment starts in a scan: its first row ascending, its last one descending. */
export function segmentStart(s: SegmentMeta, scan: 'ASC' | 'DESC'): { time: number; seq: number } {
  return scan === 'ASC' ? { time: s.firstTime, seq: s.firstSeq } : { time: s.lastTime, seq: s.lastSeq };
}

/**
 * DONE segments of `kind` that may hold rows of [from, to] beyond `position` (a comparison of the
 * page plan), in scan order of their start, after `after` (the previous chunk's last one).
 */
export function candidateSegments(
  sql: SqlStorage,
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
  return sql
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
export function segmentsOfDay(sql: SqlStorage, kind: string, start: number): DaySegment[] {
  return sql
    .exec<DaySegment & Record<string, SqlStorageValue>>(
      `SELECT ${COLUMNS}, totals, (SELECT count(*) FROM archive_stale st WHERE st.segment = s.id) AS stale
       FROM archive_segments s WHERE kind = ? AND state = 'DONE' AND first_time >= ? AND first_time < ?`,
      kind,
      start,
      start + DAY_MS,
    )
    .toArray();
}

/** Seqs of a segment whose copy was superseded by a rehydration. */
export function staleSeqs(sql: SqlStorage, segment: number): Set<number> {
  const rows = sql
    .exec<{ seq: number }>('SELECT seq FROM archive_stale WHERE segment = ?', segment)
    .toArray();
  return new Set(rows.map((r) => r.seq));
}

export function markStale(sql: SqlStorage, segment: number, seq: number): void {
  sql.exec('INSERT OR IGNORE INTO archive_stale (segment, seq) VALUES (?, ?)', segment, seq);
}
