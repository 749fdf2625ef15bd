// The analyzer: one instance holds the whole platform's health state. Feed it observations in time order
// (`ingest`), let time pass (`advanceTo`, silence is a signal), persist it (`snapshot` / `restore`).
// Pure: no bindings, no I/O, deterministic for a given input, so the Durable Object and the replay CLI
// produce the same incidents.
import { attributeFamily, explainedByPartner, type WindowContext } from './attribution';
import { expectedCount, newSeasonal, type SeasonalState, updateSeasonal } from './baseline';
import { pooledCohort, shortInstitutions } from './cohort';
import { type AnalyzerConfig, resolveConfig } from './config';
import { Counts } from './counts';
import { diagnose, type Hypothesis, mergeOrigins } from './diagnosis';
import { evaluate, type Family, PRIMARY_FAMILIES, rawResidual } from './evaluate';
import { COMMON_DIP, CREATED_BLAMES, countsAgainst, intakeRatio } from './evidence-rules';
import { dominantCode, FAILURE_CODE_COUNT, failureCodeIndex } from './failure-codes';
import { IncidentTracker, type TrackerState } from './lifecycle';
import { parseInstant } from './observation';
import { kappa, newRing, type Ring, ringPush } from './stats';
import type { IncidentChange, IncidentRecord, Observation, Operation } from './types';
import type { CellData, EntityView, SliceKind } from './views';
import { isoZ, WINDOW_MS } from './window';

type OpIndex = 0 | 1;
const OPS: readonly [Operation, Operation] = ['CASH_IN', 'CASH_OUT'];
const EMPTY: readonly IncidentChange[] = Object.freeze([]);
const KAPPA_MIN_VALUES = 8;
const KAPPA_CAP = 10;

interface EntityOp {
  /** Failures by code in the open window; EW history of the same and of outcomes. */
  codes: number[];
  codeEw: number[];
  codeEwN: number;
  created: SeasonalState;
  outcomes: SeasonalState;
  rErr: Ring;
  rLat: Ring;
  rExp: Ring;
  /** Consecutive anomalous windows (for the re-baseline escape hatch). */
  streak: number;
}

interface Entity {
  kind: SliceKind;
  id: string;
  ops: [EntityOp, EntityOp];
  /** Transient, set while a window closes: may this entity's baseline learn from the window? */
  learn: [boolean, boolean];
}

class Cell {
  acc: [Counts, Counts] = [new Counts(), new Counts()];
  ew: [Counts, Counts] = [new Counts(), new Counts()];
  constructor(readonly col: Entity | null) {}
}

interface Partner {
  entity: Entity;
  inst: Map<string, Cell>;
  clients: Map<string, Cell>;
}

function newEntityOp(): EntityOp {
  return {
    codes: new Array<number>(FAILURE_CODE_COUNT).fill(0),
    codeEw: new Array<number>(FAILURE_CODE_COUNT).fill(0),
    codeEwN: 0,
    created: newSeasonal(),
    outcomes: newSeasonal(),
    rErr: newRing(),
    rLat: newRing(),
    rExp: newRing(),
    streak: 0,
  };
}

function newEntity(kind: SliceKind, id: string): Entity {
  return { kind, id, ops: [newEntityOp(), newEntityOp()], learn: [true, true] };
}

export interface AnalyzerStats {
  ingested: number;
  /** Counted in the open window although their timestamp was a little earlier. */
  late: number;
  /** Older than the open window by more than allowedLatenessMs: ignored. */
  droppedLate: number;
  windowsClosed: number;
}

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
  shortBefore?: [string[], string[]];
}

