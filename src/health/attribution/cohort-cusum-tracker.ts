// The cohort CUSUM scan across windows (statistic: cohort-scan.ts): one scan state per operation, fed
// each closed window's small-bank tally, and the cohort it finds as an origin for judge.ts, judged and
// named like the pooled window test's (pooled-cohort.ts) and diagnosed on the members' outcomes since they
// began to fall.

import { dailyMean, type SeasonalState } from '../baselines/baseline';
import {
  namedMembers,
  SCAN_MIN_MEMBERS,
  type ScanResult,
  type ScanState,
  scanCohort,
  scanStep,
} from '../scoring/cohort-cusum';
import type { Eval } from '../scoring/evaluate';
import { complementView, type EntityView, isBad, sumViews } from '../windows/views';
import type { FamilyOrigin, WindowContext } from './attribution';
import { sizeOf } from './attribution';
import { type BankTally, COHORT_MIN_DROP, poissonLowerZ } from './pooled-cohort';

/** The scan's evaluation, shaped like a pooled outcome test (evidence `outcomeVolumeScan`). */
function scanEval(r: ScanResult): Eval {
  const deviation = (r.observed - r.expected) / r.expected;
  return {
    family: 'outcomes',
    basis: { kind: 'scan', windows: r.windows },
    evaluated: true,
    anomalous: r.statistic >= r.threshold && deviation <= -COHORT_MIN_DROP,
    z: poissonLowerZ(r.observed, r.expected),
    deviation,
    impact: Math.max(0, Math.min(1, -deviation)),
    size: r.expected,
    observed: r.observed,
    expected: r.expected,
  };
}

/**
 * The scan proposes a cohort once its statistic has passed the threshold in this many consecutive
 * windows. 2 would keep a single window's excursion of a few small banks from joining the pooled
 * test's windows into a lifecycle run, but a cohort of four evening banks passes just above the threshold, in
 * single windows between the pooled test's, and was lost with it: the lifecycle's three windows are
 * the persistence asked of a scanned cohort.
 */
export const SCAN_PERSIST_WINDOWS = 1;

/**
 * The scan proposes a cohort only in hours whose expected outcomes are at least this share of the
 * day's average window. At night each small bank expects a payment or less a window, and the best of
 * the subsets of banks quiet for an hour is a chance coincidence more often than by day: three small
 * banks delivering 12 of 24, 6 of 15 and 2 of 12 over 40 minutes after midnight happen in traffic
 * without any fault (a false cohort). Night sensitivity is limited on purpose, as for single banks
 * (src/health/README.md, Known limitations); the bench's cohorts fall between 09:00 and 17:00 local, at
 * 0.9-1.4.
 */
export const SCAN_MIN_DAY_SHARE = 0.5;

/** Per operation: the banks' CUSUMs and the consecutive windows the scan has passed its threshold. */
export interface ScannerState {
  banks: ScanState;
  run: number;
}

/**
 * Advance `state` by this window's tally and return the next state with what the scan finds. `open`:
 * the members of an open cohort incident on this operation (they are explained: their CUSUMs restart,
 * and no scanned cohort is proposed while one is open, as a cohort that stayed in the scan would
 * otherwise relapse the incident it opened).
 */
export function scanWindow(
  ctx: WindowContext,
  state: ScannerState,
  tally: BankTally,
  open: readonly string[] | null,
  /** The platform's outcome baseline: its day's average window (dailyMean), read only when needed. */
  platformOutcomes: SeasonalState,
): { state: ScannerState; origin: FamilyOrigin | null } {
  const banks = scanStep(state.banks, tally);
  if (open) for (const m of open) delete banks[m];
  const r = scanCohort(banks, Object.keys(tally).length);
  const e = r ? scanEval(r) : null;
  const run = r && e?.anomalous ? state.run + 1 : 0;
  const none = { state: { banks, run }, origin: null };
  if (!r || !e || open || run < SCAN_PERSIST_WINDOWS || !busyHour(ctx, platformOutcomes)) return none;
  if (!containedIn(ctx, r.members)) return none;
  const named = namedMembers(banks, r.members);
  if (named.length < SCAN_MIN_MEMBERS) return none;
  const origin: FamilyOrigin = { kind: 'cohort', id: named.join(','), members: named, pooled: e };
  return { state: { banks, run }, origin };
}

/** The members hold at most maxCohortShare of the outcomes and the rest of the platform is not hurt. */
function containedIn(ctx: WindowContext, members: readonly string[]): boolean {
  const views = members.map((id) => ctx.find('institution', id)).filter((v): v is EntityView => !!v);
  if (views.length < members.length) return false;
  const union = sumViews(views);
  const platformSize = sizeOf(ctx.platform, 'outcomes');
  if (platformSize <= 0 || sizeOf(union, 'outcomes') / platformSize > ctx.cfg.maxCohortShare) return false;
  return !isBad(complementView(ctx.platform, union), 'outcomes', ctx.cfg);
}

/** This window expects at least SCAN_MIN_DAY_SHARE of the day's average window of outcomes. */
function busyHour(ctx: WindowContext, platformOutcomes: SeasonalState): boolean {
  const e = ctx.platform.expOutcomes;
  const dayMean = dailyMean(platformOutcomes);
  return dayMean !== null && e !== null && e >= SCAN_MIN_DAY_SHARE * dayMean;
}
