/**
 * Summaries across the archive without scanning it: every segment written adds its rows to running
 * totals per (kind, UTC day, status, settling bank) in the archive store (and keeps its own totals in
 * the manifest); a rehydration takes its row back out. A summary adds whole days from those totals,
 * and on a period's partial edge days the segments' own totals (opening only a segment that straddles
 * the edge or lost a row to a rehydration). Cost grows with the period's days, never with history.
 */
import type { SettlementRow, StatusRow } from '../../../src/domain/summary';
import type { LedgerContext } from '../ledger-context';
import { segmentsOfDays } from './archive-manifest';
import { DAY_MS, dayStart, utcDay } from './archive-segments';
import type { ArchiveSource, Counted } from './archive-sources';
import { type TotalRow, totalsOfDays } from './archive-totals-store';

export function totalsOf(counted: Counted[]): TotalRow[] {
  const byKey = new Map<string, TotalRow>();
  for (const c of counted) {
    const key = `${c.status}\u0000${c.ispb ?? ''}`;
    const row = byKey.get(key) ?? [c.status, c.ispb ?? '', c.bank, 0, 0];
    row[3] += 1;
    row[4] += c.amount;
    byKey.set(key, row);
  }
  return [...byKey.values()];
}

/** A segment's manifest fields: its (time, seq) range in list order, count and summary totals. */
export function manifest(source: ArchiveSource, rows: (Record<string, unknown> & { seq: number })[]) {
  const byKey = [...rows].sort((a, b) => source.timeOf(a) - source.timeOf(b) || a.seq - b.seq);
  const [lo, hi] = [
    byKey[0] as Record<string, unknown> & { seq: number },
    byKey.at(-1) as Record<string, unknown> & { seq: number },
  ];
  const counted = source.counted;
  const totals = counted ? totalsOf(rows.map((r) => counted(r))) : null;
  return {
    firstTime: source.timeOf(lo),
    firstSeq: lo.seq,
    lastTime: source.timeOf(hi),
    lastSeq: hi.seq,
    count: rows.length,
    totals: totals ? JSON.stringify(totals) : null,
  };
}

type ReadSegment = (key: string) => Promise<Record<string, unknown>[]>;

/** Archived totals of the rows of `source` whose time lies in [from, to]. */
export async function archivedTotals(
  ledger: LedgerContext,
  source: ArchiveSource,
  from: number,
  to: number,
  read: ReadSegment,
): Promise<TotalRow[]> {
  const out: TotalRow[] = [];
  const counted = source.counted;
  if (from > to || !counted) return out;
  const covered = (start: number) => start >= from && start + DAY_MS - 1 <= to;
  const firstFull = covered(dayStart(from)) ? dayStart(from) : dayStart(from) + DAY_MS;
  const lastFull = covered(dayStart(to)) ? dayStart(to) : dayStart(to) - DAY_MS;
  const sql = ledger.storage.sql;
  if (firstFull <= lastFull) out.push(...totalsOfDays(sql, source.kind, utcDay(firstFull), utcDay(lastFull)));
  const edges = new Set([dayStart(from), dayStart(to)].filter((d) => !covered(d)));
  // Every object-side manifest read (loose rows, the list of runs, stale marks) before the first
  // await: the caller's hot aggregates are of this same instant, so a segment written meanwhile (its
  // rows counted hot) is never counted twice; run bodies, read after, are immutable.
  const toOpen: { key: string; stale: Set<number> }[] = [];
  for (const s of await segmentsOfDays(ledger, source.kind, [...edges])) {
    if (s.lastTime < from || s.firstTime > to) continue;
    if (s.firstTime >= from && s.lastTime <= to && s.stale.size === 0 && s.totals)
      out.push(...(JSON.parse(s.totals) as TotalRow[]));
    else toOpen.push({ key: s.key, stale: s.stale });
  }
  for (const { key, stale } of toOpen) {
    const rows = (await read(key)).filter((row) => {
      const t = source.timeOf(row);
      return t >= from && t <= to && !stale.has(row.seq as number);
    });
    out.push(...totalsOf(rows.map((row) => counted(row))));
  }
  return out;
}

/** Hot aggregates plus archived totals, in the order the hot query alone gives (by status, by ispb). */
export function mergeTotals(
  hot: { byStatus: StatusRow[]; settlement: SettlementRow[] },
  archived: TotalRow[],
  settledStatus: string,
): { byStatus: StatusRow[]; settlement: SettlementRow[] } {
  if (archived.length === 0) return hot;
  const byStatus = new Map(hot.byStatus.map((r) => [r.status, { ...r }]));
  const settlement = new Map(hot.settlement.map((r) => [r.ispb ?? '', { ...r }]));
  for (const [status, ispb, bank, count, amount] of archived) {
    const s = byStatus.get(status) ?? { status, count: 0, amount: 0 };
    s.count += count;
    s.amount += amount;
    byStatus.set(status, s);
    if (status !== settledStatus) continue;
    const b = settlement.get(ispb) ?? {
      ispb: (ispb || null) as string,
      bank: bank as string,
      count: 0,
      amount: 0,
    };
    b.count += count;
    b.amount += amount;
    settlement.set(ispb, b);
  }
  const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    byStatus: [...byStatus.values()].sort((a, b) => binary(a.status, b.status)),
    settlement: [...settlement.values()].sort((a, b) => binary(a.ispb ?? '', b.ispb ?? '')),
  };
}
