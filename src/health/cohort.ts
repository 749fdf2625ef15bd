// Pooled test for cohorts of small banks. A bank expecting a few payments per window is below every
// volume gate on its own, so 3-4 small banks that together lose most of their settlements (and show no
// errors) are invisible one by one. They are pooled: the banks that were short in the PREVIOUS window
// are selected, and their union is tested on the CURRENT window. Selecting on one window and testing on
// the next keeps the test honest (picking the lowest banks of a window and testing them on that same
// window would find a "cohort" in pure noise); the lifecycle then asks for three such windows in a row.
import type { FamilyOrigin, WindowContext } from './attribution';
import { sizeOf } from './attribution';
import { evaluate } from './evaluate';
import { complementView, type EntityView, isBad, sumViews } from './views';

/** A bank is selected when at least half of its expected outcomes were missing in the previous window. */
export const COHORT_MEMBER_DROP = 0.5;
/** ...and it expected at least one outcome (below that, a missing payment says nothing). */
export const COHORT_MEMBER_MIN_EXPECTED = 1;
/** The pooled members must miss at least 40 % of their outcomes now (strict z and volume gates apply too). */
export const COHORT_MIN_DROP = 0.4;
/** A member is named in the incident when it is at least 20 % short in the current window as well. */
export const COHORT_NAMED_DROP = 0.2;

function shortfall(v: EntityView): number | null {
  const e = v.expOutcomes;
  if (e === null || e < COHORT_MEMBER_MIN_EXPECTED) return null;
  return (v.counts.settled + v.counts.failed - e) / e;
}

/** Selection: small banks only; a bank above the volume gate is judged on its own test. */
function selectable(v: EntityView, minExpected: number): number | null {
  if (v.expOutcomes !== null && v.expOutcomes >= minExpected) return null;
  const e = v.expOutcomes;
  if (e === null || e < COHORT_MEMBER_MIN_EXPECTED) return null;
  return (v.counts.settled + v.counts.failed - e) / e;
}

/** Small banks short by at least COHORT_MEMBER_DROP in this window (the next window's selection). */
export function shortInstitutions(ctx: WindowContext): string[] {
  const out: string[] = [];
  for (const v of ctx.institutions) {
    const d = selectable(v, ctx.cfg.minExpectedCount);
    if (d !== null && d <= -COHORT_MEMBER_DROP) out.push(v.id);
  }
  return out.sort();
}

/** The cohort of the banks selected in the previous window, if their union is anomalous now. */
export function pooledCohort(ctx: WindowContext, selected: readonly string[]): FamilyOrigin | null {
  if (selected.length < 2) return null;
  const views = selected
    .map((id) => ctx.find('institution', id))
    .filter((v): v is EntityView => v !== undefined);
  if (views.length < 2) return null;
  const union = sumViews(views);
  // Relaxed z (<= -2) on the strict volume gate: the lifecycle asks for three such windows in a row, each
  // on a fresh selection, which under no fault is rarer ((2.3 %)^3) than one strict window.
  const e = evaluate(union, 'outcomes', ctx.cfg, true);
  if (!e.anomalous || e.expected < ctx.cfg.minExpectedCount || (e.deviation ?? 0) > -COHORT_MIN_DROP) {
    return null;
  }
  const platformSize = sizeOf(ctx.platform, 'outcomes');
  if (platformSize <= 0 || sizeOf(union, 'outcomes') / platformSize > ctx.cfg.maxCohortShare) return null;
  if (isBad(complementView(ctx.platform, union), 'outcomes', ctx.cfg)) return null;
  const named = views.filter((v) => (shortfall(v) ?? 0) <= -COHORT_NAMED_DROP).map((v) => v.id);
  const members = (named.length >= 2 ? named : views.map((v) => v.id)).sort();
  return { kind: 'cohort', id: members.join(','), members };
}
