import { Analyzer } from './src/health/analyzer';
import { faultCases } from './test/support/health/bench/cases';
import { benchWorld } from './test/support/health/bench/worlds';
import { generateObservations } from './test/support/health/generator';
import { DAY_MS } from './test/support/health/world';
const seed = Number(process.argv[2] ?? 1);
const start = Date.UTC(2026, 10, 2) + (seed % 7) * DAY_MS;
const world = benchWorld(seed, start, 5);
const day = start + 3 * DAY_MS;
const c = faultCases(world, seed, day).find((x) => x.name === 'small-bank-cohort')!;
const l = c.labels[0]!;
console.log(l.members, new Date(l.from).toISOString(), new Date(l.to).toISOString(), world.institutions.map(i=>i.weight.toFixed(2)).join(' '));
const a = new Analyzer({});
const anyA = a as any;
const orig = anyA.buildContext.bind(a);
anyA.buildContext = (op: number, startMs: number) => {
  const ctx = orig(op, startMs);
  if (op === 0 && startMs >= l.from - 600e3 && startMs < l.from + 3600e3) {
    const row = ctx.institutions.filter((v: any) => l.members!.includes(v.id)).map((v: any) => `${v.id.slice(-3)}:${v.counts.settled}/${v.expOutcomes?.toFixed(1)}`);
    console.log(new Date(startMs).toISOString().slice(11, 16), row.join(' '), 'sel', anyA.shortBefore[0].join(','));
  }
  return ctx;
};
for (const o of generateObservations({ world, seed, from: start, to: day + DAY_MS, faults: c.faults })) a.ingest(o);
