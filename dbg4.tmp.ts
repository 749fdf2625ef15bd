import { Analyzer } from './src/health/analyzer';
import { faultCases } from './test/support/health/bench/cases';
import { benchWorld } from './test/support/health/bench/worlds';
import { generateObservations } from './test/support/health/generator';
import { DAY_MS } from './test/support/health/world';
const seed = 4;
const start = Date.UTC(2026, 10, 2) + (seed % 7) * DAY_MS;
const world = benchWorld(seed, start, Number(process.argv[2]));
const day = start + 3 * DAY_MS;
const c = faultCases(world, seed, day).find((x) => x.name === 'merchant-collapse')!;
const a = new Analyzer({});
for (const o of generateObservations({ world, seed, from: start, to: day })) a.ingest(o);
a.advanceTo(day);
const b = Analyzer.restore(a.snapshot());
const obs = [...generateObservations({ world, seed, from: day, to: day + DAY_MS, faults: c.faults })];
const ca: string[] = [], cb: string[] = [];
for (const o of obs) { for (const x of a.ingest(o)) ca.push(x.change + x.incident.origin.id + x.incident.startedAt); for (const x of b.ingest(o)) cb.push(x.change + x.incident.origin.id + x.incident.startedAt); }
console.log(ca, cb);
const sa = JSON.stringify(a.snapshot()), sb = JSON.stringify(b.snapshot());
console.log(sa === sb, sa.length, sb.length);
for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) { console.log(sa.slice(i - 300, i + 100)); console.log(sb.slice(i - 300, i + 100)); break; }
