// The analyzer: one instance holds the whole platform's health state. Feed it observations in time order
// (`ingest`), let time pass (`advanceTo`, silence is a signal), persist it (`snapshot` / `restore`).
// Pure: no bindings, no I/O, deterministic for a given input, so the Durable Object and the replay CLI
// produce the same incidents.

import type { WindowContext } from './attribution/attribution';
import { type ScannerState, scanWindow } from './attribution/cohort-cusum-tracker';
import { diagnose, type Hypothesis } from './attribution/diagnosis';
import { judgeWindow } from './attribution/judge';
import {
  type BankTally,
  COHORT_HOLD_WINDOWS,
  COHORT_TALLY_WINDOWS,
  COHORT_TEST_WINDOWS,
  pooledOutcomes,
  suspectedInstitutions,
  tallyInstitutions,
  tallyShares,
} from './attribution/pooled-cohort';
import { learn } from './baselines/learning';
import { type AnalyzerConfig, resolveConfig } from './config';
import { IncidentTracker, type TrackerState } from './lifecycle/lifecycle';
import { CASH_IN_LATENCY_EVIDENCE } from './scoring/evidence-rules';
import { CUSUM_HOLD } from './scoring/trend-rules';
import { buildContext } from './scoring/window-context';
import { cellSeries, type SeriesPoint } from './surface/series';
import { stateFromJSON, stateToJSON } from './surface/snapshot';
import type { IncidentChange, IncidentRecord, Observation, Operation } from './types';
import { failureCodeIndex } from './windows/code-layers';
import { parseInstant } from './windows/observation';
import {
  Cell,
  type Entity,
  type HealthState,
  newEntity,
  newState,
  OPS,
  type OpIndex,
  type Partner,
} from './windows/state';
import { WINDOW_MS } from './windows/window';

const EMPTY: readonly IncidentChange[] = Object.freeze([]);

/** Where each operation's counts sit in a cell's and an entity's pairs. */
const OP_INDEX: Readonly<Record<Operation, OpIndex>> = { CASH_IN: 0, CASH_OUT: 1 };

export interface AnalyzerStats {
  ingested: number;
  /** Counted in the open window although their timestamp was a little earlier. */
  late: number;
  /** Older than the open window by more than allowedLatenessMs: ignored. */
  droppedLate: number;
  windowsClosed: number;
  /** Empty windows of long gaps passed over without being judged one by one (closeBefore). */
  windowsSkipped: number;
}

/**
 * The most windows one gap closes one by one: a day. Silence is judged and learned window by window
 * for a day (every rule's horizon is shorter); past that, the windows left in the gap are passed over
 * at once, so closing a gap costs at most a day of windows however long it is.
 */
export const MAX_CLOSED_PER_GAP = 288;

export interface AnalyzerSnapshot {
  version: 1;
  openWindow: number | null;
  firstWindow: number | null;
  stats: AnalyzerStats;
  platform: unknown;
  partners: unknown[];
  institutions: unknown[];
  clients: unknown[];
  tracker: TrackerState;
  tallies?: [BankTally[], BankTally[]];
  scans?: [ScannerState, ScannerState];
}

export class Analyzer {
  readonly cfg: AnalyzerConfig;
  private state: HealthState = newState();
  private tracker: IncidentTracker;
  private openWindow: number | null = null;
  private firstWindow: number | null = null;
  private stats: AnalyzerStats = {
    ingested: 0,
    late: 0,
    droppedLate: 0,
    windowsClosed: 0,
    windowsSkipped: 0,
  };
  /** Per operation, the small banks' outcomes in the last COHORT_TALLY_WINDOWS closed windows (newest first). */
  private tallies: [BankTally[], BankTally[]] = [[], []];
  /** Per operation, the cohort CUSUM scan's per-bank state (scoring/cohort-cusum.ts). */
  private scans: [ScannerState, ScannerState] = [
    { banks: {}, run: 0 },
    { banks: {}, run: 0 },
  ];