export class Analyzer {
  readonly cfg: AnalyzerConfig;
  private platform = newEntity('platform', 'platform');
  private partners = new Map<string, Partner>();
  private institutions = new Map<string, Entity>();
  private clients = new Map<string, Entity>();
  private tracker: IncidentTracker;
  private openWindow: number | null = null;
  private firstWindow: number | null = null;
  private stats: AnalyzerStats = { ingested: 0, late: 0, droppedLate: 0, windowsClosed: 0 };
  /** Per operation, the banks short in the last closed window (selection of the pooled cohort test). */
  private shortBefore: [string[], string[]] = [[], []];

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
    const op: OpIndex = obs.operation === 'CASH_IN' ? 0 : 1;
    let partner = this.partners.get(obs.partnerIspb);
    if (partner === undefined) partner = this.addPartner(obs.partnerIspb);
    const instId = obs.institutionIspb ?? '';
    let ic = partner.inst.get(instId);
    if (ic === undefined) ic = this.addInstitutionCell(partner, instId);
    let cc = partner.clients.get(obs.clientId);
    if (cc === undefined) cc = this.addClientCell(partner, obs.clientId);
    const a = ic.acc[op];
    const b = cc.acc[op];
    switch (obs.event) {
      case 'CREATED':
        a.created++;
        b.created++;
        break;
      case 'SETTLED': {
        a.settled++;
        b.settled++;
        const l = obs.latencyMs;
        if (l !== undefined) {
          const sq = l * l;
          a.latSum += l;
          a.latSq += sq;
          a.latN++;
          b.latSum += l;
          b.latSq += sq;
          b.latN++;
        }
        break;
      }
      case 'FAILED': {
        a.failed++;
        b.failed++;
        const k = failureCodeIndex(obs.failureCode);
        this.platform.ops[op].codes[k]!++;
        partner.entity.ops[op].codes[k]!++;
        if (ic.col) ic.col.ops[op].codes[k]!++;
        cc.col!.ops[op].codes[k]!++;
        break;
      }
      case 'EXPIRED':
        a.expired++;
        b.expired++;
        break;
      case 'RETURNED':
        a.returned++;
        b.returned++;
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
    this.partners.set(ispb, p);
    return p;
  }

  private addInstitutionCell(p: Partner, id: string): Cell {
    let col: Entity | null = null;
    if (id !== '') {
      col = this.institutions.get(id) ?? null;
      if (col === null) {
        col = newEntity('institution', id);
        this.institutions.set(id, col);
      }
    }
    const c = new Cell(col);
    p.inst.set(id, c);
    return c;
  }

  private addClientCell(p: Partner, id: string): Cell {
    let col = this.clients.get(id);
    if (!col) {
      col = newEntity('client', id);
      this.clients.set(id, col);
    }
    const c = new Cell(col);
    p.clients.set(id, c);
    return c;
  }

  private closeBefore(w: number): IncidentChange[] {
    const changes: IncidentChange[] = [];
    while (this.openWindow! < w) {
      for (const c of this.closeWindow(this.openWindow!)) changes.push(c);
      this.openWindow!++;
    }
    return changes;
  }

  private closeWindow(w: number): IncidentChange[] {
    const startMs = w * WINDOW_MS;
    const changes: IncidentChange[] = [];
    for (const op of [0, 1] as const) {
      const ctx = this.buildContext(op, startMs);
      const anyAnomaly =
        ctx.platform.anomalous ||
        ctx.partners.some((v) => v.anomalous) ||
        ctx.institutions.some((v) => v.anomalous) ||
        ctx.clients.some((v) => v.anomalous);
      let hypotheses: Hypothesis[] = [];
      const cohort = pooledCohort(ctx, this.shortBefore[op]);
      this.shortBefore[op] = shortInstitutions(ctx);
      if (anyAnomaly || cohort) {
        const perFamily = PRIMARY_FAMILIES.map((f) => attributeFamily(ctx, f));
        if (cohort) perFamily.push([cohort]);
        const origins = mergeOrigins(perFamily);
        // The pooled cohort was found on the relaxed outcome test (see cohort.ts): judge it the same way.
        hypotheses = origins
          .map((o) => diagnose(ctx, o, cohort && o.kind === 'cohort' ? ['outcomes'] : []))
          .filter((h) => h.families.length > 0);
        // What a parent (a partner origin, now or open) explains does not open children.
        const parents = new Set(hypotheses.filter((h) => h.kind === 'partner').map((h) => h.id));
        for (const o of this.tracker.openIncidents()) {
          if (o.kind === 'partner' && o.record.operation === OPS[op]) parents.add(o.id);
        }
        if (parents.size > 0) {
          hypotheses = hypotheses.filter((h) => !explainedByPartner(ctx, h, [...parents]));
        }
      }
      if (this.cfg.onWindow) {
        this.cfg.onWindow({
          windowStart: isoZ(startMs),
          operation: OPS[op],
          anomalous: [ctx.platform, ...ctx.partners, ...ctx.institutions, ...ctx.clients]
            .map((v) => ({
              kind: v.kind,
              id: v.id,
              families: (Object.keys(v.evals) as Family[]).filter((f) => v.evals[f]?.anomalous),
            }))
            .filter((v) => v.families.length > 0),
          origins: hypotheses.map((h) => h.key),
        });
      }
      const stepChanges = this.tracker.step({
        op: OPS[op],
        windowIndex: w,
        hypotheses,
        warm: this.isWarm(w),
        diagnoseOpen: (o) => diagnose(ctx, { kind: o.kind, id: o.id, members: o.members }, o.families),
        clientsFor: (h) => this.clientsFor(op, h),
      });
      for (const c of stepChanges) changes.push(c);
      this.learn(op, ctx, startMs);
    }
    this.stats.windowsClosed++;
    return changes;
  }

