// Per-window traffic of each settlement partner and payer/payee institution, kept for the operator
// console's plots. The engine keeps only what it needs to judge (EW baselines), while an operator wants
// the raw counts of the last day; those counts are read from the engine's own cells as each window
// closes (and from the open window's cells while it is open), so a plot and an incident cannot
// disagree about what a window held.

import type { Operation } from '../types';
import type { Counts } from '../windows/counts';
import { OPS, type OpIndex, type Partner } from '../windows/state';

export type SeriesKind = 'partner' | 'institution';

/** What one entity did in one 5-minute window for one operation. */
export interface SeriesPoint {
  window: number;
  kind: SeriesKind;
  id: string;
  operation: Operation;
  created: number;
  settled: number;
  failed: number;
  expired: number;
  returned: number;
}

/** The console shows 24 h; two days leave room for a slow page and a late alarm. */
export const SERIES_RETENTION_MS = 48 * 60 * 60 * 1000;

function point(window: number, kind: SeriesKind, id: string, operation: Operation): SeriesPoint {
  return { window, kind, id, operation, created: 0, settled: 0, failed: 0, expired: 0, returned: 0 };
}

function addCounts(p: SeriesPoint, c: Counts, created = c.created): void {
  p.created += created;
  p.settled += c.settled;
  p.failed += c.failed;
  p.expired += c.expired;
  p.returned += c.returned;
}

/**
 * One window's points, read from the analyzer's cells (what it judged, late observations included in the
 * window that counted them): every partner with traffic, and every known institution.
 */
export function cellSeries(
  partners: ReadonlyMap<string, Partner>,
  op: OpIndex,
  window: number,
): SeriesPoint[] {
  const operation = OPS[op];
  const out: SeriesPoint[] = [];
  const institutions = new Map<string, SeriesPoint>();
  for (const [partnerIspb, partner] of partners) {
    const total = point(window, 'partner', partnerIspb, operation);
    for (const [ispb, cell] of partner.inst) {
      const c = cell.acc[op];
      if (c.created + c.settled + c.failed + c.expired + c.returned === 0) continue;
      addCounts(total, c);
      if (ispb === '') continue;
      let inst = institutions.get(ispb);
      if (!inst) {
        inst = point(window, 'institution', ispb, operation);
        institutions.set(ispb, inst);
      }
      // A bank is usually learned only at the outcome (a Cash-Out to a PIX key learns the payee's
      // bank when it settles), so its volume counts each transaction once, at its outcome;
      // otherwise a payee bank showed no Cash-Outs at all.
      addCounts(inst, c, c.settled + c.failed + c.expired);
    }
    if (total.created + total.settled + total.failed + total.expired + total.returned > 0) out.push(total);
  }
  for (const p of institutions.values()) out.push(p);
  return out;
}

/** Share of outcomes that settled; null when nothing finished in the window (no line, not 0 %). */
export function successRate(p: Pick<SeriesPoint, 'settled' | 'failed' | 'expired'>): number | null {
  const outcomes = p.settled + p.failed + p.expired;
  return outcomes === 0 ? null : p.settled / outcomes;
}
