/**
 * The HealthAnalyzer's store of per-window traffic (src/health/surface/series.ts) for the operator console;
 * the table is in schema.ts. The primary key leads with the window, so the pruning delete and the last-day reads are range scans.
 */
import { SERIES_RETENTION_MS, type SeriesKind, type SeriesPoint } from '../../src/health/surface/series';
import type { Operation } from '../../src/health/types';

/** Adds a batch's counts; points older than the retention are history the console never shows. */
export function saveSeries(sql: SqlStorage, points: Iterable<SeriesPoint>, nowMs: number): void {
  const oldest = nowMs - SERIES_RETENTION_MS;
  for (const p of points) {
    if (p.window < oldest) continue;
    sql.exec(
      `INSERT INTO series (window, kind, id, operation, created, settled, failed, expired, returned)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (window, kind, id, operation) DO UPDATE SET
         created = created + excluded.created, settled = settled + excluded.settled,
         failed = failed + excluded.failed, expired = expired + excluded.expired,
         returned = returned + excluded.returned`,
      p.window,
      p.kind,
      p.id,
      p.operation,
      p.created,
      p.settled,
      p.failed,
      p.expired,
      p.returned,
    );
  }
}

export function pruneSeries(sql: SqlStorage, nowMs: number): void {
  sql.exec('DELETE FROM series WHERE window < ?', nowMs - SERIES_RETENTION_MS);
}

type Row = Omit<SeriesPoint, 'kind' | 'operation'> & { kind: string; operation: string };

/**
 * Every partner's points since `from`, and those of the `topInstitutions` institutions with the most
 * transactions in that time (the console plots the large banks, not the long tail).
 */
export function readSeries(sql: SqlStorage, from: number, topInstitutions: number): SeriesPoint[] {
  const top = sql
    .exec<{ id: string }>(
      `SELECT id FROM series WHERE window >= ? AND kind = 'institution'
       GROUP BY id ORDER BY sum(created) DESC, id LIMIT ?`,
      from,
      topInstitutions,
    )
    .toArray()
    .map((r) => r.id);
  const marks = top.map(() => '?').join(',');
  const rows = sql
    .exec<Row>(
      `SELECT window, kind, id, operation, created, settled, failed, expired, returned FROM series
       WHERE window >= ? AND (kind = 'partner'${top.length > 0 ? ` OR (kind = 'institution' AND id IN (${marks}))` : ''})
       ORDER BY window`,
      from,
      ...top,
    )
    .toArray();
  return rows.map((r) => ({ ...r, kind: r.kind as SeriesKind, operation: r.operation as Operation }));
}
