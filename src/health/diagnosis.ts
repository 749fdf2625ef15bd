// From per-family origins to hypotheses: one per origin, with the public classification (origin type,
// originClass, confidence, severity), the partners reached and the evidence of this window.
import type { FamilyOrigin, OriginKind, WindowContext } from './attribution';
import {
  type Eval,
  evalRate,
  evaluate,
  type Family,
  METRIC_NAME,
  maxSeverity,
  PRIMARY_FAMILIES,
  type SliceView,
  severityOf,
  severityRank,
} from './evaluate';
import { type CodeLayer, dominantCode, FAILURE_CODE_COUNT, FAILURE_CODES } from './failure-codes';
import { round } from './stats';
import type { Confidence, EvidenceEntity, EvidenceItem, OriginClass, OriginType, Severity } from './types';
import { cellsView, complementView, type EntityView, isBad, sumViews } from './views';
import { isoZ } from './window';

/** What the summary describes: the worst family at the origin in its latest anomalous window. */
export interface Signal {
  family: Family;
  deviation: number | null;
  impact: number;
  observed: number;
  expected: number;
  code: string | null;
}

export interface Hypothesis {
  /** Pattern key within one operation: `BANKING_PARTNER:<ispb>`, `PAYER_COHORT`, `PLATFORM`, ... */
  key: string;
  kind: OriginKind;
  id: string;
  members: string[];
  originType: OriginType;
  originId: string;
  /** Primary families anomalous at the origin in this window; empty = the origin looks normal. */
  families: Family[];
  severity: Severity;
  confidence: Confidence;
  originClass: OriginClass;
  reachedPartners: string[];
  signal: Signal | null;
  evidence: EvidenceItem[];
}

export function patternKey(kind: OriginKind, id: string): string {
  switch (kind) {
    case 'partner':
      return `BANKING_PARTNER:${id}`;
    case 'institution':
      return `PAYER_INSTITUTION:${id}`;
    case 'client':
      return `MERCHANT:${id}`;
    case 'cohort':
      return 'PAYER_COHORT';
    case 'platform':
      return 'PLATFORM';
  }
}

/** Merge the origins found per family into one list of distinct origins (cohort members are united). */
export function mergeOrigins(perFamily: readonly FamilyOrigin[][]): FamilyOrigin[] {
  const byKey = new Map<string, FamilyOrigin>();
  for (const list of perFamily) {
    for (const o of list) {
      const key = patternKey(o.kind, o.id);
      const prev = byKey.get(key);
      if (!prev) byKey.set(key, { ...o, members: [...o.members] });
      else if (o.kind === 'cohort') {
        prev.members = [...new Set([...prev.members, ...o.members])].sort();
        prev.id = prev.members.join(',');
      }
    }
  }
  return [...byKey.values()];
}

interface OriginSlice {
  view: SliceView;
  codes: number[];
  codeEw: number[];
  codeEwN: number;
  entities: EntityView[];
}

function originSlice(ctx: WindowContext, o: FamilyOrigin): OriginSlice | null {
  let entities: EntityView[];
  if (o.kind === 'platform') entities = [ctx.platform];
  else if (o.kind === 'cohort') {
    entities = o.members
      .map((m) => ctx.find('institution', m))
      .filter((v): v is EntityView => v !== undefined);
  } else {
    const v = ctx.find(o.kind, o.id);
    entities = v ? [v] : [];
  }
  if (entities.length === 0) return null;
  const view = entities.length === 1 ? entities[0]! : sumViews(entities);
  const codes = new Array<number>(FAILURE_CODE_COUNT).fill(0);
  const codeEw = new Array<number>(FAILURE_CODE_COUNT).fill(0);
  let codeEwN = 0;
  for (const e of entities) {
    for (let k = 0; k < FAILURE_CODE_COUNT; k++) {
      codes[k]! += e.codes[k] ?? 0;
      codeEw[k]! += e.codeEw[k] ?? 0;
    }
    codeEwN += e.codeEwN;
  }
  return { view, codes, codeEw, codeEwN, entities };
}

const CONFIRMING_LAYERS: Record<OriginKind, readonly CodeLayer[]> = {
  partner: ['PARTNER'],
  institution: ['INSTITUTION'],
  cohort: ['INSTITUTION'],
  client: ['MERCHANT', 'END_USER'],
  platform: ['PLATFORM'],
};

const CONFIDENCE_RANK: Record<Confidence, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };
const CLASS_RANK: Record<OriginClass, number> = {
  UNKNOWN: 0,
  INFERRED: 1,
  OBSERVED: 2,
  CORROBORATED: 3,
  CONFIRMED: 4,
};

