/**
 * Closed Cash-Ins move from the object to R2 (docs/storage-schema.md, "Archive").
 *
 * A step takes at most ARCHIVE_BATCH closed Cash-Ins of one UTC day (by requestedAt) settled before
 * `before`, and writes them as one immutable gzip segment `<clientId>/cash-in/<day>/<first>-<last>.json.gz`.
 * Crash safety: the key and the seqs are reserved (WRITING) in the object before the put; deleting the
 * rows, writing their index entries and marking the segment DONE are one SQLite transaction after it.
 * A crash in between leaves the rows hot and the reservation: the next step re-puts the same key from
 * the same rows and finishes. Nothing is lost (rows go only with their index) and nothing is doubled
 * (an id is served by the hot row or by a DONE segment; a WRITING segment is never read).
 *
 * Ledger entries stay hot for now: statements and balances read them as before.
 */
import { inArray, sql } from 'drizzle-orm';
import { isArchiveEnabled, retentionMs } from '../../src/config';
import { indexRows } from './archive-index';
import type { CashInRow } from './cash-in-store';
import type { LedgerContext } from './context';
import { archiveSegments, cashIns } from './schema';

/** Transactions per step and segment: one put and one SQLite transaction of bounded size. */
export const ARCHIVE_BATCH = 200;
/** Bound values per IN (…): a Durable Object query takes at most 100. */
const IN_CHUNK = 90;

export interface Segment {
  v: 1;
  clientId: string;
  cashIns: CashInRow[];
}

/** The instant a closed Cash-In stopped changing, or null while it still may (not eligible). */
const settledAt = sql`CASE
  WHEN ${cashIns.status} = 'PAID' AND ${cashIns.refundState} IN ('NONE', 'FAILED') AND ${cashIns.endToEndId} IS NOT NULL THEN ${cashIns.paidAt}
  WHEN ${cashIns.status} = 'REFUNDED' AND ${cashIns.refundState} = 'DONE' THEN ${cashIns.refundedAt}
  WHEN ${cashIns.status} = 'CANCELLED' THEN ${cashIns.cancelledAt}
  WHEN ${cashIns.status} = 'EXPIRED' THEN ${cashIns.expiresAt}
  ELSE NULL END`;

