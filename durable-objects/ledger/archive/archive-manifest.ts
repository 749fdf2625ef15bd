/**
 * The manifest as every reader sees it: the loose rows of archive_segments (archive-store.ts) and the
 * runs closed days were folded into (archive-fold.ts), whose per-segment rows are a run's body in R2.
 * Each reader answers what it answered from the loose rows alone before folding, in the same order:
 * segments by id (a GET), a list's candidates in scan order, a summary edge day's segments.
 * Run bodies are immutable, so a decoded one is cached (RUN_CACHE per isolate, keyed by its R2 key).
 */
import type { Position } from '../../../src/domain/pagination';
import type { LedgerContext } from '../ledger-context';
import { nextRunDay, type RunRow, runHolding, runKey, runsOfDay } from './archive-runs-store';
import { DAY_MS, dayStart, gunzipJson, type SegmentMeta } from './archive-segments';
import { staleInRange, staleSeqs } from './archive-stale-store';
import {
  CANDIDATE_CHUNK,
  candidateSegments,
  type LooseRow,
  segmentsAmong,
  segmentsOfDay,
} from './archive-store';

/** A run body's format (archive-fold.ts writes it; docs/storage-schema.md, "Archive (R2)"). */
export const RUN_VERSION = 1;

/** One segment in a run's body: [id, key, firstTime, firstSeq, lastTime, lastSeq, count, totals]. */
export type RunEntry = [number, string, number, number, number, number, number, string | null];

export interface RunBody {
  v: typeof RUN_VERSION;
  clientId: string;
  kind: string;
  day: string;
  segments: RunEntry[];
}

export const runEntry = (s: LooseRow): RunEntry => [
  s.id,
  s.key,
  s.firstTime,
  s.firstSeq,
  s.lastTime,
  s.lastSeq,
  s.count,
  s.totals,
];

const cache = new Map<string, LooseRow[]>();
const RUN_CACHE = 8;

/** Forgets the decoded run bodies (a test counting a cold read's R2 gets). */
export const forgetRuns = () => cache.clear();

/** The segments a run holds, by id (one R2 read unless cached). */
export async function runSegments(ledger: LedgerContext, run: RunRow): Promise<LooseRow[]> {
  const key = runKey(ledger.profile.clientId, run);
  const hit = cache.get(key);
  if (hit) return hit;
  const object = await ledger.env.ARCHIVE.get(key);
  // A run in the object whose body is gone is a broken archive, never "nothing archived".
  if (!object) throw new Error(`archive manifest run missing: ${key}`);
  const body = await gunzipJson<RunBody>(object.body);
  if (body.v !== RUN_VERSION)
    throw new Error(`archive manifest run format v${String(body.v)} is not v${RUN_VERSION}`);
  const rows = body.segments.map(([id, key, firstTime, firstSeq, lastTime, lastSeq, count, totals]) => ({
    id,
    key,
    firstTime,
    firstSeq,
    lastTime,
    lastSeq,
    count,
    totals,
  }));
  cache.set(key, rows);
  if (cache.size > RUN_CACHE) cache.delete(cache.keys().next().value as string);
  return rows;
}

/**
 * Of the segment ids a registry named, those of `kind` in the manifest (DONE only when `done`: every
 * folded one is), newest first: loose rows first, then each other id in the run of its kind whose
 * range holds it (one R2 read per run, none when cached). Both are read in one synchronous block, so
 * a fold meanwhile cannot hide a segment; an id neither holds (a dropped reservation's) names nothing.
 */
export async function manifestSegments(
  ledger: LedgerContext,
  ids: number[],
  kind: string,
  done: boolean,
): Promise<{ id: number; key: string }[]> {
  const sql = ledger.storage.sql;
  const out = segmentsAmong(sql, ids, kind, done);
  const loose = new Set(out.map((s) => s.id));
  const runs = new Map<number, { run: RunRow; ids: Set<number> }>();
  for (const id of ids) {
    if (loose.has(id)) continue;
    const run = runHolding(sql, kind, id);
    if (!run) continue;
    const entry = runs.get(run.minId) ?? { run, ids: new Set<number>() };
    entry.ids.add(id);
    runs.set(run.minId, entry);
  }
  for (const { run, ids: held } of runs.values())
    for (const s of await runSegments(ledger, run)) if (held.has(s.id)) out.push({ id: s.id, key: s.key });
  return out.sort((a, b) => b.id - a.id);
}

type Scan = 'ASC' | 'DESC';

