/**
 * The id indexes' store: every statement on archive_index (the first generation's ids, before the
 * registry; never added to again) and archive_delivery_index (archived deliveries' aggregateIds).
 * Every function runs inside the caller's storage transaction.
 */

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

/** The segment ids indexed under any of `hashes`. */
export function segmentIdsByHash(sqlApi: SqlStorage, index: IdIndex, hashes: number[]): number[] {
  return sqlApi
    .exec<{ segment: number }>(
      `SELECT DISTINCT segment FROM ${INDEX_TABLE[index]} WHERE hash IN (${hashes.map(() => '?').join(', ')})`,
      ...hashes,
    )
    .toArray()
    .map((r) => r.segment);
}

/** A segment's entries leave (by primary key). */
export function dropIndexEntries(
  sqlApi: SqlStorage,
  index: IdIndex,
  segment: number,
  hashes: number[],
): void {
  for (const hash of hashes)
    sqlApi.exec(`DELETE FROM ${INDEX_TABLE[index]} WHERE hash = ? AND segment = ?`, hash, segment);
}

/**
 * The greatest segment id the first-generation index names: its segments are never folded (their
 * ids are found by joining the loose rows). Computed once per object: that index never grows.
 */
export function legacyIndexMax(sqlApi: SqlStorage): number {
  return Number(sqlApi.exec('SELECT coalesce(max(segment), 0) AS m FROM archive_index').one().m);
}

/** How many rows the id indexes hold (the delivery index: of one segment, when named). */
export function indexSizes(sqlApi: SqlStorage, segment?: number) {
  const n = (text: string, ...binds: SqlStorageValue[]) => Number(sqlApi.exec(text, ...binds).one().n);
  return {
    indexEntries: n('SELECT count(*) AS n FROM archive_index'),
    deliveryIndexEntries:
      segment === undefined
        ? n('SELECT count(*) AS n FROM archive_delivery_index')
        : n('SELECT count(*) AS n FROM archive_delivery_index WHERE segment = ?', segment),
  };
}
