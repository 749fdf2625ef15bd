import type { Operation } from './types';

/** What the analyzer saw in one closed window for one operation (diagnostics, tests). */
export interface WindowReport {
  windowStart: string;
  operation: Operation;
  /** Slices anomalous on their own (strict test), with the families that were (expiry included). */
  anomalous: { kind: 'platform' | 'partner' | 'institution' | 'client'; id: string; families: string[] }[];
  /** Pattern keys of this window's attributed origins (before lifecycle and symptom-of-open-incident rules). */
  origins: string[];
}

// Tunables of the analyzer. Defaults are what production and the tests use; see src/health/README.md and
// src/health/README.md (How the rules were tuned) for the reasoning.

export interface AnalyzerConfig {
  /** |z| at or above which a window is anomalous (docs/contract.md, PIX health: 3). */
  zThreshold: number;
  /** Looser |z| used to decide whether the rest of the traffic is also hurt (complements, remainders). */
  zRelaxed: number;
  /** Volume gate: a count is judged only when at least this many events are expected in the window. */
  minExpectedCount: number;
  /** A drop must also be at least this fraction of the expectation (effect-size gate). */
  minDropFraction: number;
  /** Relative noise floor for large counts: sigma >= relFloor * expected. */
  relFloor: number;
  /** Outcome-rate gates: judged only with this many outcomes, this many failures and this absolute rise. */
  minOutcomes: number;
  minFailures: number;
  minRateIncrease: number;
  /** Failure rates below this are treated as this for the variance (a clean history is not zero noise). */
  rateFloor: number;
  /** Latency gates: this many samples, at least this ratio over expected, sigma >= latencyRelFloor * expected. */
  minLatencySamples: number;
  minLatencyRatio: number;
  latencyRelFloor: number;
  /** Days of same-hour history kept for the daily shape, and how many are needed before judging counts. */
  historyDays: number;
  minHistoryDays: number;
  /** No incident is opened before this much time has passed since the first window (baseline warm-up). */
  warmupMs: number;
  /** Recent-level window (in windows) used to rescale the daily shape. */
  levelWindows: number;
  /** Residual rings used for the MAD dispersion factor. */
  residualWindows: number;
  /** Memory (in windows) of the exponentially weighted rate/share/latency baselines. */
  ewWindows: number;
  /** After this many consecutive anomalous windows an entity's baseline follows the data again. */
  rebaselineAfterWindows: number;
  /**
   * Consecutive anomalous windows of one pattern needed to open an incident (docs/contract.md, PIX health:
   * 2).
   */
  confirmWindows: number;
  /** Consecutive normal windows needed to resolve (docs/contract.md, PIX health: 3). */
  resolveWindows: number;
  /** Windows without a further rise before WORSENING returns to ACTIVE, or before severity is lowered. */
  severityHoldWindows: number;
  /** Largest share of the platform's volume a PAYER_COHORT may cover; above it the event is platform-wide. */
  maxCohortShare: number;
  /** Observations older than the open window by at most this much are still counted in it. */
  allowedLatenessMs: number;
  maxEvidencePerIncident: number;
  /** Optional diagnostics hook, called for every closed window and operation (not persisted). */
  onWindow?: (report: WindowReport) => void;
  /** Display names by ISPB for partners and institutions (the worker passes its partner catalogue). */
  names: Record<string, string>;
}

export const DEFAULT_CONFIG: AnalyzerConfig = {
  zThreshold: 3,
  zRelaxed: 2,
  minExpectedCount: 10,
  minDropFraction: 0.2,
  relFloor: 0.02,
  minOutcomes: 10,
  minFailures: 5,
  minRateIncrease: 0.05,
  rateFloor: 0.01,
  minLatencySamples: 20,
  minLatencyRatio: 1.5,
  latencyRelFloor: 0.1,
  historyDays: 7,
  minHistoryDays: 2,
  warmupMs: 2 * 86_400_000,
  levelWindows: 24,
  residualWindows: 24,
  ewWindows: 48,
  rebaselineAfterWindows: 72,
  confirmWindows: 2,
  resolveWindows: 3,
  severityHoldWindows: 3,
  maxCohortShare: 0.6,
  allowedLatenessMs: 5 * 60_000,
  maxEvidencePerIncident: 48,
  names: {},
};

export function resolveConfig(partial: Partial<AnalyzerConfig> = {}): AnalyzerConfig {
  return { ...DEFAULT_CONFIG, ...partial, names: { ...DEFAULT_CONFIG.names, ...(partial.names ?? {}) } };
}
