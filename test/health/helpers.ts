// Shared fixtures for the health tests: the reference world, warmed-up analyzers (cached as snapshots so
// each test only simulates the hours it needs) and small accessors on incident changes.
import { Analyzer, type AnalyzerSnapshot } from '../../src/health/analyzer';
import type { AnalyzerConfig } from '../../src/health/config';
import type { IncidentChange, Operation, OriginType } from '../../src/health/types';
import { defaultWorld, type Fault, generateObservations, type World, worldNames } from '../support/health';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
/** A Monday; days 1-2 are the baseline warm-up, faults happen on day 3. */
export const START = Date.UTC(2026, 10, 2);
export const DAY3 = START + 2 * DAY;
/** Default fault window: 14:00-16:00 UTC on day 3 (11:00-13:00 in Sao Paulo). */
export const F0 = DAY3 + 14 * HOUR;
export const F1 = DAY3 + 16 * HOUR;

export const WORLD = defaultWorld();
export const QUIET_WORLD = defaultWorld(30);
export const PARTNERS = WORLD.partners.map((p) => p.ispb) as [string, string, string];
export const BANKS = WORLD.institutions.map((i) => i.ispb);

// Long enough for every late outcome (expiries ~37 min, returns up to ~90 min) of earlier transactions.
const LEAD_IN = 2 * HOUR;
const snapshots = new Map<string, AnalyzerSnapshot>();

function configFor(world: World) {
  return { names: worldNames(world) };
}

/** Feed [from, to) of the world's traffic (with faults) and close the windows up to `to`. */
export function feed(
  analyzer: Analyzer,
  world: World,
  seed: number,
  from: number,
  to: number,
  faults: Fault[] = [],
): IncidentChange[] {
  const changes: IncidentChange[] = [];
  for (const o of generateObservations({ world, seed, from, to, faults, leadInMs: LEAD_IN })) {
    for (const c of analyzer.ingest(o)) changes.push(c);
  }
  for (const c of analyzer.advanceTo(to)) changes.push(c);
  return changes;
}

/** An analyzer that has seen the normal traffic from START up to `time` (no changes may occur there). */
export function analyzerAt(
  time: number,
  seed = 1,
  world: World = WORLD,
  extra: Partial<AnalyzerConfig> = {},
): Analyzer {
  const key = (t: number) => `${world.peakPerMinute}:${seed}:${t}`;
  const cached = snapshots.get(key(time));
  if (cached) return Analyzer.restore(cached, { ...configFor(world), ...extra });
  let from = START;
  let analyzer = new Analyzer(configFor(world));
  for (const [k, snap] of snapshots) {
    const [peak, s, t] = k.split(':').map(Number) as [number, number, number];
    if (peak === world.peakPerMinute && s === seed && t < time && t > from) {
      from = t;
      analyzer = Analyzer.restore(snap, configFor(world));
    }
  }
  const changes = feed(analyzer, world, seed, from, time);
  if (changes.length > 0)
    throw new Error(`normal warm-up traffic produced ${changes.length} incident changes`);
  snapshots.set(key(time), analyzer.snapshot());
  return Analyzer.restore(snapshots.get(key(time))!, { ...configFor(world), ...extra });
}

/** Run day 3 from 13:00 with the given faults until `until` (default 17:00). */
export function runScenario(
  faults: Fault[],
  opts: { until?: number; seed?: number; from?: number; config?: Partial<AnalyzerConfig> } = {},
) {
  const from = opts.from ?? DAY3 + 13 * HOUR;
  const seed = opts.seed ?? 1;
  const analyzer = analyzerAt(from, seed, WORLD, opts.config);
  const changes = feed(analyzer, WORLD, seed, from, opts.until ?? DAY3 + 17 * HOUR, faults);
  return { analyzer, changes };
}

export function detected(changes: readonly IncidentChange[]): IncidentChange[] {
  return changes.filter((c) => c.change === 'DETECTED');
}

export function describeChange(c: IncidentChange): string {
  const i = c.incident;
  return `${c.change} ${i.operation} ${i.origin.type}:${i.origin.id} ${i.status} ${i.severity}`;
}

/** The single incident the scenario must produce, checked by origin type/id and operation. */
export function onlyIncident(
  changes: readonly IncidentChange[],
  type: OriginType,
  id: string,
  operation: Operation,
): IncidentChange[] {
  const ids = new Set(changes.map((c) => c.incident.incidentId));
  if (ids.size !== 1)
    throw new Error(`expected one incident, got:\n${changes.map(describeChange).join('\n')}`);
  const first = changes[0]!;
  if (
    first.incident.origin.type !== type ||
    first.incident.origin.id !== id ||
    first.incident.operation !== operation
  ) {
    throw new Error(`expected ${type}:${id} ${operation}, got:\n${changes.map(describeChange).join('\n')}`);
  }
  return [...changes];
}
