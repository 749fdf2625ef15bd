// Explaining away along the hierarchy, across families and windows: a partner that is an origin
// explains its banks, cohorts and merchants; banks that are origins explain their partners.

import type { Family } from '../scoring/evaluate';
import { type CellData, type EntityView, isBad, remainderView, sumViews } from '../windows/views';
import type { OriginKind, WindowContext } from './attribution';

/**
 * Explaining away along the hierarchy, across families: a partner that is an origin (this window or an
 * open incident) explains a bank, cohort or merchant hypothesis when that slice without its cells on
 * the partner is not hurt in any of the hypothesis's families (e.g. a partner failing Cash-In charges
 * makes the largest payer bank's settlements drop: that drop is the partner's, not the bank's).
 */
export function explainedByPartner(
  ctx: WindowContext,
  h: { kind: OriginKind; id: string; members: readonly string[]; families: readonly Family[] },
  partnerIds: readonly string[],
): boolean {
  if (h.kind !== 'institution' && h.kind !== 'client' && h.kind !== 'cohort') return false;
  const kind = h.kind === 'client' ? 'client' : 'institution';
  const ids = h.kind === 'cohort' ? h.members : [h.id];
  const views = ids.map((id) => ctx.find(kind, id)).filter((v): v is EntityView => v !== undefined);
  if (views.length === 0) return false;
  const whole = (views.length === 1 ? views[0] : undefined) ?? sumViews(views);
  const cells: CellData[] = [];
  for (const p of partnerIds) {
    for (const id of ids) {
      const c = ctx.cell(p, kind, id);
      if (c) cells.push(c);
    }
  }
  if (cells.length === 0) return false;
  const rest = remainderView(whole, cells);
  return h.families.every((f) => !isBad(rest, f, ctx.cfg));
}

/**
 * The other way round: banks that are origins (this window, or open incidents and cohorts on the
 * operation) explain a partner hypothesis when the partner without its cells on those banks is not hurt
 * in any of its families. A bank failing every transfer paid to it (PAYEE_BANK_UNAVAILABLE) lifts the
 * failure rate and the failure trend of every partner that carries it; a partner carrying a few
 * transfers a window to a failing bank was blamed beside the bank (a family world: 10 % failing where
 * 2 % were usual, all of it the bank's).
 */
export function explainedByBanks(
  ctx: WindowContext,
  h: { kind: OriginKind; id: string; families: readonly Family[] },
  bankIds: readonly string[],
): boolean {
  if (h.kind !== 'partner') return false;
  const whole = ctx.find('partner', h.id);
  if (!whole) return false;
  const cells: CellData[] = [];
  for (const b of bankIds) {
    const c = ctx.cell(h.id, 'institution', b);
    if (c) cells.push(c);
  }
  if (cells.length === 0) return false;
  const rest = remainderView(whole, cells);
  return h.families.every((f) => !isBad(rest, f, ctx.cfg));
}
