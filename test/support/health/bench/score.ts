// Scoring rules of the health bench (decisions §7, gateway-api §2.5/§3.3), applied to the public
// incidents (origin, operation, originClass, startedAt, detectedAt, resolvedAt):
//  - an incident matches a label when origin type and id (cohort: members), and operation agree, it
//    started no earlier than one window before the fault and was detected no later than 2 windows after
//    the fault's end;
//  - a false incident is any incident that matches no label: in no-fault traffic, or at a wrong origin,
//    or detected too late;
//  - attribution holds for a label when it is matched and no false incident was detected during it;
//  - delay = windows from the end of the fault's first full window to detectedAt (1 is the fastest the
//    two-window rule of §3.3 allows); ramps are timed from when the rate first passes 20 % instead;
//  - resolved on time = resolvedAt no later than RESOLVE_SLACK_WINDOWS after the fault's end.
import type { PixIncident } from '../../../../src/health/types';
import type { Label } from './cases';

export const WINDOW_MS = 5 * 60_000;
/** 3 normal windows to resolve (§3.3) + the window holding the fault's end + 2 for outcomes in flight. */
export const RESOLVE_SLACK_WINDOWS = 6;
/** §3.3's two-window confirmation: the earliest detection is one window after the first full one. */
export const DETECT_LATE_WINDOWS = 2;

export interface LabelOutcome {
  label: Label;
  seed: number;
  detected: boolean;
  attributed: boolean;
  delayWindows: number | null;
  resolvedOnTime: boolean;
  /** The first matching incident, as last published (null when missed). */
  incident: PixIncident | null;
}

export interface FalseIncident {
  seed: number;
  scope: string;
  incident: PixIncident;
}

function originMatches(l: Label, i: PixIncident): boolean {
  if (i.operation !== l.operation || i.origin.type !== l.originType) return false;
  if (l.originType !== 'PAYER_COHORT') return i.origin.id === l.originId;
  // A cohort is right when it names only faulty banks and at least half of them.
  const got = i.origin.id.split(',');
  const want = new Set(l.members ?? []);
  return got.every((m) => want.has(m)) && got.length * 2 >= want.size;
}

function matches(l: Label, i: PixIncident): boolean {
  const started = Date.parse(i.startedAt);
  const detected = Date.parse(i.detectedAt);
  return (
    originMatches(l, i) && started >= l.from - WINDOW_MS && detected <= l.to + DETECT_LATE_WINDOWS * WINDOW_MS
  );
}

/** Score one simulated branch: its labels (possibly none) against every incident it produced. */
export function scoreCase(
  seed: number,
  scope: string,
  labels: readonly Label[],
  incidents: readonly PixIncident[],
): { outcomes: LabelOutcome[]; falses: FalseIncident[] } {
  const falses = incidents
    .filter((i) => !labels.some((l) => matches(l, i)))
    .map((incident) => ({ seed, scope, incident }));
  const outcomes = labels.map((label) => {
    const hits = incidents
      .filter((i) => matches(label, i))
      .sort((a, b) => a.detectedAt.localeCompare(b.detectedAt));
    const first = hits[0];
    const firstFullEnd = Math.ceil(label.from / WINDOW_MS) * WINDOW_MS + WINDOW_MS;
    const reference = label.rampCross ?? firstFullEnd;
    const during = falses.some((f) => {
      const d = Date.parse(f.incident.detectedAt);
      return d >= label.from && d <= label.to + DETECT_LATE_WINDOWS * WINDOW_MS;
    });
    const resolvedOnTime =
      hits.length > 0 &&
      hits.every(
        (i) =>
          i.resolvedAt !== null && Date.parse(i.resolvedAt) <= label.to + RESOLVE_SLACK_WINDOWS * WINDOW_MS,
      );
    return {
      label,
      seed,
      detected: first !== undefined,
      attributed: first !== undefined && !during,
      delayWindows: first ? (Date.parse(first.detectedAt) - reference) / WINDOW_MS : null,
      resolvedOnTime,
      incident: first ?? null,
    };
  });
  return { outcomes, falses };
}

