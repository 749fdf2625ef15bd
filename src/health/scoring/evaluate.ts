// Robust z-scores per metric family, with the noise floors and volume gates that keep small counts quiet.
import type { AnalyzerConfig } from '../config';
import type { Severity } from '../types';
import type { Counts } from '../windows/counts';

/**
 * Metric families. created: new transactions below expectation (intake); outcomes: transactions reaching
 * SETTLED or FAILED below expectation (activity missing: silence, stalls); errors: failure rate above
 * expectation (FAILED / (SETTLED + FAILED)); latency: mean settlement latency above expectation;
 * expiry: CASH_IN expiry rate, a lagging echo of missing payments, used only to corroborate.
 * Outcomes count failures too, so a failure that replaces a settlement is judged once (as errors), not
 * twice; a silent bank or partner produces neither and shows up here.
 */
export type Family = 'created' | 'outcomes' | 'errors' | 'latency' | 'expiry';
export const PRIMARY_FAMILIES: readonly Family[] = ['created', 'outcomes', 'errors', 'latency'];

export const METRIC_NAME: Record<Family, string> = {
  created: 'createdVolume',
  outcomes: 'outcomeVolume',
  errors: 'failureRate',
  latency: 'settlementLatency',
  expiry: 'expiryRate',
};

export interface Kappas {
  created: number;
  outcomes: number;
  errors: number;
  latency: number;
  expiry: number;
}

/** Everything needed to judge one slice of traffic (entity, complement, remainder, union) in one window. */
export interface SliceView {
  counts: Counts;
  ew: Counts;
  expCreated: number | null;
  expOutcomes: number | null;
  k: Kappas;
}

/**
 * How an anomaly was found when not by one window's z alone, so the summary and the evidence can say so:
 * `pooled` = several windows (and, for a cohort, several small banks) summed into one test; `trend` = the
 * failure CUSUM (a rise sustained over `windows` consecutive windows, evidence-rules.ts); `scan` = the
 * cohort CUSUM scan (small banks falling together for `windows` windows, cohort-scan.ts).
 */
export interface EvidenceBasis {
  kind: 'pooled' | 'trend' | 'scan';
  windows: number;
}

export interface Eval {
  /** Absent: this window's own test. */
  basis?: EvidenceBasis;
  family: Family;
  /** False when gated out (not enough volume or history): then never anomalous. */
  evaluated: boolean;
  anomalous: boolean;
  z: number;
  deviation: number | null;
  /** How bad, 0..1 for volumes and rates (share of the expected traffic lost), ratio for latency. */
  impact: number;
  /** Comparable size of the slice (expected events or outcomes), used to prefer the narrower explanation. */
  size: number;
  observed: number;
  expected: number;
}

export const MIN_EW_OUTCOMES = 50;

function notEvaluated(family: Family, size: number): Eval {
  return {
    family,
    evaluated: false,
    anomalous: false,
    z: 0,
    deviation: null,
    impact: 0,
    size,
    observed: 0,
    expected: 0,
  };
}

/** Volume drop: sigma = max(kappa * sqrt(E), relFloor * E); kappa >= 1 is the Poisson floor. */
export function evalCount(
  family: Family,
  observed: number,
  expected: number | null,
  kappa: number,
  cfg: AnalyzerConfig,
  relaxed: boolean,
): Eval {
  const gate = relaxed ? cfg.minExpectedCount / 2 : cfg.minExpectedCount;
  if (expected === null || expected < gate) return notEvaluated(family, expected ?? 0);
  const sigma = Math.max(kappa * Math.sqrt(expected), cfg.relFloor * expected);
  const z = (observed - expected) / sigma;
  const deviation = (observed - expected) / expected;
  const zt = relaxed ? cfg.zRelaxed : cfg.zThreshold;
  const drop = relaxed ? cfg.minDropFraction / 2 : cfg.minDropFraction;
  return {
    family,
    evaluated: true,
    anomalous: z <= -zt && deviation <= -drop,
    z,
    deviation,
    impact: Math.max(0, Math.min(1, -deviation)),
    size: expected,
    observed,
    expected,
  };
}

/**
 * Variance-stabilised (Anscombe) z of `count` failures where `expected` were expected:
 * 2 (sqrt(count + 3/8) - sqrt(expected + 3/8)). Calibrated in both tails that matter: rare failures
 * (8 where 2.5 were expected: z 2.4, not 3.5 as the plain score test says) and small slices failing
 * hard (8 of 20 where 0.7 were expected: z 3.7, where a variance taken from the observed rate said 2.2
 * and hid a small partner's outage).
 */
export function rootZ(count: number, expected: number): number {
  return 2 * (Math.sqrt(count + 0.375) - Math.sqrt(expected + 0.375));
}

/** Rate rise (failures, expiries): root z of the failures against the baseline rate, with effect gates. */
export function evalRate(
  family: Family,
  failures: number,
  outcomes: number,
  ewFailures: number,
  ewOutcomes: number,
  kappa: number,
  cfg: AnalyzerConfig,
  relaxed: boolean,
): Eval {
  const minN = relaxed ? cfg.minOutcomes / 2 : cfg.minOutcomes;
  if (outcomes < minN || ewOutcomes < MIN_EW_OUTCOMES) return notEvaluated(family, outcomes);
  const p0 = ewFailures / ewOutcomes;
  const p = failures / outcomes;
  const z = rootZ(failures, outcomes * Math.max(p0, cfg.rateFloor)) / kappa;
  const zt = relaxed ? cfg.zRelaxed : cfg.zThreshold;
  const rise = relaxed ? cfg.minRateIncrease / 2 : cfg.minRateIncrease;
  const minF = relaxed ? Math.ceil(cfg.minFailures / 2) : cfg.minFailures;
  return {
    family,
    evaluated: true,
    anomalous: z >= zt && p - p0 >= rise && failures >= minF,
    z,
    deviation: p0 > 0 ? (p - p0) / p0 : null,
    impact: p0 < 1 ? Math.max(0, Math.min(1, (p - p0) / (1 - p0))) : 0,
    size: outcomes,
    observed: p,
    expected: p0,
  };
}