export function confidenceRank(c: Confidence): number {
  return CONFIDENCE_RANK[c];
}

export function originClassRank(c: OriginClass): number {
  return CLASS_RANK[c];
}

function familyGroup(f: Family): number {
  return f === 'latency' ? 1 : f === 'expiry' ? 2 : 0;
}

function trafficOf(c: { created: number; settled: number; failed: number; expired: number }): number {
  return c.created + c.settled + c.failed + c.expired;
}

/** Partners through which at least 5 % of the origin's recent traffic flows. */
function reachedPartners(ctx: WindowContext, o: FamilyOrigin, slice: OriginSlice): string[] {
  if (o.kind === 'partner') return [o.id];
  const total = trafficOf(slice.view.ew);
  if (total <= 0) return [];
  const out: string[] = [];
  for (const p of ctx.partners) {
    let t = 0;
    if (o.kind === 'platform') t = trafficOf(p.ew);
    else if (o.kind === 'cohort') {
      for (const m of o.members) {
        const c = ctx.cell(p.id, 'institution', m);
        if (c) t += trafficOf(c.ew);
      }
    } else {
      const c = ctx.cell(p.id, o.kind, o.id);
      if (c) t = trafficOf(c.ew);
    }
    if (t / total >= 0.05) out.push(p.id);
  }
  return out.sort();
}

/** How many cells of the origin (per partner, or per institution/client of a partner) are hurt too. */
function cellBreadth(
  ctx: WindowContext,
  o: FamilyOrigin,
  slice: OriginSlice,
  families: readonly Family[],
): { evaluated: number; bad: number; items: { view: SliceView; partner: string; id: string }[] } {
  const items: { view: SliceView; partner: string; id: string }[] = [];
  const parent = slice.view;
  if (o.kind === 'partner') {
    for (const kind of ['institution', 'client'] as const) {
      for (const [id, cell] of ctx.cellsOf(o.id, kind)) {
        if (kind === 'institution' && id === '') continue;
        items.push({ view: cellsView(parent, [cell]), partner: o.id, id: `${kind}:${id}` });
      }
    }
  } else if (o.kind === 'institution' || o.kind === 'client') {
    for (const p of ctx.partners) {
      const cell = ctx.cell(p.id, o.kind, o.id);
      if (cell) items.push({ view: cellsView(parent, [cell]), partner: p.id, id: o.id });
    }
  }
  let evaluated = 0;
  let bad = 0;
  for (const it of items) {
    let ev = false;
    let hurt = false;
    for (const f of families) {
      const e = evaluate(it.view, f, ctx.cfg, true);
      ev ||= e.evaluated;
      hurt ||= e.anomalous;
    }
    if (ev) evaluated++;
    if (hurt) bad++;
  }
  return { evaluated, bad, items };
}

function peersNormal(peers: readonly EntityView[], self: readonly EntityView[], families: readonly Family[]) {
  return peers.some((p) => !self.includes(p) && families.some((f) => p.evals[f]?.evaluated) && !p.anomalous);
}

function evidenceItem(ctx: WindowContext, metric: string, entity: EvidenceEntity, e: Eval): EvidenceItem {
  return {
    observedAt: isoZ(ctx.windowStartMs),
    metric,
    entity,
    deviationPercent: e.deviation === null ? null : round(e.deviation, 4),
    z: round(e.z, 2),
  };
}

export function displayNameOf(
  type: OriginType,
  id: string,
  members: readonly string[],
  names: Record<string, string>,
) {
  switch (type) {
    case 'BANKING_PARTNER':
      return names[id] ?? `Parceiro ${id}`;
    case 'PAYER_INSTITUTION':
      return names[id] ?? `Instituição ${id}`;
    case 'PAYER_COHORT':
      return `Grupo de ${members.length} instituições`;
    case 'MERCHANT':
      return 'Sua operação';
    case 'CONNECTPSP':
      return 'ConnectPSP';
    case 'PIX_SYSTEMIC':
      return 'Sistema PIX (SPI)';
  }
}

function originTypeOf(kind: Exclude<OriginKind, 'platform'>): OriginType {
  return kind === 'partner'
    ? 'BANKING_PARTNER'
    : kind === 'institution'
      ? 'PAYER_INSTITUTION'
      : kind === 'client'
        ? 'MERCHANT'
        : 'PAYER_COHORT';
}

/**
 * Judge one origin in the closing window. Used for this window's attributed origins and, for open
 * incidents that were not attributed this window, to see whether their origin still looks anomalous:
 * then `continuing` lists the incident's families, judged with the relaxed test (hysteresis: strict to
 * open, relaxed to stay open, so a fault hovering around the gates does not flap to RECOVERING).
 */