  /** Gets each closing window's per-partner and per-institution counts, as judged (console plots). */
  seriesSink: ((points: SeriesPoint[]) => void) | null = null;

  constructor(config: Partial<AnalyzerConfig> = {}) {
    this.cfg = resolveConfig(config);
    this.tracker = new IncidentTracker(this.cfg);
  }

  /**
   * Count one observation (already validated, see parseObservation). Closes the windows it moves past and
   * returns the incident changes that produced (usually none).
   */
  ingest(obs: Observation, atMs: number = parseInstant(obs.at)): readonly IncidentChange[] {
    if (!Number.isFinite(atMs)) throw new RangeError(`invalid observation time: ${obs.at}`);
    const w = Math.floor(atMs / WINDOW_MS);
    let out: readonly IncidentChange[] = EMPTY;
    if (this.openWindow === null) this.begin(w);
    else if (w > this.openWindow) out = this.closeBefore(w);
    else if (w < this.openWindow) {
      if (atMs < this.openWindow * WINDOW_MS - this.cfg.allowedLatenessMs) {
        this.stats.droppedLate++;
        return out;
      }
      this.stats.late++;
    }
    const op = OP_INDEX[obs.operation];
    const partner = this.state.partners.get(obs.partnerIspb) ?? this.addPartner(obs.partnerIspb);
    const institutionId = obs.institutionIspb ?? '';
    const institutionCell =
      partner.inst.get(institutionId) ?? this.addInstitutionCell(partner, institutionId);
    const clientCell = partner.clients.get(obs.clientId) ?? this.addClientCell(partner, obs.clientId);
    const counts = [institutionCell.acc[op], clientCell.acc[op]];
    switch (obs.event) {
      case 'CREATED':
        for (const c of counts) c.created++;
        break;
      case 'SETTLED': {
        // A Cash-In's latency is evidence only when CASH_IN_LATENCY_EVIDENCE says so.
        const latencyMs = op === OP_INDEX.CASH_OUT || CASH_IN_LATENCY_EVIDENCE ? obs.latencyMs : undefined;
        for (const c of counts) c.settle(latencyMs);
        break;
      }
      case 'FAILED':
        for (const c of counts) c.failed++;
        this.countFailureCode(op, failureCodeIndex(obs.failureCode), [
          this.state.platform,
          partner.entity,
          institutionCell.col,
          clientCell.col,
        ]);
        break;
      case 'EXPIRED':
        for (const c of counts) c.expired++;
        break;
      case 'RETURNED':
        for (const c of counts) c.returned++;
        break;
    }
    this.stats.ingested++;
    return out;
  }

  /** Close every window that ends at or before `time` (ms or ISO). Silence is judged like traffic. */
  advanceTo(time: number | string): IncidentChange[] {
    const ms = typeof time === 'number' ? time : parseInstant(time);
    if (!Number.isFinite(ms)) throw new RangeError(`invalid time: ${String(time)}`);
    const w = Math.floor(ms / WINDOW_MS);
    if (this.openWindow === null) {
      this.begin(w);
      return [];
    }
    return w > this.openWindow ? this.closeBefore(w) : [];
  }

  /** Open (not yet resolved) incidents, copies. */
  openIncidents(): IncidentRecord[] {
    return this.tracker.openIncidents().map((o) => structuredClone(o.record));
  }

  getIncident(incidentId: string): IncidentRecord | undefined {
    const o = this.tracker.openIncidents().find((x) => x.record.incidentId === incidentId);
    return o ? structuredClone(o.record) : undefined;
  }

  /** The open window's per-partner and per-institution counts so far (series.ts), from the same cells. */
  openSeries(): SeriesPoint[] {
    if (this.openWindow === null) return [];
    const w = this.openWindow * WINDOW_MS;
    return [...cellSeries(this.state.partners, 0, w), ...cellSeries(this.state.partners, 1, w)];
  }

  /** Start of the window currently accumulating (ms), or null before any input. */
  get openWindowStartMs(): number | null {
    return this.openWindow === null ? null : this.openWindow * WINDOW_MS;
  }

