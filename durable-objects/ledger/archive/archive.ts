/**
 * Closed history moves from the object to R2 (docs/storage-schema.md, "Archive"), one source at a
 * time (archive-sources.ts: Cash-Ins, then the rest).
 *
 * A step takes at most ARCHIVE_BATCH eligible rows of one source and one UTC day (by list time), and
 * writes them as one immutable gzip segment `<clientId>/<kind>/<day>/<first>-<last>.json.gz`.
 * Crash safety: the key and the seqs are reserved (WRITING) in the object before the put; the rows'
 * ids are registered (archive-index.ts) after it; deleting the rows, writing their totals and
 * marking the segment DONE are one SQLite transaction after that. A crash in between leaves the rows hot and the reservation: the next step
 * re-puts the same key from the same rows and finishes. Nothing is lost (rows go only with their
 * manifest) and nothing is doubled (a row is read hot or from a DONE segment; WRITING is never read).
 */
import { retentionMs } from '../../../src/config';
import {
  type ArchivableRow,
  closedCount,
  deleteBySeq,
  eligibleRows,
  oldestTime,
  rowsBySeq,
} from '../archivable';
import type { LedgerContext } from '../context';
import { backfillManifest } from './archive-backfill';
import { EXPIRE_BATCH, expireDeliveries, nextExpiryAt } from './archive-deliveries';
import { deliverySource, enqueueAggregates } from './archive-delivery-queue';
import { indexIds, registerIds } from './archive-index';
import { gzipJson, SEGMENT_VERSION, type Segment, utcDay } from './archive-segments';
import { type ArchiveSource, archiveSources as transactionSources } from './archive-sources';
import {
  addDayTotals,
  anyQueued,
  dropSegment,
  reserveSegment,
  segmentDone,
  segmentKeyTaken,
  writingSegment,
} from './archive-store';
import { manifest } from './archive-totals';

/** Rows per step and segment: one put and one SQLite transaction of bounded size. */
export const ARCHIVE_BATCH = 200;
type Row = ArchivableRow;

/** Every source of this object, in the order a step tries them: deliveries follow their transactions. */
const archiveSources = (ctx: LedgerContext) => [...transactionSources(ctx), deliverySource];

function sourceOf(ctx: LedgerContext, kind: string): ArchiveSource {
  const source = archiveSources(ctx).find((s) => s.kind === kind);
  if (!source) throw new Error(`unknown archive kind ${kind}`);
  return source;
}

/** The next batch: eligible rows of the oldest day, walked along the source's (time, seq) index. */
function nextBatch(ctx: LedgerContext, source: ArchiveSource, before: number): Row[] {
  if (source.nextBatch) return source.nextBatch(ctx);
  const rows = eligibleRows(ctx.db, source, before, ARCHIVE_BATCH);
  const head = rows[0];
  if (!head) return [];
  const first = utcDay(source.timeOf(head));
  return rows.filter((r) => utcDay(source.timeOf(r)) === first).sort((a, b) => a.seq - b.seq);
}

/**
 * One archiving step: finishes a reserved segment if a crash left one, else reserves and writes the
 * next batch of the first source that has one. Returns how many rows left the object (0 = nothing
 * eligible before `before`).
 */
export function archiveStep(ctx: LedgerContext, before: number): Promise<Moved> {
  // One step at a time per object: the alarm's task and the admin call would otherwise reserve the
  // same rows across the put's await.
  const previous = running.get(ctx.storage) ?? Promise.resolve(NONE);
  const step = previous.catch(() => NONE).then(() => archiveStepNow(ctx, before));
  running.set(ctx.storage, step);
  return step;
}

const running = new WeakMap<DurableObjectStorage, Promise<Moved>>();

const pendingSegment = (ctx: LedgerContext) => writingSegment(ctx.db);

