// Where an origin's traffic flows: its slice of the window, the partners it reaches, and how many of
// its cells are hurt too (the cross-checks behind confidence and the per-partner evidence).

import { evaluate, type Family, type SliceView } from '../scoring/evaluate';
import { FAILURE_CODE_COUNT } from '../windows/code-layers';
import { cellsView, type EntityView, sumViews } from '../windows/views';
import type { FamilyOrigin, WindowContext } from './attribution';

export interface OriginSlice {
  view: SliceView;
  codes: number[];
  codeEw: number[];
  codeEwN: number;
  entities: EntityView[];
}

export function originSlice(ctx: WindowContext, o: FamilyOrigin): OriginSlice | null {
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
  const view = (entities.length === 1 ? entities[0] : undefined) ?? sumViews(entities);
  const codes = new Array<number>(FAILURE_CODE_COUNT).fill(0);
  const codeEw = new Array<number>(FAILURE_CODE_COUNT).fill(0);
  let codeEwN = 0;
  for (const e of entities) {
    for (let k = 0; k < FAILURE_CODE_COUNT; k++) {
      codes[k] = (codes[k] ?? 0) + (e.codes[k] ?? 0);
      codeEw[k] = (codeEw[k] ?? 0) + (e.codeEw[k] ?? 0);
    }
    codeEwN += e.codeEwN;
  }
  return { view, codes, codeEw, codeEwN, entities };
}

export function trafficOf(c: { created: number; settled: number; failed: number; expired: number }): number {
  return c.created + c.settled + c.failed + c.expired;
}

/** Partners through which at least 5 % of the origin's recent traffic flows. */
export function reachedPartners(ctx: WindowContext, o: FamilyOrigin, slice: OriginSlice): string[] {
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
export function cellBreadth(
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

export function peersNormal(
  peers: readonly EntityView[],
  self: readonly EntityView[],
  families: readonly Family[],
) {
  return peers.some((p) => !self.includes(p) && families.some((f) => p.evals[f]?.evaluated) && !p.anomalous);
}