/** The candidates' order and filter in memory, as candidateSegments states them in SQL. */
function candidateRule(
  scan: Scan,
  from: number,
  to: number,
  position: Position | undefined,
  after: SegmentMeta | undefined,
) {
  const lex = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
    return 0;
  };
  if (scan === 'ASC') {
    const low = dayStart(Math.max(from, position?.time ?? from));
    return {
      order: (a: SegmentMeta, b: SegmentMeta) =>
        lex([a.firstTime, a.firstSeq, a.id], [b.firstTime, b.firstSeq, b.id]),
      keep: (s: SegmentMeta) =>
        s.firstTime >= low &&
        s.firstTime <= to &&
        s.lastTime >= from &&
        (!position || lex([s.lastTime, s.lastSeq], [position.time, position.seq]) > 0) &&
        (!after || lex([s.firstTime, s.firstSeq, s.id], [after.firstTime, after.firstSeq, after.id]) > 0),
      dayOf: (s: SegmentMeta) => dayStart(s.firstTime),
      first: Math.max(low, after ? dayStart(after.firstTime) : low),
      bound: to,
    };
  }
  const high = dayStart(Math.min(to, position?.time ?? to));
  return {
    order: (a: SegmentMeta, b: SegmentMeta) =>
      lex([b.lastTime, b.lastSeq, b.id], [a.lastTime, a.lastSeq, a.id]),
    keep: (s: SegmentMeta) =>
      s.lastTime <= high + DAY_MS - 1 &&
      s.lastTime >= from &&
      s.firstTime <= to &&
      (!position || lex([s.firstTime, s.firstSeq], [position.time, position.seq]) < 0) &&
      (!after || lex([s.lastTime, s.lastSeq, s.id], [after.lastTime, after.lastSeq, after.id]) < 0),
    dayOf: (s: SegmentMeta) => dayStart(s.lastTime),
    first: Math.min(high, after ? dayStart(after.lastTime) : high),
    bound: dayStart(from),
  };
}

/**
 * The next segments of `kind` a list page may need, at most CANDIDATE_CHUNK (archive-store.ts
 * candidateSegments' rule and order), loose and folded together. Every segment lies in one UTC day,
 * so a day's segments all come before the next day's in scan order: runs are read day by day, only up
 * to the day of the chunk's last loose row, and stop at the first day that gives a candidate; then
 * the chunk ends with that day (a shorter chunk: the next one starts after it), so a page reads one
 * day's runs at a time, as it needs them, and none of a day wholly past its last wanted row once
 * full. A fold between two of those reads can show a segment both loose and in its run (kept once),
 * never hide one the chunk needs.
 */
export async function candidates(
  ledger: LedgerContext,
  kind: string,
  scan: Scan,
  from: number,
  to: number,
  position: Position | undefined,
  after: SegmentMeta | undefined,
  full?: { time: number },
): Promise<SegmentMeta[]> {
  const sql = ledger.storage.sql;
  const loose = candidateSegments(sql, kind, scan, from, to, position, after);
  const rule = candidateRule(scan, from, to, position, after);
  const lastLoose = loose.length === CANDIDATE_CHUNK ? loose.at(-1) : undefined;
  const stop = lastLoose && rule.dayOf(lastLoose);
  const beyond = (a: number, b: number) => (scan === 'ASC' ? a > b : a < b);
  const folded: SegmentMeta[] = [];
  let last: number | undefined;
  for (let day = rule.first; folded.length === 0; day += scan === 'ASC' ? DAY_MS : -DAY_MS) {
    const next = nextRunDay(sql, kind, scan, day, rule.bound, from, to);
    // A day wholly past the page's last wanted row (`full`) cannot add to it: nor can what follows.
    const past =
      full !== undefined &&
      (scan === 'ASC'
        ? next !== undefined && next > full.time
        : next !== undefined && next + DAY_MS <= full.time);
    if (next === undefined || past || (stop !== undefined && beyond(next, stop))) {
      last = undefined;
      break;
    }
    for (const run of runsOfDay(sql, kind, next))
      for (const s of await runSegments(ledger, run)) if (rule.keep(s)) folded.push(s);
    [last, day] = [next, next];
  }
  const byId = new Map([...loose, ...folded].map((s) => [s.id, s]));
  const merged = [...byId.values()].sort(rule.order);
  // Runs of later days are unread: the chunk ends with the last day read.
  const known = last === undefined ? merged : merged.filter((s) => !beyond(rule.dayOf(s), last));
  return known.slice(0, CANDIDATE_CHUNK);
}

/** A summary edge day's segment: its manifest, totals and the seqs a rehydration made stale. */
export interface DaySegment extends SegmentMeta {
  totals: string | null;
  stale: Set<number>;
}

/**
 * The segments of `kind` on the UTC days starting at `starts` (a summary's edge days), loose and
 * folded. The object-side manifest (loose rows, the list of runs, stale marks) is read before the
 * first await, so a segment written meanwhile (its rows counted hot by the caller) is never counted
 * twice; run bodies are immutable, so reading them after is safe.
 */
export async function segmentsOfDays(
  ledger: LedgerContext,
  kind: string,
  starts: number[],
): Promise<DaySegment[]> {
  const sql = ledger.storage.sql;
  const out: DaySegment[] = [];
  const runs: { run: RunRow; stale: Map<number, Set<number>> }[] = [];
  for (const start of starts) {
    for (const s of segmentsOfDay(sql, kind, start)) out.push({ ...s, stale: staleSeqs(sql, s.id) });
    for (const run of runsOfDay(sql, kind, start))
      runs.push({ run, stale: staleInRange(sql, run.minId, run.maxId) });
  }
  for (const { run, stale } of runs)
    for (const s of await runSegments(ledger, run)) out.push({ ...s, stale: stale.get(s.id) ?? new Set() });
  return out;
}