/** Reserves the next batch of the first source that has one. */
function reserve(ctx: LedgerContext, before: number) {
  for (const source of archiveSources(ctx)) {
    const rows = nextBatch(ctx, source, before);
    const [head, last] = [rows[0], rows.at(-1)];
    if (!head || !last) continue;
    const day = utcDay(source.timeOf(head));
    const base = `${ctx.profile.clientId}/${source.kind.replace(':', '/')}/${day}/${head.seq}-${last.seq}`;
    // A rehydrated row archived again alone would reuse its old one-row segment's key: never overwrite.
    let key = `${base}.json.gz`;
    for (let n = 2; segmentKeyTaken(ctx.storage.sql, key); n++) key = `${base}.${n}.json.gz`;
    const seqs = rows.map((r) => r.seq);
    const reserved = reserveSegment(ctx.db, { key, seqs, kind: source.kind, ...manifest(source, rows) });
    return { segment: { id: reserved.id, key, seqs, kind: source.kind }, rows, source };
  }
  return undefined;
}

/** Rows that left the object in a step, and how many of them were transactions (not ledger entries). */
export interface Moved {
  moved: number;
  transactions: number;
}

const NONE: Moved = { moved: 0, transactions: 0 };

async function archiveStepNow(ctx: LedgerContext, before: number): Promise<Moved> {
  await backfillManifest(ctx);
  const pending = pendingSegment(ctx);
  const next = pending
    ? {
        segment: { id: pending.id, key: pending.key, seqs: pending.seqs ?? [], kind: pending.kind },
        source: sourceOf(ctx, pending.kind),
        rows: [] as Row[],
      }
    : reserve(ctx, before);
  if (!next) return NONE;
  const { segment, source } = next;
  const rows = pending ? rowsBySeq(ctx.db, source, segment.seqs) : next.rows;
  // A reservation left by a crash is finished only if its rows are all still there and closed (a
  // refund may have started since): otherwise it is dropped and the next step reserves afresh.
  if (pending && closedCount(ctx.db, source, segment.seqs) !== segment.seqs.length) {
    dropSegment(ctx.db, segment.id);
    return NONE;
  }
  const body: Segment = { v: SEGMENT_VERSION, clientId: ctx.profile.clientId, kind: source.kind, rows };
  const written = JSON.stringify(rows);
  await ctx.env.ARCHIVE.put(segment.key, await gzipJson(body), {
    httpMetadata: { contentType: 'application/json', contentEncoding: 'gzip' },
    customMetadata: { rows: String(rows.length) },
  });
  await ctx.crashes.reach(source.crashPoint);
  // Their ids go to the registry before the rows leave, so every row is findable at every instant:
  // hot until the transaction below, registered from before it (archive-index.ts).
  if (source.idIndex !== 'deliveries') {
    await registerIds(
      ctx,
      segment.id,
      rows.flatMap((row) => source.ids(row)),
    );
    await ctx.crashes.reach('archive.ids-registered');
  }
  return ctx.storage.transactionSync(() => {
    // A request may have changed a row while the put was in flight: drop the reservation; the
    // next step writes the rows as they are now (same key if the same rows, overwritten: not DONE).
    if (rows.length === 0 || JSON.stringify(rowsBySeq(ctx.db, source, segment.seqs)) !== written) {
      dropSegment(ctx.db, segment.id);
      return NONE;
    }
    deleteBySeq(ctx.db, source, segment.seqs);
    if (source.idIndex === 'deliveries')
      for (const row of rows) indexIds(ctx.storage.sql, segment.id, source.ids(row), 'deliveries');
    source.removed?.(ctx, rows);
    // An archived transaction's ended webhook deliveries follow it (archive-delivery-queue.ts).
    if (source.counted)
      enqueueAggregates(
        ctx.storage.sql,
        rows.map((r) => r.transactionId as string),
      );
    // The manifest again from the rows written (a reservation left by an older version has none).
    const fields = manifest(source, rows);
    if (fields.totals)
      addDayTotals(ctx.storage.sql, source.kind, utcDay(fields.firstTime), JSON.parse(fields.totals), 1);
    segmentDone(ctx.db, segment.id, fields);
    return { moved: rows.length, transactions: source.counted ? rows.length : 0 };
  });
}