  private clientsFor(op: OpIndex, h: Hypothesis): string[] {
    if (h.kind === 'client') return [h.id];
    const out = new Set<string>();
    const active = (c: Cell) => {
      const e = c.ew[op];
      const a = c.acc[op];
      return e.created + e.settled + e.failed + a.created + a.settled + a.failed > 0;
    };
    for (const [pid, p] of this.partners) {
      if (h.kind === 'partner' && pid !== h.id) continue;
      for (const [cid, c] of p.clients) if (active(c)) out.add(cid);
    }
    return [...out].sort();
  }

  private entityView(
    e: Entity,
    op: OpIndex,
    counts: Counts,
    ew: Counts,
    startMs: number,
    intake?: number,
    createdScale = 1,
  ): EntityView {
    const eo = e.ops[op];
    const expCreatedRaw = expectedCount(eo.created, startMs, this.cfg);
    const expCreated = expCreatedRaw === null ? null : expCreatedRaw * createdScale;
    const expOutcomesRaw = expectedCount(eo.outcomes, startMs, this.cfg);
    const v: EntityView = {
      kind: e.kind,
      id: e.id,
      counts,
      ew,
      expCreated,
      expOutcomes:
        expOutcomesRaw === null
          ? null
          : expOutcomesRaw * (intake ?? intakeRatio(counts.created, expCreatedRaw)),
      k: {
        created: kappa(eo.created.resid, KAPPA_MIN_VALUES, KAPPA_CAP),
        outcomes: kappa(eo.outcomes.resid, KAPPA_MIN_VALUES, KAPPA_CAP),
        errors: kappa(eo.rErr, KAPPA_MIN_VALUES, KAPPA_CAP),
        latency: kappa(eo.rLat, KAPPA_MIN_VALUES, KAPPA_CAP),
        expiry: kappa(eo.rExp, KAPPA_MIN_VALUES, KAPPA_CAP),
      },
      codes: eo.codes,
      codeEw: eo.codeEw,
      codeEwN: eo.codeEwN,
      evals: {},
      loose: {},
      anomalous: false,
      suspicious: false,
    };
    const families: readonly Family[] = op === 0 ? [...PRIMARY_FAMILIES, 'expiry'] : PRIMARY_FAMILIES;
    for (const f of families) {
      const ev = evaluate(v, f, this.cfg);
      if (ev.anomalous) {
        const layer =
          f === 'errors'
            ? (dominantCode(eo.codes, eo.codeEw, eo.codeEwN, counts.settled + counts.failed)?.layer ?? null)
            : null;
        if (!countsAgainst(e.kind, OPS[op], f, ev, layer)) ev.anomalous = false;
      }
      v.evals[f] = ev;
      if (ev.anomalous && f !== 'expiry') v.anomalous = true;
    }
    for (const f of PRIMARY_FAMILIES) {
      const loose = evaluate(v, f, this.cfg, true);
      v.loose[f] = loose;
      // Only evidence that may blame this kind of slice keeps its baseline from learning: a bank or a
      // partner with fewer new transactions on a holiday is not hurt, and must learn the quieter day.
      if (f === 'created' && !CREATED_BLAMES.includes(e.kind)) continue;
      if (loose.anomalous || v.evals[f]?.anomalous) v.suspicious = true;
    }
    return v;
  }