export function diagnose(
  ctx: WindowContext,
  o: FamilyOrigin,
  continuing: readonly Family[] = [],
): Hypothesis {
  const { cfg } = ctx;
  const key = patternKey(o.kind, o.id);
  const slice = originSlice(ctx, o);
  const base: Hypothesis = {
    key,
    kind: o.kind,
    id: o.id,
    members: o.members,
    originType: o.kind === 'platform' ? 'PIX_SYSTEMIC' : originTypeOf(o.kind),
    originId: o.kind === 'platform' ? 'PIX' : o.id,
    families: [],
    severity: 'DEGRADED',
    confidence: 'LOW',
    originClass: 'UNKNOWN',
    reachedPartners: [],
    signal: null,
    evidence: [],
  };
  if (!slice) return base;

  const single = slice.entities.length === 1 ? slice.entities[0]! : null;
  const evals = new Map<Family, Eval>();
  const families: Family[] = ctx.op === 'CASH_IN' ? [...PRIMARY_FAMILIES, 'expiry'] : [...PRIMARY_FAMILIES];
  for (const f of families) {
    const e = continuing.includes(f)
      ? evaluate(slice.view, f, cfg, true)
      : (single?.evals[f] ?? evaluate(slice.view, f, cfg));
    if (e.anomalous) evals.set(f, e);
  }
  const primary = PRIMARY_FAMILIES.filter((f) => evals.has(f));
  base.families = primary;
  base.reachedPartners = reachedPartners(ctx, o, slice);
  if (primary.length === 0) return base;

  // Severity and the headline signal: the worst primary family.
  let severity: Severity = 'DEGRADED';
  let headline: Eval | null = null;
  for (const f of primary) {
    const e = evals.get(f)!;
    const s = severityOf(e);
    severity = maxSeverity(severity, s);
    if (!headline) {
      headline = e;
      continue;
    }
    const rank = severityRank(s);
    const headRank = severityRank(severityOf(headline));
    if (rank > headRank || (rank === headRank && Math.abs(e.z) > Math.abs(headline.z))) headline = e;
  }
  base.severity = severity;

  const outcomes = slice.view.counts.settled + slice.view.counts.failed;
  const code = evals.has('errors') ? dominantCode(slice.codes, slice.codeEw, slice.codeEwN, outcomes) : null;

  // Platform-wide: our own intake or our own error codes point at ConnectPSP; otherwise the common
  // element of independent partners failing together is the PIX network.
  let platformDiscriminator: 'intake' | 'own-codes' | 'network-codes' | 'settlement' | 'latency' = 'latency';
  if (o.kind === 'platform') {
    if (evals.has('created')) platformDiscriminator = 'intake';
    else if (code?.layer === 'PLATFORM') platformDiscriminator = 'own-codes';
    else if (evals.has('errors')) {
      const networkPartners = ctx.partners.filter((p) => {
        if (!p.evals.errors?.anomalous) return false;
        const n = p.counts.settled + p.counts.failed;
        const d = dominantCode(p.codes, p.codeEw, p.codeEwN, n);
        return d !== null && (d.layer === 'PARTNER' || d.layer === 'INSTITUTION');
      }).length;
      platformDiscriminator = networkPartners >= 2 ? 'network-codes' : 'settlement';
    } else if (evals.has('outcomes')) platformDiscriminator = 'settlement';
    base.originType =
      platformDiscriminator === 'intake' || platformDiscriminator === 'own-codes'
        ? 'CONNECTPSP'
        : 'PIX_SYSTEMIC';
    base.originId = base.originType === 'CONNECTPSP' ? 'CONNECTPSP' : 'PIX';
  }

  // originClass: seen errors vs missing activity, upgraded by a second independent signal.
  // Expiries echo missing payments: they corroborate only while charges are still being created.
  const groups = new Set(
    [...evals.keys()].filter((f) => f !== 'expiry' || !evals.has('created')).map(familyGroup),
  );
  let originClass: OriginClass = evals.has('errors') || evals.has('latency') ? 'OBSERVED' : 'INFERRED';
  if (groups.size >= 2 || platformDiscriminator === 'network-codes') originClass = 'CORROBORATED';
  if (code && CONFIRMING_LAYERS[o.kind].includes(code.layer)) originClass = 'CONFIRMED';
  base.originClass = originClass;

  // Confidence: how well the data separates this origin from the alternatives.
  let confidence: Confidence = 'MEDIUM';
  const breadth = cellBreadth(ctx, o, slice, primary);
  switch (o.kind) {
    case 'partner':
      confidence =
        breadth.bad >= 2 &&
        breadth.bad * 2 >= breadth.evaluated &&
        peersNormal(ctx.partners, slice.entities, primary)
          ? 'HIGH'
          : 'MEDIUM';
      break;
    case 'institution':
      confidence =
        breadth.bad >= 2 && peersNormal(ctx.institutions, slice.entities, primary)
          ? 'HIGH'
          : breadth.bad >= 1
            ? 'MEDIUM'
            : 'LOW';
      break;
    case 'client': {
      const rest = complementView(ctx.platform, slice.view);
      const restJudged = primary.some((f) => evaluate(rest, f, cfg).evaluated);
      const restHurt = primary.some((f) => isBad(rest, f, cfg));
      confidence =
        restJudged && !restHurt && peersNormal(ctx.clients, slice.entities, primary) ? 'HIGH' : 'MEDIUM';
      break;
    }
    case 'cohort': {
      const wide = o.members.every((m) => {
        const member: FamilyOrigin = { kind: 'institution', id: m, members: [] };
        const memberSlice = originSlice(ctx, member);
        return memberSlice !== null && cellBreadth(ctx, member, memberSlice, primary).bad >= 2;
      });
      confidence = o.members.length >= 3 && wide ? 'HIGH' : 'MEDIUM';
      break;
    }
    case 'platform': {
      const activePartners = ctx.partners.filter((p) => trafficOf(p.ew) > 0).length;
      confidence =
        activePartners < 2
          ? 'LOW'
          : platformDiscriminator === 'intake' ||
              platformDiscriminator === 'own-codes' ||
              platformDiscriminator === 'network-codes'
            ? 'HIGH'
            : platformDiscriminator === 'settlement'
              ? 'MEDIUM'
              : 'LOW';
      break;
    }
  }
  if (originClass === 'CONFIRMED' && confidence === 'MEDIUM') confidence = 'HIGH';
  base.confidence = confidence;

  // Evidence: the origin's own metrics, the dominant failure code, and how it looks per partner/member.
  const entity: EvidenceEntity = { type: base.originType, id: base.originId };
  const evidence: EvidenceItem[] = [];
  for (const [f, e] of evals) evidence.push(evidenceItem(ctx, METRIC_NAME[f], entity, e));
  if (code) {
    const k = code.index;
    const e = evalRate(
      'errors',
      slice.codes[k] ?? 0,
      outcomes,
      slice.codeEw[k] ?? 0,
      slice.codeEwN,
      1,
      cfg,
      false,
    );
    if (e.evaluated) evidence.push(evidenceItem(ctx, `${METRIC_NAME.errors}:${FAILURE_CODES[k]}`, entity, e));
  }
  const mainFamily = headline!.family;
  if (o.kind === 'institution' || o.kind === 'client') {
    for (const it of breadth.items) {
      const e = evaluate(it.view, mainFamily, cfg, true);
      if (e.evaluated) {
        evidence.push(
          evidenceItem(
            ctx,
            METRIC_NAME[mainFamily],
            { type: base.originType, id: o.id, partnerIspb: it.partner },
            e,
          ),
        );
      }
    }
  } else if (o.kind === 'partner') {
    const cellItems = breadth.items
      .filter((it) => it.id.startsWith('institution:'))
      .map((it) => ({ it, e: evaluate(it.view, mainFamily, cfg, true) }))
      .filter((x) => x.e.evaluated)
      .sort((a, b) => Math.abs(b.e.z) - Math.abs(a.e.z))
      .slice(0, 5);
    for (const { it, e } of cellItems) {
      const inst = it.id.slice('institution:'.length);
      evidence.push(
        evidenceItem(
          ctx,
          METRIC_NAME[mainFamily],
          { type: 'PAYER_INSTITUTION', id: inst, partnerIspb: o.id },
          e,
        ),
      );
    }
  } else {
    const parts = o.kind === 'cohort' ? slice.entities : ctx.partners;
    for (const v of parts) {
      const e = v.evals[mainFamily];
      if (e?.evaluated) {
        const type: OriginType = v.kind === 'partner' ? 'BANKING_PARTNER' : 'PAYER_INSTITUTION';
        evidence.push(evidenceItem(ctx, METRIC_NAME[mainFamily], { type, id: v.id }, e));
      }
    }
  }
  base.evidence = evidence;
  base.signal = {
    family: mainFamily,
    deviation: headline!.deviation,
    impact: headline!.impact,
    observed: headline!.observed,
    expected: headline!.expected,
    code: code ? FAILURE_CODES[code.index]! : null,
  };
  return base;
}
