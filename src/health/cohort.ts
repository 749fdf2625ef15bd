// Pooled test for cohorts of small banks. A bank expecting a few payments per window is below every
// volume gate on its own, so 3-4 small banks that together lose most of their settlements (and show no
// errors) are invisible one by one. They are pooled: the banks short over two earlier windows (t-3, t-2)
// are selected, and their union is tested on the two latest (t-1, t). Selecting on some windows and
// testing on others keeps the test honest (picking the lowest banks of a window and testing them on
// that same window would find a "cohort" in pure noise); the lifecycle then asks for three such windows
// in a row.
import type { FamilyOrigin, WindowContext } from './attribution';
import { sizeOf } from './attribution';
import { evalCount } from './evaluate';
import { complementView, type EntityView, isBad, sumViews } from './views';

/** A bank is selected when at least half of its expected outcomes were missing over two earlier windows. */
export const COHORT_MEMBER_DROP = 0.5;
/** ...and it expected at least one outcome (below that, a missing payment says nothing). */
export const COHORT_MEMBER_MIN_EXPECTED = 1;
/** The pooled members must miss at least 40 % of their outcomes over the two latest windows (strict z). */
export const COHORT_MIN_DROP = 0.4;
/** A member is named in the incident when it is at least 20 % short in the current window as well. */
export const COHORT_NAMED_DROP = 0.2;

function shortfall(v: EntityView): number | null {
  const e = v.expOutcomes;
  if (e === null || e < COHORT_MEMBER_MIN_EXPECTED) return null;
  return (v.counts.settled + v.counts.failed - e) / e;
}

/** Outcomes observed and expected per small bank in one window (kept for the next window's selection). */
export type BankTally = Record<string, [number, number]>;

/** This window's tally of the banks below the volume gate. */
export function tallyInstitutions(ctx: WindowContext): BankTally {
  const out: BankTally = {};
  for (const v of ctx.institutions) {
    const e = v.expOutcomes;
    if (e === null || e >= ctx.cfg.minExpectedCount) continue;
    out[v.id] = [v.counts.settled + v.counts.failed, e];
  }
  return out;
}

/**
 * Selection for the next window: small banks that missed at least COHORT_MEMBER_DROP of their outcomes
 * over this window and the one before (two windows: a bank expecting 3 payments is short by chance in
 * one window far more often than in two).
 */
export function shortInstitutions(now: BankTally, before: BankTally): string[] {
  const out: string[] = [];
  for (const [id, [o, e]] of Object.entries(now)) {
    const [o0, e0] = before[id] ?? [0, 0];
    const exp = e + e0;
    if (exp >= COHORT_MEMBER_MIN_EXPECTED && (o + o0 - exp) / exp <= -COHORT_MEMBER_DROP) out.push(id);
  }
  return out.sort();
}

/** The cohort of the banks selected in the previous window, if their union is anomalous now. */
export function pooledCohort(
  ctx: WindowContext,
  selected: readonly string[],
  last: BankTally,
): FamilyOrigin | null {
  if (selected.length < 2) return null;
  const views = selected
    .map((id) => ctx.find('institution', id))
    .filter((v): v is EntityView => v !== undefined);
  if (views.length < 2) return null;
  let observed = 0;
  let expected = 0;
  let k = 1;
  for (const v of views) {
    observed += v.counts.settled + v.counts.failed + (last[v.id]?.[0] ?? 0);
    expected += (v.expOutcomes ?? 0) + (last[v.id]?.[1] ?? 0);
    k = Math.max(k, v.k.outcomes);
  }
  // Strict test on the two latest windows pooled, with the effect gate.
  const e = evalCount('outcomes', observed, expected, k, ctx.cfg, false);
  if (!e.anomalous || (e.deviation ?? 0) > -COHORT_MIN_DROP) return null;
  const union = sumViews(views);
  const platformSize = sizeOf(ctx.platform, 'outcomes');
  if (platformSize <= 0 || sizeOf(union, 'outcomes') / platformSize > ctx.cfg.maxCohortShare) return null;
  if (isBad(complementView(ctx.platform, union), 'outcomes', ctx.cfg)) return null;
  const named = views.filter((v) => (shortfall(v) ?? 0) <= -COHORT_NAMED_DROP).map((v) => v.id);
  const members = (named.length >= 2 ? named : views.map((v) => v.id)).sort();
  return { kind: 'cohort', id: members.join(','), members };
}