  /** Start of the first window this analyzer ever saw (ms), or null before any input. */
  get firstWindowStartMs(): number | null {
    return this.firstWindow === null ? null : this.firstWindow * WINDOW_MS;
  }

  /** True once the warm-up has passed for the open window (incidents may be opened). */
  get warm(): boolean {
    return this.openWindow !== null && this.isWarm(this.openWindow);
  }

  getStats(): AnalyzerStats {
    return { ...this.stats };
  }

  private begin(w: number): void {
    this.openWindow = w;
    this.firstWindow ??= w;
  }

  private isWarm(w: number): boolean {
    return this.firstWindow !== null && (w - this.firstWindow) * WINDOW_MS >= this.cfg.warmupMs;
  }

  private addPartner(ispb: string): Partner {
    const p: Partner = { entity: newEntity('partner', ispb), inst: new Map(), clients: new Map() };
    this.state.partners.set(ispb, p);
    return p;
  }

  private addInstitutionCell(p: Partner, id: string): Cell {
    let col: Entity | null = null;
    if (id !== '') {
      col = this.state.institutions.get(id) ?? null;
      if (col === null) {
        col = newEntity('institution', id);
        this.state.institutions.set(id, col);
      }
    }
    const c = new Cell(col);
    p.inst.set(id, c);
    return c;
  }

  private addClientCell(p: Partner, id: string): Cell {
    let col = this.state.clients.get(id);
    if (!col) {
      col = newEntity('client', id);
      this.state.clients.set(id, col);
    }
    const c = new Cell(col);
    p.clients.set(id, c);
    return c;
  }

  /** A failure's code, on every entity it belongs to (an institution without its own entity: none). */
  private countFailureCode(op: OpIndex, code: number, entities: readonly (Entity | null)[]): void {
    for (const entity of entities) {
      const codes = entity?.ops[op].codes;
      if (codes) codes[code] = (codes[code] ?? 0) + 1;
    }
  }

  /** Closes the open window and each after it before `w` (a day of them one by one, the rest at once). */
  private closeBefore(w: number): IncidentChange[] {
    const changes: IncidentChange[] = [];
    let open = this.openWindow ?? w;
    const judgedUntil = Math.min(w, open + MAX_CLOSED_PER_GAP);
    while (open < judgedUntil) {
      for (const c of this.closeWindow(open)) changes.push(c);
      open++;
      this.openWindow = open;
    }
    if (open < w) {
      this.stats.windowsSkipped += w - open;
      this.openWindow = w;
    }
    return changes;
  }

