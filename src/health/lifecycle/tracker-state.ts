// State shapes of the incident tracker (lifecycle.ts): candidates, open incidents, the step input.
import type { OriginKind } from '../attribution/attribution';
import type { Hypothesis, Signal } from '../attribution/diagnosis';
import type { EvidenceBasis, Family } from '../scoring/evaluate';
import type { EvidenceItem, IncidentRecord, Operation, Severity } from '../types';

export interface CandidateState {
  /** `${operation}:${hypothesis key}` */
  key: string;
  firstWindow: number;
  lastWindow: number;
  run: number;
  evidence: EvidenceItem[];
  /** Cohort members seen in the previous window of the run. */
  members: string[];
  /** The origin and families of the run (to judge a gap window); absent in old snapshots. */
  origin?: { kind: OriginKind; id: string; members: string[]; families: Family[] };
  /** The run is being held through a gap window (at most MAX_HELD_WINDOWS in a row). */
  held?: number;
  /** The failure trend (CUSUM) was the evidence in some window of the run (the longest such trend). */
  trend?: EvidenceBasis | null;
}

export interface OpenIncidentState {
  record: IncidentRecord;
  kind: OriginKind;
  id: string;
  members: string[];
  pending: EvidenceItem[];
  normalStreak: number;
  /** Windows since the last severity rise while WORSENING. */
  holdWindows: number;
  /** Severities of consecutive anomalous windows below the current severity. */
  lower: Severity[];
  /** Severity of the previous window when it was above the current one (a rise waiting for confirmation). */
  higher: Severity | null;
  signal: Signal | null;
  /** The highest failure rate of its windows raised on failures (judges its small windows' recovery). */
  faultRate?: number;
  /** Log-likelihood ratio (fault rate vs baseline) summed over the windows too small to judge since the last judged one. */
  recoveryLlr?: number;
  /** Primary families seen anomalous at the origin during the incident (judged relaxed to continue). */
  families: Family[];
  /** Cohort: consecutive windows each candidate member has been seen; two make it a member. */
  memberStreak: Record<string, number>;
  startedAtMs: number;
  recoveredAtMs: number | null;
  /** The trend that confirmed it, when a window of its confirming run was anomalous only as a trend. */
  trend?: EvidenceBasis | null;
}

export interface TrackerState {
  candidates: CandidateState[];
  open: OpenIncidentState[];
}

export interface StepInput {
  op: Operation;
  windowIndex: number;
  hypotheses: Hypothesis[];
  /** No incident may open yet (baseline warm-up). */
  warm: boolean;
  /** Judge an open incident's origin when no hypothesis of this window names it. */
  diagnoseOpen(o: { kind: OriginKind; id: string; members: string[]; families: Family[] }): Hypothesis;
  /** Judge a candidate's origin in a gap window (as diagnoseOpen when absent). */
  diagnoseCandidate?(o: { kind: OriginKind; id: string; members: string[]; families: Family[] }): Hypothesis;
  /** Failure evidence that persists at this origin although this window is not anomalous (CUSUM_HOLD). */
  persists?(o: { kind: OriginKind; id: string }): boolean;
  /** Clients whose traffic runs through this origin (for API scoping). */
  clientsFor(h: Hypothesis): string[];
}
