// Attribution: which slice of the traffic explains this window's anomalies in one metric family.
//
// The traffic has three independent dimensions (partner, institution, client). A fault lives in one
// slice (one partner, one institution, one client), in a group of institutions (cohort) or everywhere.
// Rules, in order:
//  1. A slice is a candidate when it is anomalous and the rest of the platform ("complement") is not:
//     it contains the whole anomaly.
//  2. Two candidates of different dimensions are compared through their shared cells: if S without T is
//     still hurt and T without S is not, T's anomaly lives inside S, so T is a symptom of S. When neither
//     remainder is hurt the anomaly sits in the intersection and the narrower slice wins. Institution vs
//     client (no shared cells kept) is decided by the larger relative impact: a symptom's impact is the
//     cause's impact diluted by its share.
//  3. Other anomalous slices explained by an origin are symptoms (never incidents of their own).
//  4. Unexplained institutions that together contain the anomaly and cover at most maxCohortShare of the
//     volume form a PAYER_COHORT; unexplained partners or clients that together contain it (at most half
//     of their judged peers) are each an origin.
//  5. Otherwise, if the platform as a whole is anomalous and the anomaly is broad (two thirds of the
//     judged partners, institutions and clients hurt), the origin is platform-wide.

import { present } from '../../domain/present';
import type { AnalyzerConfig } from '../config';
import { type Eval, evalCount, type Family } from '../scoring/evaluate';
import type { Operation } from '../types';
import { dominantCode } from '../windows/code-layers';
import { poissonLowerZ } from '../windows/stats';
import {
  type CellData,
  cellsView,
  complementView,
  type EntityView,
  isBad,
  remainderView,
  type SliceKind,
  sumViews,
} from '../windows/views';

export type OriginKind = 'partner' | 'institution' | 'client' | 'cohort' | 'platform';

export interface FamilyOrigin {
  kind: OriginKind;
  id: string;
  /** Cohort member ISPBs (sorted); empty otherwise. */
  members: string[];
  /** A pooled cohort's outcomes over its test windows (pooled-cohort.ts): judged instead of this window alone. */
  pooled?: Eval;
}

export interface WindowContext {
  cfg: AnalyzerConfig;
  op: Operation;
  windowStartMs: number;
  platform: EntityView;
  partners: EntityView[];
  institutions: EntityView[];
  clients: EntityView[];
  cell(partnerId: string, kind: 'institution' | 'client', id: string): CellData | undefined;
  /** A partner's cells of one kind, as [institution or client id, cell]. */
  cellsOf(partnerId: string, kind: 'institution' | 'client'): Iterable<[string, CellData]>;
  find(kind: SliceKind, id: string): EntityView | undefined;
}

/** Cells shared by a partner slice and an institution/client slice; null when no cell data links them. */
export function sharedCells(ctx: WindowContext, a: EntityView, b: EntityView): CellData[] | null {
  let partner: EntityView;
  let other: EntityView;
  if (a.kind === 'partner' && (b.kind === 'institution' || b.kind === 'client')) {
    partner = a;
    other = b;
  } else if (b.kind === 'partner' && (a.kind === 'institution' || a.kind === 'client')) {
    partner = b;
    other = a;
  } else {
    return null;
  }
  const c = ctx.cell(partner.id, other.kind as 'institution' | 'client', other.id);
  return c ? [c] : [];
}

function impactOf(v: EntityView, family: Family): number {
  return v.evals[family]?.impact ?? 0;
}

/** True when `origin` accounts for the anomaly of `x` (x is a symptom). */
function explains(ctx: WindowContext, family: Family, origin: EntityView, x: EntityView): boolean {
  if (origin.kind === x.kind) return false;
  const cells = sharedCells(ctx, x, origin);
  if (cells !== null) return !isBad(remainderView(x, cells), family, ctx.cfg);
  return impactOf(x, family) <= impactOf(origin, family) + 0.05;
}

function cohortExplains(
  ctx: WindowContext,
  family: Family,
  members: readonly EntityView[],
  cohortImpact: number,
  x: EntityView,
): boolean {
  if (x.kind === 'institution') return members.includes(x);
  if (x.kind === 'partner') {
    const cells: CellData[] = [];
    for (const m of members) {
      const c = ctx.cell(x.id, 'institution', m.id);
      if (c) cells.push(c);
    }
    return !isBad(remainderView(x, cells), family, ctx.cfg);
  }
  return impactOf(x, family) <= cohortImpact + 0.05;
}