/** Mean settlement latency rise; sigma from the EW per-event variance, floored at latencyRelFloor * mean. */
export function evalLatency(view: SliceView, cfg: AnalyzerConfig, relaxed: boolean): Eval {
  const c = view.counts;
  const ew = view.ew;
  const minN = relaxed ? cfg.minLatencySamples / 2 : cfg.minLatencySamples;
  if (c.latN < minN || ew.latN < MIN_EW_OUTCOMES) return notEvaluated('latency', c.latN);
  const m0 = ew.latSum / ew.latN;
  if (!(m0 > 0)) return notEvaluated('latency', c.latN);
  const var0 = Math.max(0, ew.latSq / ew.latN - m0 * m0);
  const mean = c.latSum / c.latN;
  const sigma = Math.max(view.k.latency * Math.sqrt(var0 / c.latN), cfg.latencyRelFloor * m0);
  const z = (mean - m0) / sigma;
  const zt = relaxed ? cfg.zRelaxed : cfg.zThreshold;
  const ratio = relaxed ? 1 + (cfg.minLatencyRatio - 1) / 2 : cfg.minLatencyRatio;
  return {
    family: 'latency',
    evaluated: true,
    anomalous: z >= zt && mean >= ratio * m0,
    z,
    deviation: (mean - m0) / m0,
    impact: mean / m0,
    size: c.latN,
    observed: mean,
    expected: m0,
  };
}

/** A count family's observed count in this window and its expectation. */
export function countOf(view: SliceView, family: 'created' | 'outcomes'): [number, number | null] {
  const c = view.counts;
  return family === 'created' ? [c.created, view.expCreated] : [c.settled + c.failed, view.expOutcomes];
}

export function evaluate(view: SliceView, family: Family, cfg: AnalyzerConfig, relaxed = false): Eval {
  const c = view.counts;
  const ew = view.ew;
  switch (family) {
    case 'created':
    case 'outcomes': {
      const [observed, expected] = countOf(view, family);
      return evalCount(family, observed, expected, view.k[family], cfg, relaxed);
    }
    case 'errors':
      return evalRate(
        family,
        c.failed,
        c.settled + c.failed,
        ew.failed,
        ew.settled + ew.failed,
        view.k.errors,
        cfg,
        relaxed,
      );
    case 'expiry':
      return evalRate(
        family,
        c.expired,
        c.settled + c.failed + c.expired,
        ew.expired,
        ew.settled + ew.failed + ew.expired,
        view.k.expiry,
        cfg,
        relaxed,
      );
    case 'latency':
      return evalLatency(view, cfg, relaxed);
  }
}

/**
 * Standardised residual of a normal window under the plain noise model (no kappa, no floors), fed to the
 * entity's MAD ring; null when there is too little data. Counts are handled by the seasonal baseline.
 */
export function rawResidual(view: SliceView, family: 'errors' | 'expiry' | 'latency', cfg: AnalyzerConfig) {
  const c = view.counts;
  const ew = view.ew;
  if (family === 'latency') {
    if (c.latN < cfg.minLatencySamples || ew.latN < MIN_EW_OUTCOMES) return null;
    const m0 = ew.latSum / ew.latN;
    const var0 = ew.latSq / ew.latN - m0 * m0;
    if (!(var0 > 0)) return null;
    return (c.latSum / c.latN - m0) / Math.sqrt(var0 / c.latN);
  }
  const f = family === 'errors' ? c.failed : c.expired;
  const n = family === 'errors' ? c.settled + c.failed : c.settled + c.failed + c.expired;
  const ewF = family === 'errors' ? ew.failed : ew.expired;
  const ewN = family === 'errors' ? ew.settled + ew.failed : ew.settled + ew.failed + ew.expired;
  if (n < cfg.minOutcomes || ewN < MIN_EW_OUTCOMES) return null;
  const p0 = ewF / ewN;
  return rootZ(f, n * Math.max(p0, cfg.rateFloor));
}

const SEVERITY_RANK: Record<Severity, number> = { DEGRADED: 1, SEVERELY_DEGRADED: 2, UNAVAILABLE: 3 };

export function severityRank(s: Severity): number {
  return SEVERITY_RANK[s];
}

export function maxSeverity(a: Severity, b: Severity): Severity {
  return SEVERITY_RANK[a] >= SEVERITY_RANK[b] ? a : b;
}

/**
 * How far from expected: for volumes and rates the share of expected traffic lost (<50 % DEGRADED,
 * <90 % SEVERELY_DEGRADED, else UNAVAILABLE); slowness alone is at most SEVERELY_DEGRADED (>= 3x).
 */
export function severityOf(e: Eval): Severity {
  if (e.family === 'latency') return e.impact >= 3 ? 'SEVERELY_DEGRADED' : 'DEGRADED';
  if (e.impact >= 0.9) return 'UNAVAILABLE';
  if (e.impact >= 0.5) return 'SEVERELY_DEGRADED';
  return 'DEGRADED';
}
