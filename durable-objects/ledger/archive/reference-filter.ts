/**
 * The externalReference filter: every reference of an archived Cash-In, in a Golomb–Rice coded hash
 * set (src/domain/hash-set-codec.ts) kept in this object's SQLite as blobs, one row per range of the
 * hash space. A Cash-In create asks it first: "no" is final (the reference was never archived since
 * the filter began, `since`), "may" costs the one archived look-up that decides (docs/storage-schema.md,
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
import { doneSegmentBefore } from './archive-store';

interface RangeRow {
  lo: number;
  bits: number;
  count: number;
  codes: ArrayBuffer;
  since: number;
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
 */
function widthOf(sql: SqlStorage, kind: string): number {
  const last = sql
    .exec<{ lo: number; bits: number }>(
      'SELECT lo, bits FROM archive_reference_filters WHERE kind = ? ORDER BY lo DESC LIMIT 1',
      kind,
    )
    .toArray()[0];
  return last ? Math.round(Math.log2(last.lo + 2 ** last.bits)) : HASH_BITS;
}

/**
 * The running total of the filters' blob bytes: one row per filter under kind SIZES (`lo` names the
 * filter, `count` holds its bytes), kept in the transaction that rewrites its ranges, so the hot
 * window's budget can leave what the archive keeps forever out (archive.ts overBudget) without
 * summing millions of ranges.
 */
const SIZES = '#bytes';
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

function setBytes(sql: SqlStorage, kind: string, bytes: number): void {
  sql.exec(
    `INSERT INTO archive_reference_filters (kind, lo, bits, count, codes, since) VALUES (?, ?, 0, ?, X'', 0)
     ON CONFLICT (kind, lo) DO UPDATE SET count = excluded.count`,
    SIZES,
    sizeRow(kind),
    bytes,
  );
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

/** Adds the references of rows archived in `segment` (inside the transaction that deletes them). */
export function addReferences(sql: SqlStorage, kind: string, segment: number, references: string[]): void {
  addKeys(sql, kind, segment, references);
}

function addKeys(sql: SqlStorage, kind: string, segment: number, references: string[]): void {
  const width = widthOf(sql, kind);
  let bytes = bytesOf(sql, kind);
  const byRange = new Map<number, { row: RangeRow | undefined; hashes: number[] }>();
  for (const reference of references) {
    const hash = keyHash(reference, width);
    const row = rangeOf(sql, kind, hash);
    const lo = row?.lo ?? 0;
    const entry = byRange.get(lo) ?? { row, hashes: [] };
    entry.hashes.push(hash);
    byRange.set(lo, entry);
  }
  for (const [lo, { row, hashes }] of byRange) {
    const range: HashRange = row
      ? { lo, bits: row.bits, offsets: offsetsOf(row) }
      : { lo: 0, bits: width, offsets: [] };
    // The first references of a kind start the filter: segments before this one are not in it.
    const since = row?.since ?? segment;
    bytes -= row?.codes.byteLength ?? 0;
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
  }
  setBytes(sql, kind, bytes);
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
  const hash = keyHash(key, widthOf(sql, filter));
  const row = rangeOf(sql, filter, hash);
  if (doneSegmentBefore(sql, kind, row?.since)) return true;
  if (!row) return false;
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

/** Keys and bytes of a kind's filter (the footprint bench and docs/operating.md's figures). */
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
