// Slices of one window's traffic, built from cells: entities, complements ("everything but S"), remainders
// ("S without its intersection with T") and unions (cohorts). Comparing these is how attribution tells a
// cause from its symptoms.

import type { AnalyzerConfig } from '../config';
import { type Eval, evaluate, type Family, type Kappas, type SliceView } from '../scoring/evaluate';
import { Counts } from './counts';

export type SliceKind = 'platform' | 'partner' | 'institution' | 'client';

/** One entity's traffic for one operation in the closing window. */
export interface EntityView extends SliceView {
  kind: SliceKind;
  id: string;
  /** Failures in this window by code index, and their EW history with its outcome denominator. */
  codes: number[];
  codeEw: number[];
  codeEwN: number;
  /** Strict evaluations per family (primary families and, on CASH_IN, expiry). */
  evals: Partial<Record<Family, Eval>>;
  /** Relaxed evaluations of the primary families (is this slice hurt at all?). */
  loose: Partial<Record<Family, Eval>>;
  /** Anomalous in at least one primary family. */
  anomalous: boolean;
  /** Hurt by the relaxed test in at least one primary family: the baseline must not learn from it. */
  suspicious: boolean;
  /** Failure-rate CUSUM after this window, and this window's own log-likelihood ratio (evidence-rules.ts). */
  cusum: number;
  llr: number;
  /** Consecutive windows with a positive llr, this one included. */
  cusumUp: number;
  /** Whether each of the last CUSUM_TREND_SPAN windows with outcomes favoured the fault (bits, newest low). */
  cusumHist: number;
  /** Failures were anomalous in this window (strict, pooled or trend), before blame rules: used evidence. */
  errorsAnomalous: boolean;
  /** The previous window's outcomes and their expectation (-1: none), for ties judged over two windows. */
  prevOutcomes?: [number, number];
  /** Clients and banks: expected new transactions (outcomes for banks) and windows of the current run without any (silence). */
  silent?: [number, number, number?];
}

/** A cell's own counters (partner x institution, partner x client). */
export interface CellData {
  acc: Counts;
  ew: Counts;
}

export function sumViews(views: readonly SliceView[]): SliceView {
  const counts = new Counts();
  const ew = new Counts();
  let expCreated: number | null = 0;
  let expOutcomes: number | null = 0;
  const k: Kappas = { created: 1, outcomes: 1, errors: 1, latency: 1, expiry: 1 };
  for (const v of views) {
    counts.add(v.counts);
    ew.add(v.ew);
    expCreated = expCreated === null || v.expCreated === null ? null : expCreated + v.expCreated;
    expOutcomes = expOutcomes === null || v.expOutcomes === null ? null : expOutcomes + v.expOutcomes;
    k.created = Math.max(k.created, v.k.created);
    k.outcomes = Math.max(k.outcomes, v.k.outcomes);
    k.errors = Math.max(k.errors, v.k.errors);
    k.latency = Math.max(k.latency, v.k.latency);
    k.expiry = Math.max(k.expiry, v.k.expiry);
  }
  return { counts, ew, expCreated, expOutcomes, k };
}

function diffExp(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : Math.max(0, a - b);
}

/** Everything in `whole` except `part` (part must be a subset of whole). */
export function complementView(whole: SliceView, part: SliceView): SliceView {
  return {
    counts: whole.counts.clone().sub(part.counts),
    ew: whole.ew.clone().sub(part.ew),
    expCreated: diffExp(whole.expCreated, part.expCreated),
    expOutcomes: diffExp(whole.expOutcomes, part.expOutcomes),
    k: whole.k,
  };
}

function shareOf(part: Counts, whole: Counts): number {
  const w = whole.settled + whole.failed;
  return w > 0 ? Math.min(1, (part.settled + part.failed) / w) : 0;
}

/** The cells' summed counts, and their share of `of`'s expected created volume and outcomes (EW). */
function cellsShare(of: SliceView, cells: readonly CellData[]) {
  const acc = new Counts();
  const ew = new Counts();
  for (const c of cells) {
    acc.add(c.acc);
    ew.add(c.ew);
  }
  const created = of.ew.created > 0 ? Math.min(1, ew.created / of.ew.created) : 0;
  return { acc, ew, created, outcomes: shareOf(ew, of.ew) };
}

/** `slice` without the cells it shares with another slice; expected counts scale by the cells' EW share. */
export function remainderView(slice: SliceView, cells: readonly CellData[]): SliceView {
  const share = cellsShare(slice, cells);
  return {
    counts: slice.counts.clone().sub(share.acc),
    ew: slice.ew.clone().sub(share.ew),
    expCreated: slice.expCreated === null ? null : slice.expCreated * (1 - share.created),
    expOutcomes: slice.expOutcomes === null ? null : slice.expOutcomes * (1 - share.outcomes),
    k: slice.k,
  };
}

/** The cells themselves seen as a slice of `parent` (for per-partner evidence of an institution, say). */
export function cellsView(parent: SliceView, cells: readonly CellData[]): SliceView {
  const share = cellsShare(parent, cells);
  return {
    counts: share.acc,
    ew: share.ew,
    expCreated: parent.expCreated === null ? null : parent.expCreated * share.created,
    expOutcomes: parent.expOutcomes === null ? null : parent.expOutcomes * share.outcomes,
    k: parent.k,
  };
}

/** Relaxed test: is this slice hurt in this family too (lower z, halved gates)? */
export function isBad(view: SliceView, family: Family, cfg: AnalyzerConfig): boolean {
  return evaluate(view, family, cfg, true).anomalous;
}
