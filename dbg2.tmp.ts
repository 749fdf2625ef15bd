import { Analyzer } from './src/health/analyzer';
import { faultCases } from './test/support/health/bench/cases';
import { benchWorld } from './test/support/health/bench/worlds';
import { generateObservations } from './test/support/health/generator';
import { DAY_MS } from './test/support/health/world';
const seed = Number(process.argv[2]);
const name = process.argv[3]!;
const labelIdx = Number(process.argv[4] ?? 0);
const start = Date.UTC(2026, 10, 2) + (seed % 7) * DAY_MS;
const world = benchWorld(seed, start, 5);
const day = start + 3 * DAY_MS;
const c = faultCases(world, seed, day).find((x) => x.name === name)!;
const l = c.labels[labelIdx]!;
console.log(l.originType, l.originId, l.operation, new Date(l.from).toISOString(), new Date(l.to).toISOString());
const a = new Analyzer({
  onWindow: (r) => {
    const t = Date.parse(r.windowStart);
    if (r.operation === l.operation && t >= l.from - 600e3 && t <= l.to + 600e3)
      console.log(r.windowStart.slice(11, 16), JSON.stringify(r.anomalous.map((x) => `${x.kind}:${x.id}:${x.families}`)), r.origins);
  },
});
const anyA = a as any;
const orig = anyA.entityView.bind(a);
anyA.entityView = (e: any, op: number, counts: any, ew: any, startMs: number, intake?: number, cs?: number) => {
  const v = orig(e, op, counts, ew, startMs, intake, cs);
  const opName = op === 0 ? 'CASH_IN' : 'CASH_OUT';
  if ((e.id === l.originId || (e.kind === 'platform' && l.originId === 'CONNECTPSP')) && opName === l.operation && startMs >= l.from - 600e3 && startMs <= l.to) {
    const f = (x: any) => x ? `${x.observed?.toFixed?.(3)}/${x.expected?.toFixed?.(3)} z${x.z.toFixed(1)}${x.anomalous ? '!' : ''}${x.evaluated ? '' : '(ne)'}` : '-';
    console.log("   ", cs, e.kind, "created", f(v.evals.created), 'out', f(v.evals.outcomes), 'err', f(v.evals.errors), 'k', v.k.errors.toFixed(2));
  }
  return v;
};
const tr = anyA.tracker;
const step = tr.step.bind(tr);
tr.step = (input: any) => {
  const ch = step(input);
  const t = input.windowIndex * 300000;
  if (input.op === l.operation && t >= l.from - 600e3 && t <= l.to + 600e3) console.log('   step', input.hypotheses.map((h: any) => h.key + ':' + h.families), ch.map((c: any) => c.change + ' ' + c.incident.origin.id));
  return ch;
};
for (const o of generateObservations({ world, seed, from: start, to: day + DAY_MS, faults: c.faults })) a.ingest(o);
