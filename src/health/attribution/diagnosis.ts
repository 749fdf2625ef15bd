// From per-family origins to hypotheses: one per origin, with the public classification (origin type,
// originClass, confidence, severity), the partners reached and the evidence of this window.
import type { FamilyOrigin, OriginKind, WindowContext } from './attribution';
import { cellBreadth, originSlice, peersNormal, reachedPartners, trafficOf } from './breadth';
import { originTypeOf, patternKey } from './origins';

export {
  confidenceRank,
  displayNameOf,
  mergeOrigins,
  originClassRank,
  originTypeOf,
  patternKey,
} from './origins';

import { FAILURE_CODES } from '../../domain/failure-codes';
import { present } from '../../domain/present';
import {
  type Eval,
  type EvidenceBasis,
  evalRate,
  evaluate,
  type Family,
  METRIC_NAME,
  maxSeverity,
  PRIMARY_FAMILIES,
  severityOf,
  severityRank,
} from '../scoring/evaluate';
import { keepsOpen } from '../scoring/evidence-rules';
import { silenceContinuing } from '../scoring/silence-rules';
import type { Confidence, EvidenceEntity, EvidenceItem, OriginClass, OriginType, Severity } from '../types';
import { type CodeLayer, dominantCode } from '../windows/code-layers';
import { round } from '../windows/stats';
import { complementView, isBad } from '../windows/views';
import { isoZ } from '../windows/window';

/** What the summary describes: the worst family at the origin in its latest anomalous window. */
export interface Signal {
  family: Family;
  deviation: number | null;
  impact: number;
  observed: number;
  expected: number;
  code: string | null;
  /** How it was found when not by one window alone (pooled windows/banks, or a sustained trend). */
  basis?: EvidenceBasis | null;
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
  /** Some family could be judged at the origin in this window (false: no data, e.g. total silence). */
  judged: boolean;
  /** The origin's failures, outcomes and baseline failure rate in this window (a single slice only). */
  failures?: [number, number, number];
  severity: Severity;
  confidence: Confidence;
  originClass: OriginClass;
  reachedPartners: string[];
  signal: Signal | null;
  /** Failures were anomalous at the origin only as a sustained trend in this window (the CUSUM). */
  trend?: EvidenceBasis | null;
  evidence: EvidenceItem[];
}

const CONFIRMING_LAYERS: Record<OriginKind, readonly CodeLayer[]> = {
  partner: ['PARTNER'],
  institution: ['INSTITUTION'],
  cohort: ['INSTITUTION'],
  client: ['MERCHANT', 'END_USER'],
  platform: ['PLATFORM'],
};

function familyGroup(f: Family): number {
  return f === 'latency' ? 1 : f === 'expiry' ? 2 : 0;
}

/**
 * The evidence's metric says how it was found: `outcomeVolumePooled` (several windows and, for a cohort,
 * several small banks summed into one test), `failureRateTrend` (a rise sustained window after window,
 * the failure CUSUM), else the family's plain metric.
 */
export function metricName(f: Family, e: Eval): string {
  if (e.basis?.kind === 'pooled') return `${METRIC_NAME[f]}Pooled`;
  if (e.basis?.kind === 'trend') return `${METRIC_NAME[f]}Trend`;
  if (e.basis?.kind === 'scan') return `${METRIC_NAME[f]}Scan`;
  return METRIC_NAME[f];
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
    judged: false,
    severity: 'DEGRADED',
    confidence: 'LOW',
    originClass: 'UNKNOWN',
    reachedPartners: [],
    signal: null,
    trend: null,
    evidence: [],
  };
  if (!slice) return base;

  const single = (slice.entities.length === 1 ? slice.entities[0] : undefined) ?? null;
  const evals = new Map<Family, Eval>();
  const families: Family[] = ctx.op === 'CASH_IN' ? [...PRIMARY_FAMILIES, 'expiry'] : [...PRIMARY_FAMILIES];
  for (const f of families) {
    // Fewer new transactions never blame (nor clear) a partner, a bank or a cohort (evidence-rules.ts).
    if (f === 'created' && o.kind !== 'client' && o.kind !== 'platform') continue;
    let e =
      f === 'outcomes' && o.pooled
        ? o.pooled
        : continuing.includes(f)
          ? evaluate(slice.view, f, cfg, true)
          : (single?.evals[f] ?? evaluate(slice.view, f, cfg));
    if (single && continuing.includes(f)) e = silenceContinuing(single, f, e);

    if (e.evaluated) base.judged = true;
    if (continuing.includes(f) ? keepsOpen(o.kind, f, e) : e.anomalous) evals.set(f, e);
  }
  if (single) {
    const ewN = single.ew.settled + single.ew.failed;
    const c = single.counts;
    base.failures = [c.failed, c.settled + c.failed, ewN > 0 ? single.ew.failed / ewN : 0];
  }
  const primary = PRIMARY_FAMILIES.filter((f) => evals.has(f));
  base.families = primary;
  const trend = evals.get('errors')?.basis;
  base.trend = trend?.kind === 'trend' ? trend : null;
  base.reachedPartners = reachedPartners(ctx, o, slice);
  if (primary.length === 0) return base;

  // Severity and the headline signal: the worst primary family.
  let severity: Severity = 'DEGRADED';
  let headline: Eval | null = null;
  for (const f of primary) {
    const e = present(evals.get(f), `the ${f} evaluation`);
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
  for (const [f, e] of evals) evidence.push(evidenceItem(ctx, metricName(f, e), entity, e));
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
  const head = present(headline, 'the headline signal');
  const mainFamily = head.family;
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
    deviation: head.deviation,
    impact: head.impact,
    observed: head.observed,
    expected: head.expected,
    code: code ? present(FAILURE_CODES[code.index], `failure code ${code.index}`) : null,
    basis: head.basis ?? null,
  };
  return base;
}
