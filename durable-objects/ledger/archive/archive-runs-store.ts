/**
 * The runs store: every statement on archive_runs, the manifest of closed days folded into R2
 * (archive-fold.ts). A run is one (kind, UTC day) batch of segment ids min_id..max_id; no other
 * segment of its kind has an id in that range (the fold splits there), so the runs of a kind never
 * overlap and the run holding a segment id is the first of its kind ending at or after it. Its
 * segments' manifest rows are the run's body in R2, at the key its row derives (runKey). Every
 * function runs inside the caller's storage transaction.
 */
import type { LedgerDb } from '../db';
import { archiveRuns } from '../schema';

export type RunRow = typeof archiveRuns.$inferSelect;

const COLUMNS = `kind, day_start AS dayStart, min_id AS minId, max_id AS maxId, first_time AS firstTime,
  last_time AS lastTime, segments, rows`;

type Rows = RunRow & Record<string, SqlStorageValue>;

/** Where a run's body is: `<clientId>/manifest/<kind, ':' as '/'>/<day>/<min>-<max>.json.gz`. */
export function runKey(clientId: string, run: Pick<RunRow, 'kind' | 'dayStart' | 'minId' | 'maxId'>): string {
  const day = new Date(run.dayStart).toISOString().slice(0, 10);
  return `${clientId}/manifest/${run.kind.replace(':', '/')}/${day}/${run.minId}-${run.maxId}.json.gz`;
}

export function insertRun(sqlApi: SqlStorage, run: RunRow): void {
  sqlApi.exec(
    `INSERT INTO archive_runs (kind, day_start, min_id, max_id, first_time, last_time, segments, rows)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    run.kind,
    run.dayStart,
    run.minId,
    run.maxId,
    run.firstTime,
    run.lastTime,
    run.segments,
    run.rows,
  );
}

/** The first run of `kind` whose range ends at or after `id` (archive_runs_max_idx): where a fold from `id` up stops. */
export function runFrom(sqlApi: SqlStorage, kind: string, id: number): RunRow | undefined {
  return sqlApi
    .exec<Rows>(
      `SELECT ${COLUMNS} FROM archive_runs WHERE kind = ? AND max_id >= ? ORDER BY max_id LIMIT 1`,
      kind,
      id,
    )
    .toArray()[0];
}

/** The run of `kind` whose id range holds `id`, if any: runs of a kind never overlap. */
export function runHolding(sqlApi: SqlStorage, kind: string, id: number): RunRow | undefined {
  const run = runFrom(sqlApi, kind, id);
  return run && run.minId <= id ? run : undefined;
}

/** The runs of `kind` on the UTC day starting at `start`. */
export function runsOfDay(sqlApi: SqlStorage, kind: string, start: number): RunRow[] {
  return sqlApi
    .exec<Rows>(
      `SELECT ${COLUMNS} FROM archive_runs WHERE kind = ? AND day_start = ? ORDER BY min_id`,
      kind,
      start,
    )
    .toArray();
}

/**
 * The next day (in scan order, from `start` inclusive, within [low, high]) holding a run of `kind`
 * that reaches into [from, to]: a list reads the runs day by day, only while it needs candidates.
 */
export function nextRunDay(
  sqlApi: SqlStorage,
  kind: string,
  scan: 'ASC' | 'DESC',
  start: number,
  bound: number,
  from: number,
  to: number,
): number | undefined {
  const [cmp, edge, order] = scan === 'ASC' ? ['>=', '<=', 'ASC'] : ['<=', '>=', 'DESC'];
  return sqlApi
    .exec<{ d: number }>(
      `SELECT day_start AS d FROM archive_runs WHERE kind = ? AND day_start ${cmp} ? AND day_start ${edge} ?
       AND last_time >= ? AND first_time <= ? ORDER BY day_start ${order} LIMIT 1`,
      kind,
      start,
      bound,
      from,
      to,
    )
    .toArray()[0]?.d;
}

/** Some run exists (of `kind` when named). */
export function anyRun(sqlApi: SqlStorage, kind?: string): boolean {
  const rows =
    kind === undefined
      ? sqlApi.exec('SELECT 1 FROM archive_runs LIMIT 1')
      : sqlApi.exec('SELECT 1 FROM archive_runs WHERE kind = ? LIMIT 1', kind);
  return rows.toArray().length > 0;
}

/** Some run of `kind` holds a segment id below `id` (archive-store.ts doneSegmentBefore). */
export function runBefore(sqlApi: SqlStorage, kind: string, id: number): boolean {
  return (
    sqlApi.exec('SELECT 1 FROM archive_runs WHERE kind = ? AND min_id < ? LIMIT 1', kind, id).toArray()
      .length > 0
  );
}

/** Whether any run exists, as a subquery (archive-store.ts ANY_SEGMENT_DONE). */
export const ANY_RUN = 'EXISTS (SELECT 1 FROM archive_runs)';

/**
 * The latest time a run of the kind named by `kind` (SQL text) holds, as a subquery: every run lies
 * in its day, so the latest is on the latest day (the primary key's range, not the table).
 */
export const runsUntil = (kind: string) =>
  `(SELECT max(last_time) FROM archive_runs WHERE kind = ${kind}
    AND day_start = (SELECT max(day_start) FROM archive_runs WHERE kind = ${kind}))`;

/** Every run, by kind, day and first id (test/support/ledger-reads.ts). */
export function allRuns(db: LedgerDb): RunRow[] {
  return db
    .select()
    .from(archiveRuns)
    .orderBy(archiveRuns.kind, archiveRuns.dayStart, archiveRuns.minId)
    .all();
}
