// Judging one closed window of one operation: which origins explain its anomalies, as hypotheses
// for the lifecycle (attribution per family, the pooled cohort test, diagnosis, explaining away).

import type { OpenIncidentState } from '../lifecycle/lifecycle';
import { type Family, PRIMARY_FAMILIES } from '../scoring/evaluate';
import { isoZ } from '../windows/window';
import { attributeFamily, type FamilyOrigin, type WindowContext } from './attribution';
import { diagnose, type Hypothesis, mergeOrigins } from './diagnosis';
import { explainedByBanks, explainedByPartner } from './explaining';
import { type BankTally, pooledCohort } from './pooled-cohort';

/** `earlier`: the small banks' tallies of t-1, t-2 .., newest first (pooled cohort test, cohort.ts). */
export function judgeWindow(
  ctx: WindowContext,
  earlier: readonly BankTally[],
  open: readonly OpenIncidentState[],
  /** The cohort CUSUM scan's cohort (cohort-cusum-tracker.ts), used when the pooled window test finds none. */
  scanned: FamilyOrigin | null = null,
): Hypothesis[] {
  const anyAnomaly =
    ctx.platform.anomalous ||
    ctx.partners.some((v) => v.anomalous) ||
    ctx.institutions.some((v) => v.anomalous) ||
    ctx.clients.some((v) => v.anomalous);
  let hypotheses: Hypothesis[] = [];
  const cohort = bothCohorts(pooledCohort(ctx, earlier), scanned);
  if (anyAnomaly || cohort) {
    const perFamily = PRIMARY_FAMILIES.map((f) => attributeFamily(ctx, f));
    if (cohort) perFamily.unshift([cohort]);
    const origins = mergeOrigins(perFamily);
    // The pooled cohort was found on the relaxed outcome test (see cohort.ts): judge it the same way.
    hypotheses = origins
      .map((o) => diagnose(ctx, o, cohort && o.kind === 'cohort' ? ['outcomes'] : []))
      .filter((h) => h.families.length > 0);
    // What a parent (a partner origin, now or open) explains does not open children.
    const parents = new Set(hypotheses.filter((h) => h.kind === 'partner').map((h) => h.id));
    for (const o of open) {
      if (o.kind === 'partner' && o.record.operation === ctx.op) parents.add(o.id);
    }
    if (parents.size > 0) {
      hypotheses = hypotheses.filter((h) => !explainedByPartner(ctx, h, [...parents]));
    }
    // What failing banks explain does not open their partners.
    const banks = new Set<string>();
    for (const h of hypotheses) {
      if (h.kind === 'institution') banks.add(h.id);
      if (h.kind === 'cohort') for (const m of h.members) banks.add(m);
    }
    for (const o of open) {
      if (o.record.operation !== ctx.op) continue;
      if (o.kind === 'institution') banks.add(o.id);
      if (o.kind === 'cohort') for (const m of o.members) banks.add(m);
    }
    if (banks.size > 0) hypotheses = hypotheses.filter((h) => !explainedByBanks(ctx, h, [...banks]));
    if (ourIntakeDown(hypotheses, open, ctx)) hypotheses = hypotheses.filter((h) => !onlyMissingOutcomes(h));
  }
  if (ctx.cfg.onWindow) {
    ctx.cfg.onWindow({
      windowStart: isoZ(ctx.windowStartMs),
      operation: ctx.op,
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
  return hypotheses;
}

/**
 * The pooled window test's cohort, or the scan's; when both find one, the banks both name (each test
 * can carry a bank that dipped by chance as the cohort fell, and rarely the same one).
 */
function bothCohorts(pooled: FamilyOrigin | null, scanned: FamilyOrigin | null): FamilyOrigin | null {
  if (!pooled || !scanned) return pooled ?? scanned;
  const members = pooled.members.filter((m) => scanned.members.includes(m));
  if (members.length < 2) return pooled;
  return { ...pooled, id: members.join(','), members };
}

/**
 * Our own intake down (a platform origin on new transactions, this window or open on this operation)
 * explains every outcome that is missing: nothing created, nothing settles. A slice's expected outcomes
 * follow its intake only through INTAKE_PRIOR's shrinkage (10 pseudo-transactions keep 28 % of a
 * partner's 26 a window when none are created), so a partner with most of the traffic reads "silent"
 * beside the CONNECTPSP incident, and would be blamed too. Failures, latency and expiries
 * are still its own.
 */
function ourIntakeDown(
  hs: readonly Hypothesis[],
  open: readonly OpenIncidentState[],
  ctx: WindowContext,
): boolean {
  const intake = (kind: string, families: readonly Family[]) =>
    kind === 'platform' && families.includes('created');
  return (
    hs.some((h) => intake(h.kind, h.families)) ||
    open.some((o) => o.record.operation === ctx.op && intake(o.kind, o.families))
  );
}

function onlyMissingOutcomes(h: Hypothesis): boolean {
  return h.kind !== 'platform' && h.families.every((f) => f === 'outcomes');
}