/** Step 2: drop candidates whose anomaly lives inside another candidate of a different dimension. */
function prune(ctx: WindowContext, family: Family, cands: EntityView[]): EntityView[] {
  const dropped = new Set<EntityView>();
  for (let i = 0; i < cands.length; i++) {
    for (let j = i + 1; j < cands.length; j++) {
      const s = present(cands[i], 'candidate');
      const t = present(cands[j], 'candidate');
      if (s.kind === t.kind || dropped.has(s) || dropped.has(t)) continue;
      const cells = sharedCells(ctx, s, t);
      if (cells === null) {
        // institution vs client: the symptom's impact is diluted by its share of the cause.
        const is = impactOf(s, family);
        const it = impactOf(t, family);
        if (is > it || (is === it && s.kind === 'institution')) dropped.add(t);
        else dropped.add(s);
        continue;
      }
      const sHurtWithoutT = isBad(remainderView(s, cells), family, ctx.cfg);
      const tHurtWithoutS = isBad(remainderView(t, cells), family, ctx.cfg);
      if (sHurtWithoutT && !tHurtWithoutS) dropped.add(t);
      else if (!sHurtWithoutT && tHurtWithoutS) dropped.add(s);
      else if (!sHurtWithoutT && !tHurtWithoutS) {
        // The anomaly sits in the intersection. Failures whose dominant code is the partner's own
        // (PROVIDER_UNAVAILABLE) or the platform's name the partner as the layer that failed; otherwise
        // the narrower slice wins (a single-homed client collapsing is MERCHANT, not its partner).
        const partner = s.kind === 'partner' ? s : t.kind === 'partner' ? t : null;
        const client = s.kind === 'client' ? s : t.kind === 'client' ? t : null;
        if (family === 'outcomes' && partner && client && partnerRestShort(ctx, partner, client, cells)) {
          dropped.add(client);
          continue;
        }
        if (family === 'errors' && partner) {
          const n = partner.counts.settled + partner.counts.failed;
          const layer = dominantCode(partner.codes, partner.codeEw, partner.codeEwN, n)?.layer;
          if (layer === 'PARTNER' || layer === 'PLATFORM') {
            dropped.add(partner === s ? t : s);
            continue;
          }
        }
        const ss = s.evals[family]?.size ?? 0;
        const ts = t.evals[family]?.size ?? 0;
        dropped.add(ss <= ts ? t : s);
      }
    }
  }
  return cands.filter((c) => !dropped.has(c));
}

/**
 * A tie on missing outcomes between a partner and a merchant whose traffic is most of it: the rest of the
 * partner is too small for the relaxed test, so "not hurt" there only means "not judged". When the
 * merchant's own intake is judged normal (its charges keep coming: it did its part) and the partner's
 * other traffic is short the same way (at least TIE_REST_DROP, exact Poisson tail z <= -TIE_REST_Z),
 * the settlements are missing at the partner, not the merchant (a silent partner must not be named as
 * the single-homed merchant that is 85 % of its Cash-In when its 3 other payments a window are gone
 * too). A merchant whose checkout broke leaves the partner's other traffic normal.
 */
/** The partner's other traffic is at least half short: as much as a merchant must lose (MERCHANT_MIN_DROP). */
export const TIE_REST_DROP = 0.5;
/**
 * ...and its exact Poisson tail is at z -1.5 or below: 3 expected payments and none seen (z -1.6) is the
 * smallest remainder that can speak, and a broken merchant's partner is blamed by chance in ~7 % of
 * single windows, never in the consecutive windows an incident needs.
 */
export const TIE_REST_Z = 1.5;

function partnerRestShort(
  _ctx: WindowContext,
  partner: EntityView,
  client: EntityView,
  cells: readonly CellData[],
): boolean {
  const intake = client.loose.created;
  if (!intake?.evaluated || intake.anomalous || client.evals.created?.anomalous) return false;
  const rest = remainderView(partner, cells);
  let e = rest.expOutcomes ?? 0;
  let o = rest.counts.settled + rest.counts.failed;
  // Judged over this window and the one before when the merchant has no other partner (the partner's
  // previous window minus the merchant's is then the rest's): other clients expecting 1.5 payments a
  // window and seeing none are z -0.9 on one window, -1.7 on two: on one window a silent partner
  // is named as its single-homed merchant.
  const p = partner.prevOutcomes;
  const m = client.prevOutcomes;
  if (singleHomed(client, cells) && p && m && p[1] >= 0 && m[1] >= 0) {
    o += Math.max(0, p[0] - m[0]);
    e += Math.max(0, p[1] - m[1]);
  }
  return e > 0 && o <= (1 - TIE_REST_DROP) * e && poissonLowerZ(o, e) <= -TIE_REST_Z;
}

/** All of the merchant's outcomes (EW) go through these cells: it has no other partner. */
function singleHomed(client: EntityView, cells: readonly CellData[]): boolean {
  const { ew } = cellsView(client, cells);
  const all = client.ew.settled + client.ew.failed;
  return all > 0 && ew.settled + ew.failed >= all;
}

