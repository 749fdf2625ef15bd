/**
 * The stale copies' store: every statement on archive_stale, the archived copies a rehydration
 * superseded (archive-reads.ts rehydrate), by segment id whether the segment is loose or folded.
 * Every function runs inside the caller's storage transaction.
 */

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

/** The stale seqs of every segment whose id is in [lo, hi], by segment (a run's, archive-manifest.ts). */
export function staleInRange(sqlApi: SqlStorage, lo: number, hi: number): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  for (const { segment, seq } of sqlApi
    .exec<{ segment: number; seq: number }>(
      'SELECT segment, seq FROM archive_stale WHERE segment >= ? AND segment <= ?',
      lo,
      hi,
    )
    .toArray())
    out.set(segment, (out.get(segment) ?? new Set()).add(seq));
  return out;
}

/** A segment's marks go with it (an expired delivery segment). */
export function dropStale(sqlApi: SqlStorage, segment: number): void {
  sqlApi.exec('DELETE FROM archive_stale WHERE segment = ?', segment);
}
