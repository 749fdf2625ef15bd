/**
 * Closed history moves from the object to R2 (docs/storage-schema.md, "Archive"), one source at a
 * time (archive-sources.ts: Cash-Ins, then the rest).
 *
 * A step takes at most ARCHIVE_STEP_ROWS eligible rows of one source and one UTC day (by list time), and
 * writes them as one immutable gzip segment `<clientId>/<kind>/<day>/<first>-<last>.s<id>.json.gz`
 * (the id: a key is never reused); once its day is closed its manifest row folds into R2 (archive-fold.ts).
 * Crash safety: the key and the seqs are reserved (WRITING) in the object before the put; the rows'
 * ids are registered (archive-index.ts) after it; deleting the rows, writing their totals and
 * marking the segment DONE are one SQLite transaction after that. A crash in between leaves the rows hot and the reservation: the next step
 * re-puts the same key from the same rows and finishes. Nothing is lost (rows go only with their
 * manifest) and nothing is doubled (a row is read hot or from a DONE segment; WRITING is never read).
 */
import { hotBudgetBytes, retentionMs } from '../../../src/config';
import { DUPLICATE_WINDOW_MS } from '../../../src/domain/cash-out';
import {
  type ArchivableRow,
  closedCount,
  deleteBySeq,
  eligibleRows,
  oldestTime,
  rowsBySeq,
} from '../archivable';
import type { LedgerContext } from '../ledger-context';
import { backfillManifest } from './archive-backfill';
import { EXPIRE_STEP_SEGMENTS, expireDeliveries, nextExpiryAt } from './archive-deliveries';
import { deliverySource, enqueueAggregates, enqueueOldestEnded } from './archive-delivery-queue';
import { foldStep, nextRun } from './archive-fold';
import { fixRegistryShards, registerIds } from './archive-index';
import { gzipJson, SEGMENT_VERSION, type Segment, utcDay } from './archive-segments';
import { type ArchiveSource, archiveSources as transactionSources } from './archive-sources';
import { anyQueued, dropSegment, reserveSegment, segmentDone, writingSegment } from './archive-store';
import { manifest } from './archive-totals';
import { addDayTotals } from './archive-totals-store';
import { addReferences, filterBytes } from './reference-filter';

/** Rows per step and segment: one put and one SQLite transaction of bounded size. */
export const ARCHIVE_STEP_ROWS = 200;
type Row = ArchivableRow;

/** Every source of this object, in the order a step tries them: deliveries follow their transactions. */
const archiveSources = (ledger: LedgerContext) => [...transactionSources(ledger), deliverySource];

function sourceOf(ledger: LedgerContext, kind: string): ArchiveSource {
  const source = archiveSources(ledger).find((s) => s.kind === kind);
  if (!source) throw new Error(`unknown archive kind ${kind}`);
  return source;
}

/** The next step's rows: eligible rows of the oldest day, walked along the source's (time, seq) index. */
function nextRows(ledger: LedgerContext, source: ArchiveSource, before: number): Row[] {
  if (source.nextRows) return source.nextRows(ledger);
  const rows = eligibleRows(ledger.db, source, before, ARCHIVE_STEP_ROWS);
  const head = rows[0];
  if (!head) return [];
  const first = utcDay(source.timeOf(head));
  return rows.filter((r) => utcDay(source.timeOf(r)) === first).sort((a, b) => a.seq - b.seq);
}

/**
 * One archiving step: finishes a reserved segment if a crash left one, else reserves and writes the
 * next rows of the first source that has one. Returns how many rows left the object (0 = nothing
 * eligible before `before`).
 */
export function archiveStep(ledger: LedgerContext, before: number): Promise<Moved> {
  // One step at a time per object: the alarm's task and the admin call would otherwise reserve the
  // same rows across the put's await.
  const previous = running.get(ledger.storage) ?? Promise.resolve(NONE);
  const step = previous.catch(() => NONE).then(() => archiveStepNow(ledger, before));
  running.set(ledger.storage, step);
  return step;
}

const running = new WeakMap<DurableObjectStorage, Promise<Moved>>();

const pendingSegment = (ledger: LedgerContext) => writingSegment(ledger.db);

/** Reserves the next rows of the first source that has one. */
function reserve(ledger: LedgerContext, before: number) {
  for (const source of archiveSources(ledger)) {
    const rows = nextRows(ledger, source, before);
    const [head, last] = [rows[0], rows.at(-1)];
    if (!head || !last) continue;
    const day = utcDay(source.timeOf(head));
    const base = `${ledger.profile.clientId}/${source.kind.replace(':', '/')}/${day}/${head.seq}-${last.seq}`;
    // The key carries the segment's id (never reused): a rehydrated row archived again alone, even
    // once its old segment's manifest row is folded into R2, never overwrites that segment.
    const keyOf = (id: number) => `${base}.s${id}.json.gz`;
    const seqs = rows.map((r) => r.seq);
    // The registry's shard count is fixed before the first segment that registers ids with it.
    fixRegistryShards(ledger);
    const reserved = reserveSegment(ledger.db, { keyOf, seqs, kind: source.kind, ...manifest(source, rows) });
    return { segment: { id: reserved.id, key: reserved.key, seqs, kind: source.kind }, rows, source };
  }
  return undefined;
}

