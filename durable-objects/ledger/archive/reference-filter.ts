/**
 * The externalReference filter: every reference of an archived Cash-In or Cash-Out, per kind, in a
 * Golomb–Rice coded hash set (src/domain/hash-set-codec.ts) kept in this object's SQLite as blobs,
 * one row per range of the hash space. A create asks it first: "no" is final (the reference was
 * never archived since the filter began, `since`), "may" costs the one archived look-up that
 * decides (docs/storage-schema.md, "externalReference filter"). Written in the transaction that
 * deletes the archived rows, so a crash never leaves an archived reference out of it.
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

/** Adds the references of rows archived in `segment` (inside the transaction that deletes them). */
export function addReferences(sql: SqlStorage, kind: string, segment: number, references: string[]): void {
  addKeys(sql, kind, segment, references);
}

function addKeys(sql: SqlStorage, kind: string, segment: number, references: string[]): void {
  const byRange = new Map<number, { row: RangeRow | undefined; hashes: number[] }>();
  for (const reference of references) {
    const hash = keyHash(reference);
    const row = rangeOf(sql, kind, hash);
    const lo = row?.lo ?? 0;
    const entry = byRange.get(lo) ?? { row, hashes: [] };
    entry.hashes.push(hash);
    byRange.set(lo, entry);
  }
  for (const [lo, { row, hashes }] of byRange) {
    const range: HashRange = row
      ? { lo, bits: row.bits, offsets: offsetsOf(row) }
      : { lo: 0, bits: HASH_BITS, offsets: [] };
    // The first references of a kind start the filter: segments before this one are not in it.
    const since = row?.since ?? segment;
    sql.exec('DELETE FROM archive_reference_filters WHERE kind = ? AND lo = ?', kind, lo);
    for (const part of mergeInto(range, hashes))
      sql.exec(
        'INSERT INTO archive_reference_filters (kind, lo, bits, count, codes, since) VALUES (?, ?, ?, ?, ?, ?)',
        kind,
        part.lo,
        part.bits,
        part.offsets.length,
        encodeOffsets(part.offsets, 2 ** part.bits),
        since,
      );
  }
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
  const hash = keyHash(key);
  const row = rangeOf(sql, filter, hash);
  if (doneSegmentBefore(sql, kind, row?.since)) return true;
  if (!row) return false;
  const offset = hash - row.lo;
  return offsetsOf(row, offset).at(-1) === offset;
}

/**
 * Of these references, the ones the archive must be asked about (archive-index.ts archivedAmong):
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
