// Per-window traffic of each settlement partner and payer/payee institution, kept for the operator
// console's plots. Separate from the engine's rolling state on purpose: the engine keeps only what it
// needs to judge (EW baselines), while an operator wants the raw counts of the last day to look at.
import type { Observation, Operation } from './types';
import { WINDOW_MS } from './window';

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

const FIELD = {
  CREATED: 'created',
  SETTLED: 'settled',
  FAILED: 'failed',
  EXPIRED: 'expired',
  RETURNED: 'returned',
} as const;

function bump(
  acc: Map<string, SeriesPoint>,
  window: number,
  kind: SeriesKind,
  id: string,
  o: Observation,
  field: (typeof FIELD)[keyof typeof FIELD] = FIELD[o.event],
) {
  const key = `${window}|${kind}|${id}|${o.operation}`;
  let point = acc.get(key);
  if (!point) {
    point = {
      window,
      kind,
      id,
      operation: o.operation,
      created: 0,
      settled: 0,
      failed: 0,
      expired: 0,
      returned: 0,
    };
    acc.set(key, point);
  }
  point[field] += 1;
}

/** The events that end a transaction: exactly one per transaction. */
const OUTCOMES = new Set<Observation['event']>(['SETTLED', 'FAILED', 'EXPIRED']);

/**
 * Adds one observation to a batch's points: one per partner, one per institution when known.
 * An institution is usually learned only at the outcome (a Cash-Out to a PIX key learns the payee's
 * bank when it settles; a Cash-In its payer's bank when paid), so its volume counts each transaction
 * once, at its outcome, whether or not the creation already named the bank; otherwise a payee bank
 * showed no Cash-Outs at all.
 */
export function addToSeries(acc: Map<string, SeriesPoint>, o: Observation, atMs: number): void {
  const window = Math.floor(atMs / WINDOW_MS) * WINDOW_MS;
  bump(acc, window, 'partner', o.partnerIspb, o);
  if (!o.institutionIspb || o.event === 'CREATED') return;
  bump(acc, window, 'institution', o.institutionIspb, o);
  if (OUTCOMES.has(o.event)) bump(acc, window, 'institution', o.institutionIspb, o, FIELD.CREATED);
}

/** Share of outcomes that settled; null when nothing finished in the window (no line, not 0 %). */
export function successRate(p: Pick<SeriesPoint, 'settled' | 'failed' | 'expired'>): number | null {
  const outcomes = p.settled + p.failed + p.expired;
  return outcomes === 0 ? null : p.settled / outcomes;
}