export interface ScoreSummary {
  labels: number;
  detected: number;
  falses: number;
  attributed: number;
  medianDelay: number | null;
  maxRampDelay: number | null;
  /** Slowest small-bank cohort (windows from the end of the fault's first full window). */
  maxCohortDelay: number | null;
  resolvedOnTime: number;
  noFaultDays: number;
  seeds: number[];
}

export const TARGETS = { medianDelay: 1.5, rampDelay: 4 };
/** A family's held-out half: ramps and cohorts within 3 windows, and enough no-fault days to count 0. */
export const FAMILY_TARGETS = { medianDelay: 1.5, rampDelay: 3, cohortDelay: 3, noFaultDays: 200 };

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function summarize(
  outcomes: readonly LabelOutcome[],
  falses: readonly FalseIncident[],
  noFaultDays: number,
  seeds: number[],
): ScoreSummary {
  const plain = outcomes.filter((o) => o.label.rampCross === undefined && o.delayWindows !== null);
  const ramps = outcomes.filter((o) => o.label.rampCross !== undefined && o.delayWindows !== null);
  const cohorts = plain.filter((o) => o.label.originType === 'PAYER_COHORT');
  return {
    labels: outcomes.length,
    detected: outcomes.filter((o) => o.detected).length,
    falses: falses.length,
    attributed: outcomes.filter((o) => o.attributed).length,
    medianDelay: median(plain.map((o) => o.delayWindows!)),
    maxRampDelay: ramps.length ? Math.max(...ramps.map((o) => o.delayWindows!)) : null,
    maxCohortDelay: cohorts.length ? Math.max(...cohorts.map((o) => o.delayWindows!)) : null,
    resolvedOnTime: outcomes.filter((o) => o.resolvedOnTime).length,
    noFaultDays,
    seeds,
  };
}

/** Every target of issue 18 met? */
export function targetsMet(s: ScoreSummary): boolean {
  return (
    s.detected === s.labels &&
    s.falses === 0 &&
    s.attributed === s.labels &&
    s.medianDelay !== null &&
    s.medianDelay <= TARGETS.medianDelay &&
    (s.maxRampDelay === null || s.maxRampDelay <= TARGETS.rampDelay) &&
    s.resolvedOnTime === s.labels
  );
}

/** Every target of a family's held-out half met? */
export function familyTargetsMet(s: ScoreSummary): boolean {
  return (
    s.detected === s.labels &&
    s.falses === 0 &&
    s.attributed === s.labels &&
    s.medianDelay !== null &&
    s.medianDelay <= FAMILY_TARGETS.medianDelay &&
    (s.maxRampDelay === null || s.maxRampDelay <= FAMILY_TARGETS.rampDelay) &&
    (s.maxCohortDelay === null || s.maxCohortDelay <= FAMILY_TARGETS.cohortDelay) &&
    s.resolvedOnTime === s.labels &&
    s.noFaultDays >= FAMILY_TARGETS.noFaultDays
  );
}

const pct = (n: number, d: number) => `${d === 0 ? 100 : Math.round((1000 * n) / d) / 10}% (${n}/${d})`;

export function formatSummary(s: ScoreSummary): string {
  const f = (x: number | null) => (x === null ? 'n/a' : x.toFixed(1));
  return (
    `recall ${pct(s.detected, s.labels)} false ${s.falses} attribution ${pct(s.attributed, s.labels)} ` +
    `median-delay ${f(s.medianDelay)}w ramp-delay(max) ${f(s.maxRampDelay)}w ` +
    `cohort-delay(max) ${f(s.maxCohortDelay)}w ` +
    `resolved-on-time ${pct(s.resolvedOnTime, s.labels)} seeds ${s.seeds.join(',')} ` +
    `no-fault-days ${s.noFaultDays}`
  );
}