function rowsBySeq(ctx: LedgerContext, seqs: number[]): CashInRow[] {
  const rows: CashInRow[] = [];
  for (let i = 0; i < seqs.length; i += IN_CHUNK)
    rows.push(
      ...ctx.db
        .select()
        .from(cashIns)
        .where(inArray(cashIns.seq, seqs.slice(i, i + IN_CHUNK)))
        .all(),
    );
  return rows.sort((a, b) => a.seq - b.seq);
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The next batch: eligible rows of the oldest day, walked along cash_ins_requested_idx. */
function nextBatch(ctx: LedgerContext, before: number): CashInRow[] {
  const rows = ctx.db
    .select()
    .from(cashIns)
    .where(sql`${cashIns.requestedAt} < ${before} AND ${settledAt} < ${before}`)
    .orderBy(cashIns.requestedAt, cashIns.seq)
    .limit(ARCHIVE_BATCH)
    .all();
  const head = rows[0];
  if (!head) return [];
  const first = day(head.requestedAt);
  return rows.filter((r) => day(r.requestedAt) === first).sort((a, b) => a.seq - b.seq);
}

export async function gzipJson(value: unknown): Promise<ArrayBuffer> {
  const stream = new Blob([JSON.stringify(value)]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

export async function gunzipJson<T>(body: ReadableStream): Promise<T> {
  return (await new Response(body.pipeThrough(new DecompressionStream('gzip'))).json()) as T;
}

/**
 * One archiving step: finishes a reserved segment if a crash left one, else reserves and writes the
 * next. Returns how many transactions left the object (0 = nothing eligible before `before`).
 */
export function archiveStep(ctx: LedgerContext, before: number): Promise<number> {
  // One step at a time per object: the alarm's task and the admin call would otherwise reserve the
  // same rows across the put's await.
  const previous = running.get(ctx.storage) ?? Promise.resolve(0);
  const step = previous.catch(() => 0).then(() => archiveStepNow(ctx, before));
  running.set(ctx.storage, step);
  return step;
}

const running = new WeakMap<DurableObjectStorage, Promise<number>>();

async function archiveStepNow(ctx: LedgerContext, before: number): Promise<number> {
  const pending = ctx.db
    .select()
    .from(archiveSegments)
    .where(sql`${archiveSegments.state} = 'WRITING'`)
    .get();
  let segment: { id: number; key: string; seqs: number[] };
  let rows: CashInRow[];
  if (pending) {
    segment = { id: pending.id, key: pending.key, seqs: pending.seqs ?? [] };
    rows = rowsBySeq(ctx, segment.seqs);
  } else {
    rows = nextBatch(ctx, before);
    const [head, last] = [rows[0], rows.at(-1)];
    if (!head || !last) return 0;
    const key = `${ctx.profile.clientId}/cash-in/${day(head.requestedAt)}/${head.seq}-${last.seq}.json.gz`;
    const seqs = rows.map((r) => r.seq);
    const reserved = ctx.db.insert(archiveSegments).values({ key, state: 'WRITING', seqs }).returning().get();
    segment = { id: reserved.id, key, seqs };
  }
  const body: Segment = { v: 1, clientId: ctx.profile.clientId, cashIns: rows };
  const written = JSON.stringify(rows);
  await ctx.env.ARCHIVE.put(segment.key, await gzipJson(body), {
    httpMetadata: { contentType: 'application/json', contentEncoding: 'gzip' },
    customMetadata: { transactions: String(rows.length) },
  });
  await ctx.crashes.reach('archive.segment-written');
  return ctx.storage.transactionSync(() => {
    // A request may have changed a row while the put was in flight: drop the reservation; the
    // next step writes the rows as they are now (same key if the same rows, overwritten: not DONE).
    if (JSON.stringify(rowsBySeq(ctx, segment.seqs)) !== written) {
      ctx.db.delete(archiveSegments).where(sql`${archiveSegments.id} = ${segment.id}`).run();
      return 0;
    }
    for (let i = 0; i < segment.seqs.length; i += IN_CHUNK)
      ctx.db
        .delete(cashIns)
        .where(inArray(cashIns.seq, segment.seqs.slice(i, i + IN_CHUNK)))
        .run();
    indexRows(ctx.storage.sql, segment.id, rows);
    ctx.db
      .update(archiveSegments)
      .set({ state: 'DONE', seqs: null })
      .where(sql`${archiveSegments.id} = ${segment.id}`)
      .run();
    return rows.length;
  });
}

/** Archives everything eligible before `before`, step after step (the admin endpoint). */
export async function archiveAll(ctx: LedgerContext, before: number): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await archiveStep(ctx, before);
    if (moved === 0) {
      // A dropped reservation (row changed mid-put) returns 0 too: retry while something is eligible.
      if (
        ctx.db
          .select({ id: archiveSegments.id })
          .from(archiveSegments)
          .where(sql`${archiveSegments.state} = 'WRITING'`)
          .get()
      )
        continue;
      if (nextBatch(ctx, before).length > 0) continue;
      return total;
    }
    total += moved;
  }
}

const DAY_MS = 86_400_000;
/** When a scheduled step moved nothing: look again a day later (at most one cheap query a day). */
const ARCHIVE_IDLE_MS = DAY_MS;
const ARCHIVE_AGAIN_MS = 1_000;

function oldestHot(ctx: LedgerContext): number | undefined {
  return ctx.db
    .select({ at: cashIns.requestedAt })
    .from(cashIns)
    .orderBy(cashIns.requestedAt, cashIns.seq)
    .limit(1)
    .get()?.at;
}

/** After the alarm's tasks: an object with hot Cash-Ins has an `archive:all` task (when the oldest ages out). */
export function armArchive(ctx: LedgerContext, now: number): void {
  if (!isArchiveEnabled(ctx.env)) return;
  const armed = ctx.storage.sql.exec("SELECT 1 FROM tasks WHERE id = 'archive:all'").toArray().length > 0;
  if (armed) return;
  const oldest = oldestHot(ctx);
  if (oldest === undefined) return;
  ctx.scheduler.schedule('archive', 'all', Math.max(now + ARCHIVE_AGAIN_MS, oldest + retentionMs(ctx.env)));
}

/** The scheduled step (tasks.ts): one bounded batch, then soon again, or a day later, or never. */
export async function runArchiveTask(ctx: LedgerContext): Promise<void> {
  if (!isArchiveEnabled(ctx.env)) {
    ctx.scheduler.cancel('archive', 'all');
    return;
  }
  const moved = await archiveStep(ctx, Date.now() - retentionMs(ctx.env));
  const now = Date.now();
  if (moved > 0) ctx.scheduler.schedule('archive', 'all', now + ARCHIVE_AGAIN_MS);
  else if (oldestHot(ctx) !== undefined) ctx.scheduler.schedule('archive', 'all', now + ARCHIVE_IDLE_MS);
  else ctx.scheduler.cancel('archive', 'all');
}