  private buildContext(op: OpIndex, startMs: number): WindowContext {
    const instSums = new Map<Entity, [Counts, Counts]>();
    const clientSums = new Map<Entity, [Counts, Counts]>();
    const platformCounts = new Counts();
    const platformEw = new Counts();
    const partnerViews: EntityView[] = [];
    const accumulate = (sums: Map<Entity, [Counts, Counts]>, e: Entity, c: Cell) => {
      let s = sums.get(e);
      if (!s) {
        s = [new Counts(), new Counts()];
        sums.set(e, s);
      }
      s[0].add(c.acc[op]);
      s[1].add(c.ew[op]);
    };
    for (const p of this.partners.values()) {
      const counts = new Counts();
      const ew = new Counts();
      for (const c of p.inst.values()) {
        counts.add(c.acc[op]);
        ew.add(c.ew[op]);
        if (c.col) accumulate(instSums, c.col, c);
      }
      for (const c of p.clients.values()) accumulate(clientSums, c.col!, c);
      platformCounts.add(counts);
      platformEw.add(ew);
      partnerViews.push(this.entityView(p.entity, op, counts, ew, startMs));
    }
    // A Cash-In charge has no bank until paid: banks' outcomes are scaled by the platform's intake.
    const platformIntake = intakeRatio(
      platformCounts.created,
      expectedCount(this.platform.ops[op].created, startMs, this.cfg),
    );

    const institutions = [...instSums].map(([e, [c, ew]]) =>
      this.entityView(e, op, c, ew, startMs, platformIntake),
    );
    // A merchant's intake is judged against the rest of the platform's: a holiday or our own outage lowers
    // every client alike and is explained by the parent, not by each merchant.
    const platformExpCreated = expectedCount(this.platform.ops[op].created, startMs, this.cfg);
    const clients = [...clientSums].map(([e, [c, ew]]) => {
      const own = expectedCount(e.ops[op].created, startMs, this.cfg);
      const common =
        own === null || platformExpCreated === null
          ? 1
          : intakeRatio(platformCounts.created - c.created, Math.max(0, platformExpCreated - own));
      return this.entityView(e, op, c, ew, startMs, undefined, common < COMMON_DIP ? common : 1);
    });
    const platform = this.entityView(this.platform, op, platformCounts, platformEw, startMs);
    const index = new Map<string, EntityView>();
    for (const v of [...partnerViews, ...institutions, ...clients]) index.set(`${v.kind}:${v.id}`, v);
    const partners = this.partners;
    return {
      cfg: this.cfg,
      op: OPS[op],
      windowStartMs: startMs,
      platform,
      partners: partnerViews,
      institutions,
      clients,
      cell(partnerId, kind, id): CellData | undefined {
        const p = partners.get(partnerId);
        const c = kind === 'institution' ? p?.inst.get(id) : p?.clients.get(id);
        return c ? { acc: c.acc[op], ew: c.ew[op] } : undefined;
      },
      *cellsOf(partnerId, kind) {
        const p = partners.get(partnerId);
        if (!p) return;
        for (const [id, c] of kind === 'institution' ? p.inst : p.clients) {
          yield [id, { acc: c.acc[op], ew: c.ew[op] }] as [string, CellData];
        }
      },
      find(kind, id) {
        return kind === 'platform' ? platform : index.get(`${kind}:${id}`);
      },
    };
  }

  /**
   * Baselines learn only from windows where the entity looked normal: not anomalous, not even hurt by the
   * relaxed test, and not the origin of an open incident (a fault that the z-score starts to tolerate
   * must not teach the baseline that it is normal). After `rebaselineAfterWindows` such windows in a row
   * the baseline follows the data again (a lasting change of level).
   */
  private learn(op: OpIndex, ctx: WindowContext, startMs: number): void {
    const cfg = this.cfg;
    const decay = 1 - 1 / cfg.ewWindows;
    const frozen = new Set<string>();
    for (const o of this.tracker.openIncidents()) {
      if (o.record.operation !== OPS[op]) continue;
      if (o.kind === 'cohort') for (const m of o.members) frozen.add(`institution:${m}`);
      else frozen.add(`${o.kind}:${o.id}`);
    }
    const views: [Entity, EntityView][] = [[this.platform, ctx.platform]];
    for (const v of ctx.partners) views.push([this.partners.get(v.id)!.entity, v]);
    for (const v of ctx.institutions) views.push([this.institutions.get(v.id)!, v]);
    for (const v of ctx.clients) views.push([this.clients.get(v.id)!, v]);
    for (const [e, v] of views) {
      const eo = e.ops[op];
      const abnormal = v.suspicious || frozen.has(`${v.kind}:${v.id}`);
      eo.streak = abnormal ? eo.streak + 1 : 0;
      const normal = !abnormal || eo.streak > cfg.rebaselineAfterWindows;
      e.learn[op] = normal;
      updateSeasonal(eo.created, startMs, v.counts.created, v.expCreated, normal, cfg);
      updateSeasonal(eo.outcomes, startMs, v.counts.settled + v.counts.failed, v.expOutcomes, normal, cfg);
      if (normal) {
        const rErr = rawResidual(v, 'errors', cfg);
        if (rErr !== null) ringPush(eo.rErr, rErr, cfg.residualWindows);
        const rLat = rawResidual(v, 'latency', cfg);
        if (rLat !== null) ringPush(eo.rLat, rLat, cfg.residualWindows);
        const rExp = rawResidual(v, 'expiry', cfg);
        if (rExp !== null) ringPush(eo.rExp, rExp, cfg.residualWindows);
        for (let k = 0; k < FAILURE_CODE_COUNT; k++) eo.codeEw[k] = eo.codeEw[k]! * decay + eo.codes[k]!;
        eo.codeEwN = eo.codeEwN * decay + v.counts.settled + v.counts.failed;
      }
    }
    for (const p of this.partners.values()) {
      const partnerNormal = p.entity.learn[op];
      for (const cells of [p.inst, p.clients]) {
        for (const c of cells.values()) {
          if (partnerNormal && (c.col === null || c.col.learn[op])) c.ew[op].decayAdd(c.acc[op], decay);
          c.acc[op].reset();
        }
      }
    }
    for (const [e] of views) e.ops[op].codes.fill(0);
  }