/** Rows that left the object in a step, and how many of them were transactions (not ledger entries). */
export interface Moved {
  moved: number;
  transactions: number;
}

const NONE: Moved = { moved: 0, transactions: 0 };

async function archiveStepNow(ledger: LedgerContext, before: number): Promise<Moved> {
  await backfillManifest(ledger);
  const pending = pendingSegment(ledger);
  const next = pending
    ? {
        segment: { id: pending.id, key: pending.key, seqs: pending.seqs ?? [], kind: pending.kind },
        source: sourceOf(ledger, pending.kind),
        rows: [] as Row[],
      }
    : reserve(ledger, before);
  if (!next) return NONE;
  const { segment, source } = next;
  const rows = pending ? rowsBySeq(ledger.db, source, segment.seqs) : next.rows;
  // A reservation left by a crash is finished only if its rows are all still there and closed (a
  // refund may have started since): otherwise it is dropped and the next step reserves afresh.
  if (pending && closedCount(ledger.db, source, segment.seqs) !== segment.seqs.length) {
    dropSegment(ledger.db, segment.id);
    return NONE;
  }
  const body: Segment = { v: SEGMENT_VERSION, clientId: ledger.profile.clientId, kind: source.kind, rows };
  const written = JSON.stringify(rows);
  await ledger.env.ARCHIVE.put(segment.key, await gzipJson(body), {
    httpMetadata: { contentType: 'application/json', contentEncoding: 'gzip' },
    customMetadata: { rows: String(rows.length) },
  });
  await ledger.crashes.reach(source.crashPoint);
  // Their ids go to the registry before the rows leave, so every row is findable at every instant:
  // hot until the transaction below, registered from before it (archive-index.ts).
  await registerIds(
    ledger,
    segment.id,
    rows.flatMap((row) => source.ids(row)),
  );
  await ledger.crashes.reach('archive.ids-registered');
  return ledger.storage.transactionSync(() => {
    // A request may have changed a row while the put was in flight: drop the reservation; the
    // next step writes the rows as they are now (same key if the same rows, overwritten: not DONE).
    if (rows.length === 0 || JSON.stringify(rowsBySeq(ledger.db, source, segment.seqs)) !== written) {
      dropSegment(ledger.db, segment.id);
      return NONE;
    }
    deleteBySeq(ledger.db, source, segment.seqs);
    source.removed?.(ledger, rows);
    // Counted sources are transactions: their references stay taken (reference-filter.ts; a
    // Cash-Out's through the registry alone, registered above); their codes need nothing (unique by
    // construction, internal-codes.ts).
    if (source.counted && source.filtersReferences)
      addReferences(
        ledger.storage.sql,
        source.kind,
        segment.id,
        rows.map((r) => r.externalReference as string),
      );
    // An archived transaction's ended webhook deliveries follow it (archive-delivery-queue.ts).
    if (source.counted)
      enqueueAggregates(
        ledger.storage.sql,
        rows.map((r) => r.transactionId as string),
      );
    // The manifest again from the rows written (a reservation left by an older version has none).
    const fields = manifest(source, rows);
    if (fields.totals)
      addDayTotals(ledger.storage.sql, source.kind, utcDay(fields.firstTime), JSON.parse(fields.totals), 1);
    segmentDone(ledger.db, segment.id, fields);
    return { moved: rows.length, transactions: source.counted ? rows.length : 0 };
  });
}

/** Archives everything eligible before `before`, step after step (the admin endpoint); returns the transactions moved. */
export async function archiveAll(
  ledger: LedgerContext,
  before: number,
  concluded?: (after: { archivedTransactions: number }) => void,
): Promise<number> {
  let total = 0;
  for (;;) {
    const { moved, transactions } = await archiveStep(ledger, before);
    if (moved === 0) {
      // A dropped reservation (row changed mid-put) returns 0 too: retry while something is eligible.
      if (pendingSegment(ledger)) continue;
      if (archiveSources(ledger).some((source) => nextRows(ledger, source, before).length > 0)) continue;
      if (anyQueued(ledger.storage.sql)) continue;
      // Then the manifest of the days now closed leaves the object (archive-fold.ts).
      if (nextRun(ledger, before)) {
        await foldStep(ledger, before);
        continue;
      }
      // The run ends here: what concludes it (an operator's audit record) commits in its own
      // transaction, with nothing awaited since the check that found nothing left to move.
      if (concluded) ledger.storage.transactionSync(() => concluded({ archivedTransactions: total }));
      return total;
    }
    total += transactions;
  }
}

const DAY_MS = 86_400_000;
/** When a scheduled step moved nothing: look again a day later (at most one cheap query a day). */
const ARCHIVE_IDLE_MS = DAY_MS;
const ARCHIVE_AGAIN_MS = 1_000;

