/**
 * The externalReference filter: every reference of an archived Cash-In, in a Golomb–Rice coded hash
 * set (src/domain/hash-set-codec.ts) kept in this object's SQLite as blobs, one row per range of the
 * hash space, and a pending buffer of hashes not yet merged into them (one row per hash). A Cash-In
 * create asks it first: "no" is final (the reference was never archived since the filter began,
 * `since`), "may" costs the one archived look-up that decides (docs/storage-schema.md,
 * "externalReference filter"). Written in the transaction that deletes the archived rows, so a crash
 * never leaves an archived reference out of it. A Cash-Out's reference has no filter: its create asks
 * the archive registry (archive-reads.ts referencesArchived).
 */
import {
  decodeOffsets,
  encodeOffsets,
  HASH_BITS,
  type HashRange,
  keyHash,
  mergeInto,
} from '../../../src/domain/hash-set-codec';
import { present } from '../../../src/domain/present';
import { doneSegmentBefore } from './archive-store';

interface RangeRow {
  lo: number;
  bits: number;
  count: number;
  codes: ArrayBuffer;
  since: number;
}

/**
 * Hashes wait in the pending buffer until it holds more than PENDING_PER_RANGE per range of the filter,
 * and at most PENDING_MAX; then each archiving step merges ranges, from where the last merge stopped,
 * until it is back at that bound: a range is rewritten once for all the hashes that reached it since
 * its last merge instead of once per hash. The buffer's rows (≈ 20 B a hash, ≤ 1.4 MB) count as hot:
 * bounded, they need no running total (docs/storage-schema.md, "externalReference filter").
 */
export const PENDING_MAX = 65_536;
export const PENDING_PER_RANGE = 32;

/** The buffer's bound: PENDING_PER_RANGE per range up to PENDING_MAX (the ranges counted up to PENDING_MAX / PENDING_PER_RANGE). */
function boundOf(sql: SqlStorage, kind: string): number {
  const { ranges } = sql
    .exec<{ ranges: number }>(
      'SELECT count(*) AS ranges FROM (SELECT 1 FROM archive_reference_filters WHERE kind = ? LIMIT ?)',
      kind,
      PENDING_MAX / PENDING_PER_RANGE,
    )
    .one();
  return ranges * PENDING_PER_RANGE;
}

function rangeOf(sql: SqlStorage, kind: string, hash: number): RangeRow | undefined {
  return sql
    .exec<Record<string, SqlStorageValue>>(
      'SELECT lo, bits, count, codes, since FROM archive_reference_filters WHERE kind = ? AND lo <= ? ORDER BY lo DESC LIMIT 1',
      kind,
      hash,
    )
    .toArray()[0] as RangeRow | undefined;
}

function offsetsOf(row: RangeRow, until?: number): number[] {
  return decodeOffsets(new Uint8Array(row.codes), row.count, until);
}

/**
 * The hash width of a filter: its last range ends at 2^width (one probe of the primary key). A new
 * filter takes HASH_BITS; one started before keeps its own (34 bits), so no stored hash is re-read.
 * `started`: whether the filter has ranges yet.
 */
function widthOf(sql: SqlStorage, kind: string): { width: number; started: boolean } {
  const last = sql
    .exec<{ lo: number; bits: number }>(
      'SELECT lo, bits FROM archive_reference_filters WHERE kind = ? ORDER BY lo DESC LIMIT 1',
      kind,
    )
    .toArray()[0];
  return last
    ? { width: Math.round(Math.log2(last.lo + 2 ** last.bits)), started: true }
    : { width: HASH_BITS, started: false };
}

/**
 * Per-filter bookkeeping rows, `lo` naming the filter: kind SIZES holds the running total of its blob
 * bytes (`count`), kept in the transaction that rewrites its ranges, so the hot window's budget can
 * leave what the archive keeps forever out (archive.ts overBudget) without summing millions of
 * ranges; kind PENDING the size of its pending buffer (`count`) and the hash the next merge starts
 * at (`since`).
 */
const SIZES = '#bytes';
const PENDING = '#pending';
const sizeRow = (kind: string) => keyHash(kind, 40);

