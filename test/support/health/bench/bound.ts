// The evidence bound (scripts/health-evidence-bound.ts): how early the evidence of a ramp or a small-bank
// cohort allows any detector to alarm within the false-alarm budget. An oracle told the faulty slice and
// the minute the fault began tests everything the slice did since then against its own pre-fault
// behaviour, minute by minute, and alarms at the first minute whose tail is within the budget's per-test
// rate (src/health/scoring/budget.ts). Pure Poisson and binomial (no over-dispersion): every real
// detector pays more, so the oracle's delay is a lower bound. Pure (no Node APIs).
import { allowedRate, testsInBudget } from '../../../../src/health/scoring/budget';
import type { Observation } from '../../../../src/health/types';
import { WINDOW_MS } from '../../../../src/health/windows/window';
import { generateObservations } from '../generator';
import { MINUTE_MS, type World } from '../world';
import type { FaultCase } from './cases';

export const PARTNER_BUDGET = allowedRate(testsInBudget('partner'));
export const COHORT_BUDGET = allowedRate(testsInBudget('cohort'));
/** The slice's own behaviour before the fault is its expectation. */
export const BEFORE_MS = 3 * 60 * MINUTE_MS;
/** As the engine's rateFloor: a clean history is not zero noise. */
const RATE_FLOOR = 0.01;

/** ln of the binomial upper tail P(X >= k), X ~ Bin(n, p). */
export function lnBinomUpper(k: number, n: number, p: number): number {
  if (k <= 0) return 0;
  let lnTerm = lnChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p);
  let sum = 1;
  let ratio = 1;
  for (let j = k; j < n; j++) {
    ratio *= ((n - j) / (j + 1)) * (p / (1 - p));
    sum += ratio;
    if (ratio < 1e-12 * sum) break;
  }
  lnTerm += Math.log(sum);
  return Math.min(0, lnTerm);
}

export function lnChoose(n: number, k: number): number {
  return lnFact(n) - lnFact(k) - lnFact(n - k);
}

function lnFact(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}

/** ln of the Poisson lower tail P(X <= k), X ~ Poisson(e). */
export function lnPoissonLower(k: number, e: number): number {
  let term = -e;
  let sum = Math.exp(term);
  for (let i = 1; i <= k; i++) {
    term += Math.log(e / i);
    sum += Math.exp(term);
  }
  return Math.min(0, Math.log(sum));
}

const isOutcome = (o: Observation) => o.event === 'SETTLED' || o.event === 'FAILED';

export interface Bound {
  /** Minutes from the fault's start to the oracle's alarm. */
  oracleMinutes: number | null;
  /** The same, paying for the search a real detector makes (ln of the number of hypotheses). */
  searchMinutes: number | null;
}

/** Starts a detector considers: each window of the last hour (cohort-cusum.ts SCAN_MAX_AGE). */
export const STARTS = 12;

export function rampBound(
  obs: Observation[],
  partner: string,
  op: string,
  from: number,
  to: number,
  lnSearch: number,
): Bound {
  let n0 = 0;
  let f0 = 0;
  const perMinute = new Map<number, [number, number]>();
  for (const o of obs) {
    if (o.partnerIspb !== partner || o.operation !== op || !isOutcome(o)) continue;
    const t = Date.parse(o.at);
    if (t >= from - BEFORE_MS && t < from) {
      n0++;
      if (o.event === 'FAILED') f0++;
    } else if (t >= from && t < to) {
      const m = Math.floor((t - from) / MINUTE_MS);
      const c = perMinute.get(m) ?? [0, 0];
      c[0]++;
      if (o.event === 'FAILED') c[1]++;
      perMinute.set(m, c);
    }
  }
  const p0 = Math.max(RATE_FLOOR, n0 > 0 ? f0 / n0 : 0);
  let n = 0;
  let f = 0;
  const out: Bound = { oracleMinutes: null, searchMinutes: null };
  for (let m = 0; m * MINUTE_MS < to - from && out.searchMinutes === null; m++) {
    const c = perMinute.get(m);
    if (c) {
      n += c[0];
      f += c[1];
    }
    const ln = lnBinomUpper(f, n, p0);
    if (out.oracleMinutes === null && ln <= Math.log(PARTNER_BUDGET)) out.oracleMinutes = m + 1;
    if (ln + lnSearch <= Math.log(PARTNER_BUDGET)) out.searchMinutes = m + 1;
  }
  return out;
}

