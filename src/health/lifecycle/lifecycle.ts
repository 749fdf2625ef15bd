// Incident lifecycle (docs/contract.md, PIX health): a pattern seen in `confirmWindows` consecutive windows
// opens an incident (ACTIVE); a severity rise makes it WORSENING (back to ACTIVE after `severityHoldWindows`
// windows without a further rise); the first normal window makes it RECOVERING; `resolveWindows` normal
// windows in a row resolve it. A relapse while RECOVERING returns it to ACTIVE (or WORSENING) and clears
// recoveredAt.

import { confidenceRank, displayNameOf, type Hypothesis, originClassRank } from '../attribution/diagnosis';
import type { AnalyzerConfig } from '../config';
import { maxSeverity, severityRank } from '../scoring/evaluate';
import { faultRateLlr, RECOVERY_LLR, windowsToConfirm } from '../scoring/evidence-rules';
import type { IncidentChange, IncidentRecord, Operation } from '../types';
import { isoZ, WINDOW_MS } from '../windows/window';
import { incidentIdFor } from './ids';
import { buildSummary } from './summary';
import type { CandidateState, OpenIncidentState, StepInput, TrackerState } from './tracker-state';

export type { CandidateState, OpenIncidentState, StepInput, TrackerState } from './tracker-state';

/**
 * A candidate survives one window where its origin is only hurt by the relaxed test (a small partner
 * whose ramping failure rate dips below z 3 for one window), or where its failure CUSUM still holds
 * (CUSUM_HOLD): the gap does not count towards the two confirming windows, but it does not restart the run
 * either. Two gaps in a row, or a normal window, end it.
 */
export const MAX_HELD_WINDOWS = 1;

/**
 * Hysteresis both ways: strict to open, relaxed to stay open, strict again to relapse once the origin
 * looked normal. A merchant back to normal whose next windows swing by half (over-dispersed traffic:
 * 15 charges where 30 were expected, z -2.3) is not failing again; it would otherwise restart the three
 * normal windows that resolve and resolve late.
 */
export const RELAPSE_NEEDS_STRICT = true;

/**
 * A bank joins an open cohort after being named in this many consecutive windows: as many as opening a
 * cohort takes (the lifecycle's two plus LEAF_INFERRED_EXTRA_WINDOWS). A bank of the tail that happens to be
 * quiet for two windows while a cohort is open would otherwise be blamed with it.
 */
export const COHORT_GROWTH_WINDOWS = 3;
/**
 * ...and only while the cohort is young (within this many windows of its start). The banks of one fault
 * go quiet together: a member missed at detection is selected and named within the pooled test's
 * five windows after the start. A tail bank that goes quiet half an hour later is another event (in the
 * bench, a bank dipping by chance in the no-fault world, z -4 over 30 minutes) and is judged on its own.
 */
export const COHORT_GROWTH_HORIZON_WINDOWS = 6;

