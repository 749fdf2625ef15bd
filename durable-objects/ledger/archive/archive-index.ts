/**
 * The compact index of archived transactions: every id of an archived Cash-In (internalCode,
 * transactionId, externalReference, endToEndId, refund endToEndId; archive-sources.ts) hashed to 47 bits, mapped to the
 * segment that holds it, in a WITHOUT ROWID table keyed (hash, segment). A collision only costs
 * reading one more segment: the reader compares the real ids (archive.ts).
 */

import { internalCodeOfTxId } from '../../../src/domain/ids';
import { anyIndexed, hasArchiveOf, type IdIndex, insertIndexEntries, segmentsByHash } from './archive-store';

/**
 * FNV-1a 64 cut to 47 bits: a JS number exactly, and SQLite stores it in 6 bytes (its integer
 * serial type for |n| < 2^47), so an index row is ~13 bytes with its cell pointer. Sync and cheap.
 */
export function idHash(id: string): number {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < id.length; i++) {
    h ^= BigInt(id.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return Number(h >> 17n);
}

export function indexIds(sql: SqlStorage, segment: number, ids: string[], index: IdIndex = 'main'): void {
  insertIndexEntries(
    sql,
    index,
    segment,
    ids.map((id) => idHash(id)),
  );
}

/**
 * The index keys a row of `kind` named by `id` may be under: a Cash-In TxId of ours is indexed
 * through the internalCode it carries (archive-sources.ts), one of an older version under itself.
 */
function keysOf(id: string, kind: string): number[] {
  const code = kind === 'cash-in' ? internalCodeOfTxId(id) : undefined;
  return code === undefined ? [idHash(id)] : [idHash(id), idHash(code)];
}

/** DONE segments that may hold `id`, newest first (the reader compares the real ids). */
export function segmentsFor(
  sql: SqlStorage,
  id: string,
  kind: string,
  index: IdIndex = 'main',
): { id: number; key: string }[] {
  return segmentsByHash(sql, index, keysOf(id, kind), kind);
}

/**
 * Whether some archived row of `kind` may carry `id` (a hash hit): keeps references and codes
 * unique. `asTransactionId`: `id` is a transactionId (an aggregate), so its code's key counts too.
 */
export function maybeArchived(sql: SqlStorage, id: string, kind: string, asTransactionId = false): boolean {
  // Nothing of this kind archived yet (most clients, most of the time): no hash to compute, and
  // the BigInt hash costs more than this look-up.
  if (!hasArchiveOf(sql, kind)) return false;
  const keys = asTransactionId ? keysOf(id, kind) : [idHash(id)];
  return anyIndexed(sql, keys, kind);
}