/** The oldest hot row of any source (when the next one can age out), or undefined when none is hot. */
function oldestHot(ledger: LedgerContext): number | undefined {
  let oldest: number | undefined;
  for (const source of archiveSources(ledger)) {
    if (source.nextRows) continue; // queued, not aged (deliveries)
    const at = oldestTime(ledger.db, source);
    if (at !== undefined && (oldest === undefined || at < oldest)) oldest = at;
  }
  return oldest;
}

/** Work that cannot wait for the next aging row: queued deliveries (now), a delivery segment expiring. */
function urgentAt(ledger: LedgerContext, now: number): number | undefined {
  return anyQueued(ledger.storage.sql) || earlyWork(ledger, now) ? now : nextExpiryAt(ledger.storage.sql);
}

/**
 * The hot window is bounded by size as well as age (docs/operating.md, Capacity planning): while the
 * object's live bytes, less the filters the archive keeps forever (their blobs: reference-filter.ts),
 * exceed its budget, every closed row is eligible, oldest first, down to the duplicate window (a
 * Cash-Out's twins are read hot). Open work never is (each source's `eligible`). Without leaving the
 * filters out, a filter grown past the budget would keep the window at 10 s for good.
 */
export function overBudget(ledger: LedgerContext): boolean {
  const sql = ledger.storage.sql;
  return sql.databaseSize - filterBytes(sql) > hotBudgetBytes(ledger.env);
}

/** The archive's cutoff at `now`: the retention, or the duplicate window while over budget. */
export function archiveCutoff(ledger: LedgerContext, now: number): number {
  return now - (overBudget(ledger) ? DUPLICATE_WINDOW_MS : retentionMs(ledger.env));
}

/**
 * Over budget with closed history to move: archiving cannot wait for the next aging row. Ended
 * webhook deliveries count too: over budget they go before their transaction (queued here).
 */
function earlyWork(ledger: LedgerContext, now: number): boolean {
  if (!overBudget(ledger)) return false;
  const before = archiveCutoff(ledger, now);
  if (transactionSources(ledger).some((source) => nextRows(ledger, source, before).length > 0)) return true;
  return ledger.storage.transactionSync(() => enqueueOldestEnded(ledger.storage.sql, EARLY_DELIVERIES) > 0);
}

/** Transactions whose ended deliveries are queued per early step: at most ARCHIVE_STEP_ROWS rows' worth. */
const EARLY_DELIVERIES = 100;

/** The first of: the oldest hot row aging out (not before `idle`), urgent work; undefined when none. */
function nextArchiveAt(ledger: LedgerContext, now: number, idle: number): number | undefined {
  const oldest = oldestHot(ledger);
  const ats = [
    oldest === undefined ? undefined : Math.max(idle, oldest + retentionMs(ledger.env)),
    urgentAt(ledger, now),
  ].filter((at): at is number => at !== undefined);
  return ats.length === 0 ? undefined : Math.max(now + ARCHIVE_AGAIN_MS, Math.min(...ats));
}

/**
 * After the alarm's tasks: an object with hot history or archived deliveries has an `archive:all`
 * task. An armed one is only pulled earlier for urgent work (a task that found nothing to archive
 * set itself a day later: the oldest hot row is not closed yet).
 */
export function armArchive(ledger: LedgerContext, now: number): void {
  const armed = ledger.scheduler.dueAt('archive', 'all');
  if (armed === undefined) {
    const at = nextArchiveAt(ledger, now, now);
    if (at !== undefined) ledger.scheduler.schedule('archive', 'all', at);
    return;
  }
  const urgent = urgentAt(ledger, now);
  if (urgent !== undefined && armed > Math.max(now + ARCHIVE_AGAIN_MS, urgent))
    ledger.scheduler.schedule('archive', 'all', Math.max(now + ARCHIVE_AGAIN_MS, urgent));
}

/**
 * The scheduled step (tasks.ts): one bounded step of rows and expired delivery segments (or, with no
 * row to move, one fold of a closed day's manifest: archive-fold.ts), then soon again,
 * or a day later while hot history waits to age, or when a delivery segment expires, or never.
 */
export async function runArchiveTask(ledger: LedgerContext): Promise<void> {
  const before = archiveCutoff(ledger, Date.now());
  if (overBudget(ledger))
    ledger.storage.transactionSync(() => enqueueOldestEnded(ledger.storage.sql, EARLY_DELIVERIES));
  const { moved } = await archiveStep(ledger, before);
  const expired = await expireDeliveries(ledger, Date.now());
  // A step with nothing to move folds a closed day's manifest instead, and comes back soon while one remains.
  const folded = moved === 0 ? await foldStep(ledger, before) : undefined;
  const now = Date.now();
  const at =
    moved > 0 || expired >= EXPIRE_STEP_SEGMENTS || folded !== undefined
      ? now + ARCHIVE_AGAIN_MS
      : nextArchiveAt(ledger, now, now + ARCHIVE_IDLE_MS);
  if (at !== undefined) ledger.scheduler.schedule('archive', 'all', at);
  else ledger.scheduler.cancel('archive', 'all');
}