export function cohortBound(
  obs: Observation[],
  members: readonly string[],
  from: number,
  to: number,
  lnSearch: number,
): Bound {
  const inCohort = new Set(members);
  let mine0 = 0;
  let others0 = 0;
  const perMinute = new Map<number, [number, number]>();
  for (const o of obs) {
    if (o.operation !== 'CASH_IN' || !isOutcome(o) || !o.institutionIspb) continue;
    const t = Date.parse(o.at);
    const mine = inCohort.has(o.institutionIspb);
    if (t >= from - BEFORE_MS && t < from) {
      if (mine) mine0++;
      else others0++;
    } else if (t >= from && t < to) {
      const m = Math.floor((t - from) / MINUTE_MS);
      const c = perMinute.get(m) ?? [0, 0];
      c[mine ? 0 : 1]++;
      perMinute.set(m, c);
    }
  }
  const share = others0 > 0 ? mine0 / others0 : 0;
  let seen = 0;
  let expected = 0;
  const out: Bound = { oracleMinutes: null, searchMinutes: null };
  for (let m = 0; m * MINUTE_MS < to - from && out.searchMinutes === null; m++) {
    const c = perMinute.get(m);
    if (c) {
      seen += c[0];
      expected += share * c[1];
    }
    if (expected <= 0) continue;
    const ln = lnPoissonLower(seen, expected);
    if (out.oracleMinutes === null && ln <= Math.log(COHORT_BUDGET)) out.oracleMinutes = m + 1;
    if (ln + lnSearch <= Math.log(COHORT_BUDGET)) out.searchMinutes = m + 1;
  }
  return out;
}

export interface CaseBound {
  kind: 'ramp' | 'cohort';
  /** Windows from the score's reference (bench/score.ts) to the oracle's alarm, at minute resolution. */
  windows: number | null;
  /** The same, the alarm rounded up to the end of its window. */
  windowEnd: number | null;
  /** The same, paying for the search over slices and starts (Bonferroni), at the window's end. */
  search: number | null;
}

/**
 * The bound of one fault case (null unless it is a ramp or a small-bank cohort). Delays are measured as
 * the score does: ramps from the minute the rate passes 20 %, cohorts from the end of the fault's first
 * full window.
 */
export function boundCase(world: World, seed: number, c: FaultCase): CaseBound | null {
  const label = c.labels[0];
  if (label === undefined) return null;
  const ramp = label.rampCross !== undefined;
  if (!ramp && label.originType !== 'PAYER_COHORT') return null;
  const obs = [
    ...generateObservations({
      world,
      seed,
      from: label.from - BEFORE_MS,
      to: Math.min(label.to, label.from + 4 * 60 * MINUTE_MS),
      faults: c.faults,
    }),
  ];
  // A real detector knows neither the slice nor the start: it tests every partner (or every set of as
  // many banks) from each of the last hour's windows.
  const k = label.members?.length ?? 1;
  const lnSearch =
    Math.log(STARTS) + (ramp ? Math.log(world.partners.length) : lnChoose(world.institutions.length, k));
  const b = ramp
    ? rampBound(obs, label.originId, label.operation, label.from, label.to, lnSearch)
    : cohortBound(obs, label.members ?? [], label.from, label.to, lnSearch);
  const reference = ramp ? label.rampCross! : Math.ceil(label.from / WINDOW_MS) * WINDOW_MS + WINDOW_MS;
  const delay = (minutes: number | null, atWindowEnd: boolean) => {
    if (minutes === null) return null;
    const at = label.from + minutes * MINUTE_MS;
    return ((atWindowEnd ? Math.ceil(at / WINDOW_MS) * WINDOW_MS : at) - reference) / WINDOW_MS;
  };
  return {
    kind: ramp ? 'ramp' : 'cohort',
    windows: delay(b.oracleMinutes, false),
    windowEnd: delay(b.oracleMinutes, true),
    search: delay(b.searchMinutes, true),
  };
}
