// Runs the health score bench for one seed: a clean run (2 warm-up days, then judged no-fault days) and,
// branched from the analyzer at the end of day 3, one simulated day per fault case. Pure (no Node APIs):
// the CLI (scripts/health-score.ts) and the CI test (test/health/score.test.ts) both use it.
import { Analyzer } from '../../../../src/health/analyzer';
import { toPublicIncident } from '../../../../src/health/surface/scope';
import type { IncidentChange, PixIncident } from '../../../../src/health/types';
import { generateObservations } from '../generator';
import { DAY_MS, worldNames } from '../world';
import { faultCases } from './cases';
import { type FamilyDraw, familyWorld } from './family';
import { type FalseIncident, type LabelOutcome, scoreCase } from './score';
import { benchWorld } from './worlds';

export interface SeedRunOptions {
  /** Judged no-fault days of the clean run (after the 2 warm-up days). */
  cleanDays: number;
  /** Only these fault cases (names); all when absent. */
  cases?: string[];
  /** Draw the world from the family (family.ts: its structure varies too), not the plain bench world. */
  family?: boolean;
}

export interface SeedResult {
  seed: number;
  outcomes: LabelOutcome[];
  falses: FalseIncident[];
  noFaultDays: number;
  observations: number;
  /** The family member's structure (family runs only). */
  draw?: FamilyDraw;
}

function collect(changes: readonly IncidentChange[], into: Map<string, PixIncident>) {
  for (const c of changes) into.set(c.incident.incidentId, toPublicIncident(c.incident));
}

function feed(a: Analyzer, it: Iterable<Parameters<Analyzer['ingest']>[0]>, into: Map<string, PixIncident>) {
  let n = 0;
  for (const o of it) {
    const ch = a.ingest(o);
    if (ch.length) collect(ch, into);
    n++;
  }
  return n;
}

export function runSeed(seed: number, opts: SeedRunOptions): SeedResult {
  const start = Date.UTC(2026, 10, 2) + (seed % 7) * DAY_MS;
  const branchDay = start + 3 * DAY_MS;
  const end = start + (2 + Math.max(1, opts.cleanDays)) * DAY_MS;
  const days = Math.max(4, (end - start) / DAY_MS);
  const member = opts.family ? familyWorld(seed, start, days) : null;
  const world = member ? member.world : benchWorld(seed, start, days);
  const names = worldNames(world);
  const clean = new Map<string, PixIncident>();
  const a = new Analyzer({ names });
  let observations = feed(a, generateObservations({ world, seed, from: start, to: branchDay }), clean);
  collect(a.advanceTo(branchDay), clean);
  const snapshot = a.snapshot();
  if (end > branchDay) {
    observations += feed(a, generateObservations({ world, seed, from: branchDay, to: end }), clean);
    collect(a.advanceTo(end), clean);
  }
  const outcomes: LabelOutcome[] = [];
  const falses: FalseIncident[] = [...scoreCase(seed, 'no-fault', [], [...clean.values()]).falses];
  for (const c of faultCases(world, seed, branchDay)) {
    if (opts.cases && !opts.cases.includes(c.name)) continue;
    const b = Analyzer.restore(snapshot, { names });
    const got = new Map<string, PixIncident>();
    observations += feed(
      b,
      generateObservations({ world, seed, from: branchDay, to: branchDay + DAY_MS, faults: c.faults }),
      got,
    );
    collect(b.advanceTo(branchDay + DAY_MS), got);
    // Incidents that started before the branch belong to the clean run (scored there).
    const own = [...got.values()].filter((i) => Date.parse(i.startedAt) >= branchDay);
    const s = scoreCase(seed, c.name, c.labels, own);
    outcomes.push(...s.outcomes);
    falses.push(...s.falses);
  }
  return {
    seed,
    outcomes,
    falses,
    noFaultDays: (end - start) / DAY_MS - 2,
    observations,
    ...(member ? { draw: member.draw } : {}),
  };
}