  // ---- persistence -------------------------------------------------------------------------------

  /** Plain JSON-serialisable state (a deep copy). Persist it; `Analyzer.restore` continues identically. */
  snapshot(): AnalyzerSnapshot {
    const entity = (e: Entity) => ({ kind: e.kind, id: e.id, ops: e.ops });
    const cells = (m: Map<string, Cell>) =>
      [...m].map(([id, c]) => [id, { acc: c.acc.map((x) => x.toJSON()), ew: c.ew.map((x) => x.toJSON()) }]);
    const state: AnalyzerSnapshot = {
      version: 1,
      openWindow: this.openWindow,
      firstWindow: this.firstWindow,
      stats: this.stats,
      platform: entity(this.platform),
      partners: [...this.partners.values()].map((p) => ({
        entity: entity(p.entity),
        inst: cells(p.inst),
        clients: cells(p.clients),
      })),
      institutions: [...this.institutions.values()].map(entity),
      clients: [...this.clients.values()].map(entity),
      tracker: this.tracker.toJSON(),
      shortBefore: this.shortBefore,
    };
    return JSON.parse(JSON.stringify(state)) as AnalyzerSnapshot;
  }

  static restore(snapshot: AnalyzerSnapshot, config: Partial<AnalyzerConfig> = {}): Analyzer {
    if (snapshot?.version !== 1) throw new Error('unsupported health analyzer snapshot');
    const s = JSON.parse(JSON.stringify(snapshot)) as SnapshotShape;
    const a = new Analyzer(config);
    const entity = (j: EntityJSON): Entity => ({ kind: j.kind, id: j.id, ops: j.ops, learn: [true, true] });
    a.openWindow = s.openWindow;
    a.firstWindow = s.firstWindow;
    a.stats = s.stats;
    a.platform = entity(s.platform);
    for (const e of s.institutions) a.institutions.set(e.id, entity(e));
    for (const e of s.clients) a.clients.set(e.id, entity(e));
    const cell = (col: Entity | null, j: CellJSON): Cell => {
      const c = new Cell(col);
      c.acc = [Counts.fromJSON(j.acc[0]), Counts.fromJSON(j.acc[1])];
      c.ew = [Counts.fromJSON(j.ew[0]), Counts.fromJSON(j.ew[1])];
      return c;
    };
    for (const pj of s.partners) {
      const p: Partner = { entity: entity(pj.entity), inst: new Map(), clients: new Map() };
      for (const [id, cj] of pj.inst) p.inst.set(id, cell(id === '' ? null : a.institutions.get(id)!, cj));
      for (const [id, cj] of pj.clients) p.clients.set(id, cell(a.clients.get(id)!, cj));
      a.partners.set(p.entity.id, p);
    }
    a.tracker = IncidentTracker.fromJSON(s.tracker, a.cfg);
    a.shortBefore = s.shortBefore ?? [[], []];
    return a;
  }
}

interface EntityJSON {
  kind: SliceKind;
  id: string;
  ops: [EntityOp, EntityOp];
}

interface CellJSON {
  acc: [number[], number[]];
  ew: [number[], number[]];
}

interface SnapshotShape {
  version: 1;
  openWindow: number | null;
  firstWindow: number | null;
  stats: AnalyzerStats;
  platform: EntityJSON;
  partners: { entity: EntityJSON; inst: [string, CellJSON][]; clients: [string, CellJSON][] }[];
  institutions: EntityJSON[];
  clients: EntityJSON[];
  tracker: TrackerState;
  shortBefore?: [string[], string[]];
}