function bytesOf(sql: SqlStorage, kind: string): number {
  const row = sql
    .exec<{ count: number }>(
      'SELECT count FROM archive_reference_filters WHERE kind = ? AND lo = ?',
      SIZES,
      sizeRow(kind),
    )
    .toArray()[0];
  // A filter older than the total: summed once (small then: the total came with the filter's first months).
  return row?.count ?? referenceFilterSize(sql, kind).bytes;
}

function setBookkeeping(sql: SqlStorage, bookkeeping: string, kind: string, count: number, since = 0): void {
  sql.exec(
    `INSERT INTO archive_reference_filters (kind, lo, bits, count, codes, since) VALUES (?, ?, 0, ?, X'', ?)
     ON CONFLICT (kind, lo) DO UPDATE SET count = excluded.count, since = excluded.since`,
    bookkeeping,
    sizeRow(kind),
    count,
    since,
  );
}

function pendingOf(sql: SqlStorage, kind: string): { count: number; cursor: number } {
  const row = sql
    .exec<{ count: number; since: number }>(
      'SELECT count, since FROM archive_reference_filters WHERE kind = ? AND lo = ?',
      PENDING,
      sizeRow(kind),
    )
    .toArray()[0];
  return { count: row?.count ?? 0, cursor: row?.since ?? 0 };
}

/** The blob bytes of every filter: what the archive keeps in the object forever (archive.ts, the hot budget). */
export function filterBytes(sql: SqlStorage): number {
  return sql
    .exec<{ bytes: number }>(
      'SELECT coalesce(sum(count), 0) AS bytes FROM archive_reference_filters WHERE kind = ?',
      SIZES,
    )
    .one().bytes;
}

/**
 * Adds the references of rows archived in `segment` (inside the transaction that deletes them) to the
 * pending buffer, then merges while it holds more than `bound` (boundOf; 0 merges it all). The
 * first references of a kind start the filter's ranges at once: their `since` is its beginning.
 */
export function addReferences(
  sql: SqlStorage,
  kind: string,
  segment: number,
  references: string[],
  bound?: number,
): void {
  const { width, started } = widthOf(sql, kind);
  const hashes = references.map((reference) => keyHash(reference, width));
  if (!started) {
    if (hashes.length > 0)
      setBookkeeping(sql, SIZES, kind, rewrite(sql, kind, undefined, hashes, segment, width));
    return;
  }
  let { count, cursor } = pendingOf(sql, kind);
  for (const hash of hashes)
    count += sql
      .exec(
        'INSERT INTO archive_reference_pending (kind, hash) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING hash',
        kind,
        hash,
      )
      .toArray().length;
  // From the cursor on, range after range (wrapping at the end of the hash space), each range's
  // pending hashes merged and deleted together, in this transaction: a crash leaves them pending.
  let bytes: number | undefined;
  const most = bound ?? (count > PENDING_PER_RANGE ? boundOf(sql, kind) : PENDING_PER_RANGE);
  while (count > most) {
    const next = pendingFrom(sql, kind, cursor) ?? pendingFrom(sql, kind, 0);
    if (next === undefined) break;
    const row = present(rangeOf(sql, kind, next), 'the range of a pending hash');
    const end = row.lo + 2 ** row.bits;
    const merged = sql
      .exec<{ hash: number }>(
        'DELETE FROM archive_reference_pending WHERE kind = ? AND hash >= ? AND hash < ? RETURNING hash',
        kind,
        row.lo,
        end,
      )
      .toArray()
      .map((r) => r.hash);
    bytes =
      (bytes ?? bytesOf(sql, kind)) - row.codes.byteLength + rewrite(sql, kind, row, merged, segment, width);
    count -= merged.length;
    cursor = end % 2 ** width;
  }
  if (bytes !== undefined) setBookkeeping(sql, SIZES, kind, bytes);
  setBookkeeping(sql, PENDING, kind, count, cursor);
}