function single(v: EntityView): FamilyOrigin {
  return { kind: v.kind as OriginKind, id: v.id, members: [] };
}

/** Do these slices together contain the anomaly (the platform without them is not hurt)? */
function groupContains(ctx: WindowContext, family: Family, group: readonly EntityView[]): boolean {
  return !isBad(complementView(ctx.platform, sumViews(group)), family, ctx.cfg);
}

/**
 * Mid-sized banks (5-15 settlements a window) losing most of their payments together: each stays under
 * the strict test alone, the platform loses 10 % (a family world: four banks at 12 a window losing 71 %,
 * found 10 windows late by the small-bank tests). At least three banks on the relaxed volume gate, each
 * >= 40 % short over this window and the one before, their union over both anomalous (strict, largest
 * member's dispersion), <= 60 % of the volume, the rest normal; then three windows in a row (INFERRED).
 * Null: three of 15 banks at z 2 in the same two windows, C(15,3) 0.023^3 = 5.5e-3, cubed over three
 * windows: far inside the budget's 155,520 cohort tests (budget.ts). A platform-wide dip hurts the rest.
 */
export const HURT_COHORT_MIN_BANKS = 3;
export const HURT_COHORT_MIN_DROP = 0.4;
/** ...each with its own two-window deficit at z 2 (a bank 40 % short by chance was named beside a cohort). */
export const HURT_COHORT_MEMBER_Z = 2;

export function attributeFamily(ctx: WindowContext, family: Family): FamilyOrigin[] {
  const { cfg, platform } = ctx;
  const slices = [...ctx.partners, ...ctx.institutions, ...ctx.clients];
  const anomalous = slices.filter((v) => v.evals[family]?.anomalous);
  const platformAnomalous = platform.evals[family]?.anomalous === true;
  // Missing outcomes go on: banks hurt together may be a cohort with nothing anomalous alone (4c).
  if (anomalous.length === 0 && !platformAnomalous && family !== 'outcomes') return [];

  // 1-2. Single slices that contain the anomaly, pruned against each other.
  // A merchant's intake is already judged against the rest of the platform's (analyzer): it contains
  // its own drop by construction, and its complement's expectation is not comparable.
  const candidates = anomalous.filter(
    (v) => (family === 'created' && v.kind === 'client') || !isBad(complementView(platform, v), family, cfg),
  );
  const kept = prune(ctx, family, candidates);
  const origins: FamilyOrigin[] = kept.map(single);

  // 3. Symptoms of what was found.
  let leftover = anomalous.filter((v) => !kept.includes(v) && !kept.some((o) => explains(ctx, family, o, v)));

  // 4a. Cohort of institutions. With two or more anomalous institutions (candidates or not), or one that
  // does not contain the anomaly alone, the group also takes the institutions merely hurt (relaxed test)
  // that no origin explains. One institution that contains the anomaly stays a single origin.
  const instKept = kept.filter((v) => v.kind === 'institution');
  const strictLeft = leftover.filter((v) => v.kind === 'institution');
  const strictCount = instKept.length + strictLeft.length;
  const institutionsLeft =
    strictCount >= 2 || (strictCount === 1 && instKept.length === 0)
      ? [
          ...instKept,
          ...strictLeft,
          ...ctx.institutions.filter(
            (v) =>
              !instKept.includes(v) &&
              !strictLeft.includes(v) &&
              v.loose[family]?.anomalous &&
              !kept.some((o) => explains(ctx, family, o, v)),
          ),
        ]
      : [];
  if (institutionsLeft.length >= 2) {
    const union = sumViews(institutionsLeft);
    const unionSize = sizeOf(union, family);
    const platformSize = sizeOf(platform, family);
    if (platformSize > 0 && unionSize / platformSize <= cfg.maxCohortShare) {
      if (groupContains(ctx, family, institutionsLeft)) {
        const members = institutionsLeft.map((v) => v.id).sort();
        origins.splice(0, origins.length, ...origins.filter((o) => o.kind !== 'institution'));
        origins.push({ kind: 'cohort', id: members.join(','), members });
        const impact = Math.max(...institutionsLeft.map((v) => impactOf(v, family)));
        leftover = leftover.filter((v) => !cohortExplains(ctx, family, institutionsLeft, impact, v));
      }
    }
  }

  // 4c. Banks short together over two windows, each too small to contain it alone (HURT_COHORT_MIN_BANKS).
  if (family === 'outcomes' && !origins.some((o) => o.kind === 'cohort')) {
    const twoWindows = (v: EntityView): [number, number] | null => {
      const e = v.expOutcomes;
      const p = v.prevOutcomes;
      if (e === null || e < cfg.minExpectedCount / 2 || !p || p[1] < 0) return null;
      return [v.counts.settled + v.counts.failed + p[0], e + p[1]];
    };
    const hurt = ctx.institutions.filter((v) => {
      const t = twoWindows(v);
      return (
        t !== null &&
        t[0] <= (1 - HURT_COHORT_MIN_DROP) * t[1] &&
        poissonLowerZ(t[0], t[1]) <= -HURT_COHORT_MEMBER_Z &&
        !kept.some((o) => o !== v && explains(ctx, family, o, v))
      );
    });
    if (hurt.length >= HURT_COHORT_MIN_BANKS) {
      let observed = 0;
      let expected = 0;
      let kappa = 1;
      for (const v of hurt) {
        const [o, e] = present(twoWindows(v), 'two windows of a hurt bank');
        observed += o;
        expected += e;
        kappa = Math.max(kappa, v.k.outcomes);
      }
      const ev = evalCount('outcomes', observed, expected, kappa, cfg, false);
      const union = sumViews(hurt);
      const platformSize = sizeOf(platform, family);
      if (
        ev.anomalous &&
        (ev.deviation ?? 0) <= -HURT_COHORT_MIN_DROP &&
        platformSize > 0 &&
        sizeOf(union, family) / platformSize <= cfg.maxCohortShare &&
        groupContains(ctx, family, hurt)
      ) {
        const members = hurt.map((v) => v.id).sort();
        const pooled: Eval = { ...ev, basis: { kind: 'pooled', windows: 2 } };
        for (let i = origins.length - 1; i >= 0; i--) {
          const origin = origins[i];
          if (origin?.kind === 'institution' && members.includes(origin.id)) origins.splice(i, 1);
        }
        origins.push({ kind: 'cohort', id: members.join(','), members, pooled });
        leftover = leftover.filter((v) => !hurt.includes(v));
      }
    }
  }

  // 4b. A few partners (or clients) failing independently while most of their peers are fine.
  for (const kind of ['partner', 'client'] as const) {
    const group = leftover.filter((v) => v.kind === kind);
    if (group.length < 2) continue;
    const peers = (kind === 'partner' ? ctx.partners : ctx.clients).filter((v) => v.evals[family]?.evaluated);
    if (group.length * 2 > peers.length) continue;
    if (!groupContains(ctx, family, group)) continue;
    for (const v of group) origins.push(single(v));
    leftover = leftover.filter((v) => v.kind !== kind);
  }

  // 5. Everything at once: the platform is anomalous and the anomaly is broad in every dimension that
  // has data for this family (most partners, and most institutions and clients being judged).
  if (origins.length === 0 && platformAnomalous && isBroad(ctx, family)) {
    origins.push({ kind: 'platform', id: 'platform', members: [] });
  }
  return origins;
}