  private closeWindow(w: number): IncidentChange[] {
    const startMs = w * WINDOW_MS;
    const changes: IncidentChange[] = [];
    for (const op of [0, 1] as const) {
      const ctx = buildContext(this.state, this.cfg, op, startMs);
      // The small banks' tallies of t-1, t-2 .., newest first (attribution/pooled-cohort.ts).
      const tallies = this.tallies[op];
      const tally = tallyInstitutions(ctx);
      const open = this.tracker.openIncidents();
      const openCohort = open.find((o) => o.kind === 'cohort' && o.record.operation === ctx.op);
      const shares = tallyShares(ctx, tally, this.state, op);
      const platformOutcomes = this.state.platform.ops[op].outcomes;
      const scan = scanWindow(ctx, this.scans[op], shares, openCohort?.members ?? null, platformOutcomes);
      this.scans[op] = scan.state;
      const hypotheses = judgeWindow(ctx, tallies, open, scan.origin);
      // Banks of a cohort being confirmed do not teach their baselines the drop meanwhile.
      const withheld = suspectedInstitutions(ctx, tallies);
      for (const h of hypotheses) if (h.kind === 'cohort') withheld.push(...h.members);
      for (const m of withheld) {
        const v = ctx.find('institution', m);
        if (v) v.suspicious = true;
      }
      this.tallies[op] = [tally, ...tallies].slice(0, COHORT_TALLY_WINDOWS);
      // Before learn() resets the cells: the counts this window was judged on.
      if (this.seriesSink) this.seriesSink(cellSeries(this.state.partners, op, startMs));
      const stepChanges = this.tracker.step({
        op: OPS[op],
        windowIndex: w,
        hypotheses,
        warm: this.isWarm(w),
        // An open cohort stays judged on its members' outcomes pooled over the test windows.
        diagnoseOpen: (o) =>
          diagnose(
            ctx,
            { kind: o.kind, id: o.id, members: o.members, ...this.openCohortEval(ctx, o, tallies) },
            o.families,
          ),
        // A cohort candidate is held through a gap on the longest horizon its opening test uses.
        diagnoseCandidate: (o) =>
          diagnose(
            ctx,
            {
              kind: o.kind,
              id: o.id,
              members: o.members,
              ...this.openCohortEval(ctx, o, tallies, COHORT_HOLD_WINDOWS),
            },
            o.families,
          ),
        persists: (o) => {
          const v = o.kind === 'cohort' ? undefined : ctx.find(o.kind, o.id);
          // A window without outcomes at the origin neither confirms nor clears (as for open incidents).
          const empty = v !== undefined && v.counts.settled + v.counts.failed === 0;
          return v !== undefined && v.cusum >= CUSUM_HOLD && (v.llr > 0 || empty);
        },
        clientsFor: (h) => this.clientsFor(op, h),
      });
      for (const c of stepChanges) changes.push(c);
      learn(this.state, this.cfg, this.tracker.openIncidents(), op, ctx, startMs);
    }
    this.stats.windowsClosed++;
    return changes;
  }

  private openCohortEval(
    ctx: WindowContext,
    o: { kind: string; members: string[] },
    tallies: BankTally[],
    windows = COHORT_TEST_WINDOWS,
  ) {
    const p = o.kind === 'cohort' ? pooledOutcomes(ctx, o.members, tallies, true, windows) : null;
    return p ? { pooled: p.eval } : {};
  }

  private clientsFor(op: OpIndex, h: Hypothesis): string[] {
    if (h.kind === 'client') return [h.id];
    const out = new Set<string>();
    const active = (c: Cell) => {
      const e = c.ew[op];
      const a = c.acc[op];
      return e.created + e.settled + e.failed + a.created + a.settled + a.failed > 0;
    };
    for (const [pid, p] of this.state.partners) {
      if (h.kind === 'partner' && pid !== h.id) continue;
      for (const [cid, c] of p.clients) if (active(c)) out.add(cid);
    }
    return [...out].sort();
  }

  // ---- persistence -------------------------------------------------------------------------------

  /** Plain JSON-serialisable state (a deep copy). Persist it; `Analyzer.restore` continues identically. */
  snapshot(): AnalyzerSnapshot {
    const snap: AnalyzerSnapshot = {
      version: 1,
      openWindow: this.openWindow,
      firstWindow: this.firstWindow,
      stats: this.stats,
      ...stateToJSON(this.state),
      tracker: this.tracker.toJSON(),
      tallies: this.tallies,
      scans: this.scans,
    };
    return JSON.parse(JSON.stringify(snap)) as AnalyzerSnapshot;
  }

  static restore(snapshot: AnalyzerSnapshot, config: Partial<AnalyzerConfig> = {}): Analyzer {
    if (snapshot?.version !== 1) throw new Error('unsupported health analyzer snapshot');
    const s = JSON.parse(JSON.stringify(snapshot)) as AnalyzerSnapshot;
    const a = new Analyzer(config);
    a.openWindow = s.openWindow;
    a.firstWindow = s.firstWindow;
    a.stats = { ...s.stats, windowsSkipped: s.stats.windowsSkipped ?? 0 };
    a.state = stateFromJSON(s);
    a.tracker = IncidentTracker.fromJSON(s.tracker, a.cfg);
    a.tallies = s.tallies ?? [[], []];
    a.scans = s.scans ?? a.scans;
    return a;
  }
}