/** The first pending hash of a filter at or after `from`. */
function pendingFrom(sql: SqlStorage, kind: string, from: number): number | undefined {
  return sql
    .exec<{ hash: number }>(
      'SELECT hash FROM archive_reference_pending WHERE kind = ? AND hash >= ? ORDER BY hash LIMIT 1',
      kind,
      from,
    )
    .toArray()[0]?.hash;
}

/**
 * One range (with none yet, the whole hash space) rewritten with `hashes`, split past SHARD_MAX;
 * returns the bytes of its new blobs.
 */
function rewrite(
  sql: SqlStorage,
  kind: string,
  row: RangeRow | undefined,
  hashes: number[],
  segment: number,
  width: number,
): number {
  const range: HashRange = row
    ? { lo: row.lo, bits: row.bits, offsets: offsetsOf(row) }
    : { lo: 0, bits: width, offsets: [] };
  // The first references of a kind start the filter: segments before this one are not in it.
  const since = row?.since ?? segment;
  let bytes = 0;
  // The range's first part keeps its `lo`: updated in place, so the row keeps its page (a delete and
  // an insert left half-empty pages behind: docs/storage-schema.md, "The 2 GB arithmetic"); a
  // split's other halves are new rows.
  for (const part of mergeInto(range, hashes)) {
    const codes = encodeOffsets(part.offsets, 2 ** part.bits);
    bytes += codes.byteLength;
    sql.exec(
      `INSERT INTO archive_reference_filters (kind, lo, bits, count, codes, since) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (kind, lo) DO UPDATE SET bits = excluded.bits, count = excluded.count, codes = excluded.codes`,
      kind,
      part.lo,
      part.bits,
      part.offsets.length,
      codes,
      since,
    );
  }
  return bytes;
}

/**
 * Whether an archived row of `kind` may carry this reference: a filter hit, or a segment archived
 * before the filter began (found only through the archive's own look-up). False is certain.
 */
export function referenceMayBeArchived(sql: SqlStorage, kind: string, reference: string): boolean {
  return mayBeIn(sql, kind, kind, reference);
}

// `filter` names the filter's rows; `kind` the segments: those archived before the filter began are
// not in it, so while one is DONE every key may be archived.
function mayBeIn(sql: SqlStorage, kind: string, filter: string, key: string): boolean {
  const hash = keyHash(key, widthOf(sql, filter).width);
  const row = rangeOf(sql, filter, hash);
  if (doneSegmentBefore(sql, kind, row?.since)) return true;
  if (!row) return false;
  // Pending (one look-up of its primary key), or merged into its range.
  if (pendingFrom(sql, filter, hash) === hash) return true;
  const offset = hash - row.lo;
  return offsetsOf(row, offset).at(-1) === offset;
}

/**
 * Of these references, the ones the archive must be asked about (archive-reads.ts referencesArchived):
 * those the filter cannot clear. Read after the hot check with no await between: a row is either hot
 * or in the filter at every instant (written in the transaction that deletes it).
 */
export function referencesToAsk(sql: SqlStorage, kind: string, references: string[]): string[] {
  return references.filter((reference) => referenceMayBeArchived(sql, kind, reference));
}

/** Keys (merged into ranges) and bytes of a kind's filter (the footprint bench and docs/operating.md's figures). */
export function referenceFilterSize(
  sql: SqlStorage,
  kind: string,
): { keys: number; bytes: number; ranges: number } {
  const row = sql
    .exec<{ keys: number; bytes: number; ranges: number }>(
      'SELECT coalesce(sum(count), 0) AS keys, coalesce(sum(length(codes)), 0) AS bytes, count(*) AS ranges FROM archive_reference_filters WHERE kind = ?',
      kind,
    )
    .one();
  return row;
}

/** A kind's pending buffer: its hashes, and the size its bookkeeping row records (they agree). */
export function pendingReferences(sql: SqlStorage, kind: string): { hashes: number; recorded: number } {
  const { hashes } = sql
    .exec<{ hashes: number }>('SELECT count(*) AS hashes FROM archive_reference_pending WHERE kind = ?', kind)
    .one();
  return { hashes, recorded: pendingOf(sql, kind).count };
}