/** Archives everything eligible before `before`, step after step (the admin endpoint); returns the transactions moved. */
export async function archiveAll(
  ctx: LedgerContext,
  before: number,
  concluded?: (after: { archivedTransactions: number }) => void,
): Promise<number> {
  let total = 0;
  for (;;) {
    const { moved, transactions } = await archiveStep(ctx, before);
    if (moved === 0) {
      // A dropped reservation (row changed mid-put) returns 0 too: retry while something is eligible.
      if (pendingSegment(ctx)) continue;
      if (archiveSources(ctx).some((source) => nextBatch(ctx, source, before).length > 0)) continue;
      if (anyQueued(ctx.storage.sql)) continue;
      // The run ends here: what concludes it (an operator's audit record) commits in its own
      // transaction, with nothing awaited since the check that found nothing left to move.
      if (concluded) ctx.storage.transactionSync(() => concluded({ archivedTransactions: total }));
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
function oldestHot(ctx: LedgerContext): number | undefined {
  let oldest: number | undefined;
  for (const source of archiveSources(ctx)) {
    if (source.nextBatch) continue; // queued, not aged (deliveries)
    const at = oldestTime(ctx.db, source);
    if (at !== undefined && (oldest === undefined || at < oldest)) oldest = at;
  }
  return oldest;
}

/** Work that cannot wait for the next aging row: queued deliveries (now), a delivery segment expiring. */
function urgentAt(ctx: LedgerContext, now: number): number | undefined {
  return anyQueued(ctx.storage.sql) ? now : nextExpiryAt(ctx.storage.sql);
}

/** The first of: the oldest hot row aging out (not before `idle`), urgent work; undefined when none. */
function nextArchiveAt(ctx: LedgerContext, now: number, idle: number): number | undefined {
  const oldest = oldestHot(ctx);
  const ats = [
    oldest === undefined ? undefined : Math.max(idle, oldest + retentionMs(ctx.env)),
    urgentAt(ctx, now),
  ].filter((at): at is number => at !== undefined);
  return ats.length === 0 ? undefined : Math.max(now + ARCHIVE_AGAIN_MS, Math.min(...ats));
}

/**
 * After the alarm's tasks: an object with hot history or archived deliveries has an `archive:all`
 * task. An armed one is only pulled earlier for urgent work (a task that found nothing to archive
 * set itself a day later: the oldest hot row is not closed yet).
 */
export function armArchive(ctx: LedgerContext, now: number): void {
  const armed = ctx.scheduler.dueAt('archive', 'all');
  if (armed === undefined) {
    const at = nextArchiveAt(ctx, now, now);
    if (at !== undefined) ctx.scheduler.schedule('archive', 'all', at);
    return;
  }
  const urgent = urgentAt(ctx, now);
  if (urgent !== undefined && armed > Math.max(now + ARCHIVE_AGAIN_MS, urgent))
    ctx.scheduler.schedule('archive', 'all', Math.max(now + ARCHIVE_AGAIN_MS, urgent));
}

/**
 * The scheduled step (tasks.ts): one bounded batch and expired delivery segments, then soon again,
 * or a day later while hot history waits to age, or when a delivery segment expires, or never.
 */
export async function runArchiveTask(ctx: LedgerContext): Promise<void> {
  const { moved } = await archiveStep(ctx, Date.now() - retentionMs(ctx.env));
  const expired = await expireDeliveries(ctx, Date.now());
  const now = Date.now();
  const at =
    moved > 0 || expired >= EXPIRE_BATCH
      ? now + ARCHIVE_AGAIN_MS
      : nextArchiveAt(ctx, now, now + ARCHIVE_IDLE_MS);
  if (at !== undefined) ctx.scheduler.schedule('archive', 'all', at);
  else ctx.scheduler.cancel('archive', 'all');
}