/**
 * At least two thirds of the judged partners, institutions and clients are hurt (relaxed test). On a
 * count, a slice votes only when losing all of its traffic would itself read as hurt (√E / kappa at
 * least the relaxed z): a bank expecting 5-6 new transfers a window shows z -1.8 at zero, and in a
 * 0.3x world our own Cash-Out intake outage (4 created where 54 were expected) was not "broad" because
 * such banks, sent nothing, voted "not hurt"; a merchant was blamed instead (a family world).
 */
function isBroad(ctx: WindowContext, family: Family): boolean {
  const count = family === 'created' || family === 'outcomes';
  const canShow = (v: EntityView) => {
    if (!count) return true;
    const e = v.loose[family]?.expected;
    return typeof e === 'number' && Math.sqrt(e) / v.k[family] >= ctx.cfg.zRelaxed;
  };
  const share = (views: readonly EntityView[]) => {
    const judged = views.filter((v) => v.loose[family]?.evaluated && canShow(v));
    if (judged.length === 0) return null;
    return judged.filter((v) => v.loose[family]?.anomalous).length / judged.length;
  };
  const partners = share(ctx.partners);
  if (partners === null || partners < 2 / 3) return false;
  const institutions = share(ctx.institutions);
  // Merchants' intake is judged against the rest of the platform (analyzer): it cannot show breadth.
  const clients = family === 'created' ? null : share(ctx.clients);
  return (institutions === null || institutions >= 2 / 3) && (clients === null || clients >= 2 / 3);
}

/** Comparable size of a slice in a family (expected events for volumes, outcomes for rates). */
export function sizeOf(
  view: { counts: EntityView['counts']; expCreated: number | null; expOutcomes: number | null },
  family: Family,
): number {
  const c = view.counts;
  switch (family) {
    case 'created':
      return view.expCreated ?? c.created;
    case 'outcomes':
      return view.expOutcomes ?? c.settled + c.failed;
    case 'errors':
      return c.settled + c.failed;
    case 'latency':
      return c.latN;
    case 'expiry':
      return c.settled + c.failed + c.expired;
  }
}
