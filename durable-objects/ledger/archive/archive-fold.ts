/**
 * Folding the manifest of closed days into R2 (docs/storage-schema.md, "Archive (R2)"): the loose
 * archive_segments rows of one (kind, UTC day) become one run, a row of archive_runs in the object
 * and the rows themselves as the run's gzip JSON body in R2 (archive-manifest.ts reads both). The
 * object then keeps one row per kind and day instead of one per segment of ≤ 200 rows.
 *
 * What folds: DONE rows with their manifest (a legacy row waits for archive-backfill.ts), not a
 * delivery's (those expire), of a day that ended a day before the archive's cutoff (the archive is
 * done writing it), above every segment the first-generation index names (found by joining loose
 * rows). A run holds consecutive ids of its kind: it stops before any other segment of the kind
 * (another day's, one being written), so runs of a kind never overlap and an id's run is one look-up.
 *
 * Crash safety: read the rows, put the body (its key derives from the run), crash point
 * `archive.run-written`, then one transaction that checks the rows are all still there and DONE (else
 * nothing: the next step plans again), inserts the run and deletes them. A crash before it leaves an
 * unreferenced body that the retry overwrites with the same bytes; every read finds the rows loose.
 */
import type { LedgerContext } from '../ledger-context';
import { legacyIndexMax } from './archive-index-store';
import { RUN_VERSION, type RunBody, runEntry } from './archive-manifest';
import { insertRun, type RunRow, runFrom, runKey } from './archive-runs-store';
import { DAY_MS, dayStart, gzipJson, utcDay } from './archive-segments';
import { archiveSources } from './archive-sources';
import { foldableTime, type LooseRow, looseOfDay, otherSegmentIn, takeSegments } from './archive-store';

/** Segments per run at most: one body of ≲ 1 MB gzip and one transaction of bounded size. */
export const FOLD_SEGMENTS = 10_000;

const legacyMax = new WeakMap<DurableObjectStorage, number>();

/**
 * The first-generation index's greatest segment, read once per object once found (that index never
 * grows; the max scans it): an empty index is asked again, a cheap look.
 */
function legacyFloor(ledger: LedgerContext): number {
  const known = legacyMax.get(ledger.storage);
  if (known !== undefined) return known;
  const max = legacyIndexMax(ledger.storage.sql);
  if (max > 0) legacyMax.set(ledger.storage, max);
  return max;
}

/** The next run to fold before `cutoff` (the archive's), if any: its row and its segments. */
export function nextRun(
  ledger: LedgerContext,
  cutoff: number,
): { run: RunRow; rows: LooseRow[] } | undefined {
  const sql = ledger.storage.sql;
  const until = dayStart(cutoff - DAY_MS);
  const floor = legacyFloor(ledger);
  for (const { kind } of archiveSources(ledger)) {
    const first = foldableTime(sql, kind, until, floor);
    if (first === undefined) continue;
    const start = dayStart(first);
    const day = looseOfDay(sql, kind, start, floor, FOLD_SEGMENTS);
    const [lo, hi] = [day[0]?.id ?? 0, day.at(-1)?.id ?? 0];
    // Stop before another segment of the kind or a run, so runs never overlap.
    const other = otherSegmentIn(sql, kind, lo, hi, start) ?? Number.POSITIVE_INFINITY;
    const run = runFrom(sql, kind, lo);
    const stop = Math.min(other, run && run.minId <= hi ? run.minId : Number.POSITIVE_INFINITY);
    const rows = day.filter((s) => s.id < stop);
    const [head, last] = [rows[0], rows.at(-1)];
    if (!head || !last) continue;
    return {
      run: {
        kind,
        dayStart: start,
        minId: head.id,
        maxId: last.id,
        firstTime: Math.min(...rows.map((s) => s.firstTime)),
        lastTime: Math.max(...rows.map((s) => s.lastTime)),
        segments: rows.length,
        rows: rows.reduce((n, s) => n + s.count, 0),
      },
      rows,
    };
  }
  return undefined;
}

/**
 * One fold step: the next run's body to R2, then its row in and its segments' rows out. Returns the
 * segments folded (0 when the rows changed meanwhile: plan again), or undefined when nothing folds.
 */
export async function foldStep(ledger: LedgerContext, cutoff: number): Promise<number | undefined> {
  const next = nextRun(ledger, cutoff);
  if (!next) return undefined;
  const { run, rows } = next;
  const clientId = ledger.profile.clientId;
  const body: RunBody = {
    v: RUN_VERSION,
    clientId,
    kind: run.kind,
    day: utcDay(run.dayStart),
    segments: rows.map(runEntry),
  };
  await ledger.env.ARCHIVE.put(runKey(clientId, run), await gzipJson(body), {
    httpMetadata: { contentType: 'application/json', contentEncoding: 'gzip' },
    customMetadata: { segments: String(run.segments) },
  });
  await ledger.crashes.reach('archive.run-written');
  return ledger.storage.transactionSync(() => {
    if (
      !takeSegments(
        ledger.storage.sql,
        run.kind,
        rows.map((s) => s.id),
      )
    )
      return 0;
    insertRun(ledger.storage.sql, run);
    return run.segments;
  });
}

/** Folds every closed day before `cutoff` (the admin archive run, after everything moved). */
export async function foldAll(ledger: LedgerContext, cutoff: number): Promise<void> {
  while ((await foldStep(ledger, cutoff)) !== undefined);
}