function pushCapped<T>(list: T[], items: readonly T[], cap: number): void {
  list.push(...items);
  if (list.length > cap) list.splice(0, list.length - cap);
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

export class IncidentTracker {
  private candidates = new Map<string, CandidateState>();
  private open = new Map<string, OpenIncidentState>();

  constructor(private readonly cfg: AnalyzerConfig) {}

  openIncidents(): OpenIncidentState[] {
    return [...this.open.values()];
  }

  step(input: StepInput): IncidentChange[] {
    const { op, windowIndex } = input;
    const changes: IncidentChange[] = [];
    const hyps = new Map(input.hypotheses.map((h) => [`${op}:${h.key}`, h]));

    // Open incidents first: their origin decides whether the window is anomalous for them.
    for (const [key, o] of this.open) {
      if (o.record.operation !== op) continue;
      const strict = hyps.get(key);
      const h = strict ?? input.diagnoseOpen(o);
      hyps.delete(key);
      // Recovery needs evidence: a window where nothing could be judged at the origin (total silence,
      // which the platform's own intake test covers) neither confirms nor clears the incident. Once
      // RECOVERING, only a strict anomaly is a relapse (RELAPSE_NEEDS_STRICT); a window merely hurt by the
      // relaxed test neither relapses nor counts towards resolution.
      const hurt = h.families.length > 0;
      const relapse = strict !== undefined || !(RELAPSE_NEEDS_STRICT && o.record.status === 'RECOVERING');
      const recovered = !hurt && !h.judged && this.smallWindowsRecovered(o, h);
      if (hurt || h.judged) o.recoveryLlr = 0;
      const change =
        hurt && relapse
          ? this.onAnomalous(o, h, windowIndex, input.clientsFor(h))
          : (h.judged && !hurt) || recovered
            ? this.onNormal(o, windowIndex)
            : null;
      if (change) changes.push(change);
      if (o.record.status === 'RESOLVED') this.open.delete(key);
    }

    // Symptoms of an open incident never open their own (platform-wide covers all; a cohort its members).
    for (const [key, h] of hyps) {
      if (this.coveredByOpen(op, h)) hyps.delete(key);
    }

    // Candidates: consecutive windows of the same pattern.
    for (const [key, h] of hyps) {
      let c = this.candidates.get(key);
      if (c && c.lastWindow === windowIndex - 1) {
        c.run += 1;
        c.lastWindow = windowIndex;
      } else {
        c = { key, firstWindow: windowIndex, lastWindow: windowIndex, run: 1, evidence: [], members: [] };
        this.candidates.set(key, c);
      }
      c.held = 0;
      if (h.trend && h.trend.windows > (c.trend?.windows ?? 0)) c.trend = h.trend;
      c.origin = { kind: h.kind, id: h.id, members: [...h.members], families: [...h.families] };
      pushCapped(c.evidence, h.evidence, this.cfg.maxEvidencePerIncident);
      if (c.run >= windowsToConfirm(this.cfg.confirmWindows, h) && input.warm) {
        // A cohort is named by the members seen in both confirming windows (one noisy window adds none).
        const steady = h.members.filter((m) => c.members.includes(m));
        const id = steady.join(',');
        const confirmed = steady.length >= 2 ? { ...h, members: steady, id, originId: id } : h;
        changes.push(this.detect(op, key, c, confirmed, windowIndex, input.clientsFor(h)));
        this.candidates.delete(key);
      } else {
        c.members = [...h.members];
      }
    }
    for (const [key, c] of this.candidates) {
      if (!c.key.startsWith(`${op}:`) || c.lastWindow >= windowIndex) continue;
      const held = (c.held ?? 0) + 1;
      const hurt =
        c.origin !== undefined &&
        c.lastWindow === windowIndex - 1 &&
        held <= MAX_HELD_WINDOWS &&
        ((input.diagnoseCandidate ?? input.diagnoseOpen)(c.origin).families.length > 0 ||
          (c.origin.families.includes('errors') && input.persists?.(c.origin) === true));
      if (hurt) {
        c.held = held;
        c.lastWindow = windowIndex;
      } else {
        this.candidates.delete(key);
      }
    }
    return changes;
  }

  private coveredByOpen(op: Operation, h: Hypothesis): boolean {
    for (const o of this.open.values()) {
      if (o.record.operation !== op) continue;
      if (o.kind === 'platform') return true;
      if (o.kind === 'cohort' && h.kind === 'institution' && o.members.includes(h.id)) return true;
    }
    return false;
  }

  private detect(
    op: Operation,
    key: string,
    c: CandidateState,
    h: Hypothesis,
    windowIndex: number,
    clients: string[],
  ): IncidentChange {
    const startedAtMs = c.firstWindow * WINDOW_MS;
    const startedAt = isoZ(startedAtMs);
    const displayName = displayNameOf(h.originType, h.originId, h.members, this.cfg.names);
    const record: IncidentRecord = {
      incidentId: incidentIdFor(h.originType, h.key, op, startedAt),
      origin: { type: h.originType, id: h.originId, displayName },
      operation: op,
      status: 'ACTIVE',
      severity: h.severity,
      confidence: h.confidence,
      originClass: h.originClass,
      startedAt,
      detectedAt: isoZ((windowIndex + 1) * WINDOW_MS),
      recoveredAt: null,
      resolvedAt: null,
      updatedAt: null,
      affectedPartners: h.reachedPartners.length,
      summary: '',
      affectedClientIds: [...clients].sort(),
      affectedPartnerIspbs: [...h.reachedPartners],
      cohortIspbs: [...h.members],
      patternKey: key,
      evidence: [...c.evidence],
    };
    const o: OpenIncidentState = {
      record,
      kind: h.kind,
      id: h.id,
      members: [...h.members],
      pending: [],
      normalStreak: 0,
      holdWindows: 0,
      lower: [],
      higher: null,
      signal: h.signal,
      ...(h.signal?.family === 'errors' ? { faultRate: h.signal.observed } : {}),
      families: [...h.families],
      memberStreak: Object.fromEntries(h.members.map((m) => [m, COHORT_GROWTH_WINDOWS])),
      startedAtMs,
      recoveredAtMs: null,
      trend: c.trend ?? null,
    };
    this.refreshSummary(o);
    this.open.set(key, o);
    return { change: 'DETECTED', incident: structuredClone(record), evidence: [...c.evidence] };
  }

  /** Windows too small to judge, summed until they favour the baseline over the fault (RECOVERY_LLR). */
  private smallWindowsRecovered(o: OpenIncidentState, h: Hypothesis): boolean {
    if (o.faultRate === undefined || !h.failures || !o.families.includes('errors')) return false;
    const [failed, outcomes, p0] = h.failures;
    const llr = (o.recoveryLlr ?? 0) + faultRateLlr(failed, outcomes, p0, o.faultRate, this.cfg.rateFloor);
    o.recoveryLlr = llr > -RECOVERY_LLR ? llr : 0;
    return llr <= -RECOVERY_LLR;
  }

  private onAnomalous(
    o: OpenIncidentState,
    h: Hypothesis,
    windowIndex: number,
    clients: string[],
  ): IncidentChange | null {
    const r = o.record;
    const cap = this.cfg.maxEvidencePerIncident;
    pushCapped(r.evidence, h.evidence, cap);
    pushCapped(o.pending, h.evidence, cap);
    o.signal = h.signal ?? o.signal;
    if (h.signal?.family === 'errors') o.faultRate = Math.max(o.faultRate ?? 0, h.signal.observed);
    o.normalStreak = 0;
    for (const f of h.families) if (!o.families.includes(f)) o.families.push(f);
    let changed = false;
    const s = h.severity;

    if (r.status === 'RECOVERING') {
      r.status = severityRank(s) > severityRank(r.severity) ? 'WORSENING' : 'ACTIVE';
      r.severity = maxSeverity(r.severity, s);
      r.recoveredAt = null;
      o.recoveredAtMs = null;
      o.holdWindows = 0;
      o.lower = [];
      o.higher = null;
      changed = true;
    } else if (severityRank(s) > severityRank(r.severity) && o.higher !== null) {
      // A rise counts when two consecutive windows confirm it (one noisy window is not a worsening).
      r.severity = severityRank(s) < severityRank(o.higher) ? s : o.higher;
      r.status = 'WORSENING';
      o.holdWindows = 0;
      o.lower = [];
      o.higher = null;
      changed = true;
    } else {
      o.higher = severityRank(s) > severityRank(r.severity) ? s : null;
      if (r.status === 'WORSENING' && ++o.holdWindows >= this.cfg.severityHoldWindows) {
        r.status = 'ACTIVE';
        changed = true;
      }
      if (severityRank(s) < severityRank(r.severity)) {
        o.lower.push(s);
        if (o.lower.length >= this.cfg.severityHoldWindows) {
          r.severity = o.lower.reduce(maxSeverity);
          o.lower = [];
          if (r.status === 'WORSENING') r.status = 'ACTIVE';
          changed = true;
        }
      } else {
        o.lower = [];
      }
    }

    if (confidenceRank(h.confidence) > confidenceRank(r.confidence)) {
      r.confidence = h.confidence;
      changed = true;
    }
    if (originClassRank(h.originClass) > originClassRank(r.originClass)) {
      r.originClass = h.originClass;
      changed = true;
    }
    const partners = union(r.affectedPartnerIspbs, h.reachedPartners);
    if (partners.length !== r.affectedPartnerIspbs.length) {
      r.affectedPartnerIspbs = partners;
      r.affectedPartners = partners.length;
      changed = true;
    }
    r.affectedClientIds = union(r.affectedClientIds, clients);
    if (h.kind === 'cohort') {
      for (const m of Object.keys(o.memberStreak)) if (!h.members.includes(m)) o.memberStreak[m] = 0;
      for (const m of h.members) o.memberStreak[m] = (o.memberStreak[m] ?? 0) + 1;
      const young = windowIndex * WINDOW_MS - o.startedAtMs < COHORT_GROWTH_HORIZON_WINDOWS * WINDOW_MS;
      const steady = Object.keys(o.memberStreak).filter(
        (m) => (o.memberStreak[m] ?? 0) >= COHORT_GROWTH_WINDOWS,
      );
      const members = young ? union(r.cohortIspbs, steady) : r.cohortIspbs;
      if (members.length !== r.cohortIspbs.length) {
        // The cohort grew: name it by all its members (the incidentId stays the same).
        r.cohortIspbs = members;
        o.members = members;
        r.origin = {
          type: r.origin.type,
          id: members.join(','),
          displayName: displayNameOf(r.origin.type, members.join(','), members, this.cfg.names),
        };
        changed = true;
      }
    }
    return changed ? this.emit(o, 'UPDATED', windowIndex) : null;
  }

  private onNormal(o: OpenIncidentState, windowIndex: number): IncidentChange | null {
    const r = o.record;
    if (r.status !== 'RECOVERING') {
      r.status = 'RECOVERING';
      o.recoveredAtMs = windowIndex * WINDOW_MS;
      r.recoveredAt = isoZ(o.recoveredAtMs);
      o.normalStreak = 1;
      o.holdWindows = 0;
      o.lower = [];
      o.higher = null;
    } else {
      o.normalStreak += 1;
    }
    if (o.normalStreak >= this.cfg.resolveWindows) {
      r.status = 'RESOLVED';
      r.resolvedAt = isoZ((windowIndex + 1) * WINDOW_MS);
      return this.emit(o, 'RESOLVED', windowIndex);
    }
    return o.normalStreak === 1 ? this.emit(o, 'UPDATED', windowIndex) : null;
  }

  private emit(o: OpenIncidentState, change: 'UPDATED' | 'RESOLVED', windowIndex: number): IncidentChange {
    o.record.updatedAt = isoZ((windowIndex + 1) * WINDOW_MS);
    this.refreshSummary(o);
    const evidence = o.pending;
    o.pending = [];
    return { change, incident: structuredClone(o.record), evidence };
  }

  private refreshSummary(o: OpenIncidentState): void {
    const r = o.record;
    r.summary = buildSummary({
      originType: r.origin.type,
      originId: r.origin.id,
      knownName: this.cfg.names[r.origin.id] ?? null,
      operation: r.operation,
      status: r.status,
      severity: r.severity,
      originClass: r.originClass,
      startedAtMs: o.startedAtMs,
      recoveredAtMs: o.recoveredAtMs,
      resolvedAtMs: r.resolvedAt === null ? null : Date.parse(r.resolvedAt),
      affectedPartners: r.affectedPartners,
      cohortNames: r.cohortIspbs.map((i) => this.cfg.names[i] ?? `ISPB ${i}`),
      signal: o.signal,
      trend: o.trend ?? null,
    });
  }

  toJSON(): TrackerState {
    return { candidates: [...this.candidates.values()], open: [...this.open.values()] };
  }

  static fromJSON(state: TrackerState, cfg: AnalyzerConfig): IncidentTracker {
    const t = new IncidentTracker(cfg);
    for (const c of state.candidates) t.candidates.set(c.key, c);
    for (const o of state.open) t.open.set(o.record.patternKey, o);
    return t;
  }
}
