#!/usr/bin/env node
// Where an open-loop stall comes from: one scenario at a constant arrival rate (bench/open-loop.mjs),
// every request traced (due time, the generator's own lag, latency), with a V8 CPU profile of the
// gateway's isolate taken over the same seconds. Prints the 100 ms buckets whose slowest request
// missed the target, and for each what the isolate ran in the time before it: the entry point
// (fetch, alarm, queue, scheduled: the outermost frame of the bundle on each sample's stack) and
// the busiest functions. A bucket whose samples are idle while requests waited was not blocked by
// the gateway's JavaScript (the generator, another process, SQLite outside JS, the OS). Against a
// running runtime:
//
//   npm run serve -- --port=9300 --hello-port=9301 --inspector-port=9302 --persist-to=/dev/shm/x &
//   npm run bench:trace -- --base=http://127.0.0.1:9300 --hello=http://127.0.0.1:9301 \
//     --inspector=9302 --scenario=get-by-id --rate=1000 --duration=20
//
// Writes .bench/open-trace-<scenario>.json (the trace, the buckets, the stall windows).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { exitWithUsageIfAsked } from '../scripts/usage.mjs';
import { inspector as connectInspector, moduleOfLine } from './inspector.mjs';
import { buckets, cpuPressure, openLoop, schedOf } from './open-loop.mjs';
import { prepareScenarios } from './scenarios.mjs';

exitWithUsageIfAsked(`
Usage: npm run bench:trace -- --scenario=<key> --rate=<n> [options]

One scenario open loop with a per-request trace and a CPU profile of the gateway isolate.
  --base=<url>         the gateway (default http://127.0.0.1:8787)
  --hello=<url>        the reference worker (for the reference scenarios: ceiling, floor, …)
  --inspector=<port>   workerd's inspector (omit: no profile)
  --worker=<name>      the gateway's worker name on the inspector (default connectpsp-staging; reference: the reference worker)
  --build-dir=<dir>    the served bundle, to name modules (default .wrangler/build)
  --duration=<s>       seconds (default 20)   --threshold=<ms>  a stall bucket (default 50)
  --history            also seed the @history client (BENCH_HISTORY_PAIRS)
`);

const { values: args } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:8787' },
    hello: { type: 'string' },
    inspector: { type: 'string' },
    worker: { type: 'string', default: 'connectpsp-staging' },
    'build-dir': { type: 'string', default: path.join('.wrangler', 'build') },
    scenario: { type: 'string', default: 'get-by-id' },
    rate: { type: 'string', default: '500' },
    duration: { type: 'string', default: '20' },
    threshold: { type: 'string', default: '50' },
    history: { type: 'boolean', default: false },
  },
});

const { scenarios } = await prepareScenarios({ base: args.base, hello: args.hello, history: args.history });
const scenario = scenarios.find((s) => s.key === args.scenario);
if (!scenario?.requests) throw new Error(`no runnable scenario ${args.scenario}`);
const rate = Number(args.rate);
const seconds = Number(args.duration);
await scenario.before?.({ expected: Math.ceil(rate * seconds * 1.2) });

// ── Profile over the same seconds ────────────────────────────────────────────
let inspector;
if (args.inspector) {
  inspector = await connectInspector(Number(args.inspector), args.worker);
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.setSamplingInterval', { interval: 500 });
}

// ── Who waited for a CPU, every 100 ms ──────────────────────────────────────
// /proc/<pid>/task/*/schedstat: time each thread ran and time it sat runnable in a run queue,
// waiting for a core; /proc/pressure/cpu: how long some task on the machine waited. A request that
// stalled while workerd was runnable but not running was held up by the machine, not by the gateway.
const workerdPid = (() => {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes('workerd') && cmd.includes(`:${args.inspector ?? new URL(args.base).port}`))
        return pid;
    } catch {}
  }
  return undefined;
})();
const sched = [];
const sampleSched = () =>
  sched.push({
    at: Date.now(),
    workerd: workerdPid ? schedOf(workerdPid) : undefined,
    generator: schedOf(process.pid),
    pressure: cpuPressure(),
  });
sampleSched();
const schedTimer = setInterval(sampleSched, 100);

let profileStartedAt;
if (inspector) {
  await inspector.send('Profiler.start');
  profileStartedAt = Date.now();
}
const result = await openLoop(scenario.url ?? args.base, scenario, rate, seconds, {
  trace: true,
  workerdPid,
});
clearInterval(schedTimer);
sampleSched();
const profile = inspector ? (await inspector.send('Profiler.stop')).result.profile : undefined;
inspector?.close();

// ── Samples on the epoch clock, each named by its entry point and its own function ───────────────
const moduleAt = (() => {
  let text = '';
  try {
    text = readFileSync(path.join(args['build-dir'], 'index.js'), 'utf8');
  } catch {}
  const at = moduleOfLine(text);
  return (line) => at(line) ?? '?';
})();
const samples = [];
if (profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => {
    const f = n.callFrame;
    if (!f.url) return f.functionName || '(anonymous)';
    return `${f.functionName || '(anonymous)'} ${moduleAt(f.lineNumber)}`;
  };
  const labels = new Map();
  const label = (id) => {
    if (labels.has(id)) return labels.get(id);
    const leaf = byId.get(id);
    let entry = name(leaf);
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (n.callFrame.url) entry = name(n);
    }
    const out = { self: name(leaf), entry };
    labels.set(id, out);
    return out;
  };
  // The profile's clock is V8's; its start is taken as the moment Profiler.start answered.
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    samples.push({ at: profileStartedAt + (t - profile.startTime) / 1000, ...label(profile.samples[i]) });
  }
}

/** The isolate's samples between two epoch times, counted by entry point and by own function. */
function whatRan(from, to) {
  const inWindow = samples.filter((s) => s.at >= from && s.at < to);
  const top = (key) => {
    const counts = new Map();
    for (const s of inWindow) counts.set(s[key], (counts.get(s[key]) ?? 0) + 1);
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([k, n]) => `${k} ${Math.round((100 * n) / inWindow.length)} %`);
  };
  return { samples: inWindow.length, entries: top('entry'), self: top('self') };
}

/** ms per 100 ms between two epoch times: workerd running / waiting for a core, the generator waiting, the machine's CPU pressure. */
function cpuIn(from, to) {
  const a = sched.findLast((s) => s.at <= from) ?? sched[0];
  const b = sched.find((s) => s.at >= to) ?? sched.at(-1);
  const per = 100 / Math.max(1, b.at - a.at);
  const d = (f) => Math.round(per * (f(b) - f(a)));
  return {
    workerdRun: d((s) => s.workerd?.run ?? 0),
    workerdWait: d((s) => s.workerd?.wait ?? 0),
    generatorWait: d((s) => s.generator.wait),
    pressure: d((s) => s.pressure),
  };
}

/**
 * The longest stretches the isolate spent in one entry point without a gap (consecutive samples,
 * idle ends a stretch): a request handler, an alarm, a queue batch or the cron that runs this long
 * holds every other request of the isolate back by as much.
 */
function longestStretches(count = 8) {
  const stretches = [];
  let cur;
  for (const s of samples) {
    if (cur && s.entry === cur.entry && s.at - cur.last < 5) {
      cur.last = s.at;
      cur.n++;
      continue;
    }
    if (cur) stretches.push(cur);
    cur = s.entry === '(idle)' ? undefined : { entry: s.entry, first: s.at, last: s.at, n: 1 };
  }
  if (cur) stretches.push(cur);
  return stretches
    .map((s) => ({ entry: s.entry, ms: Math.round(s.last - s.first), time: new Date(s.first).toISOString() }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
}

// ── Report ───────────────────────────────────────────────────────────────────
const threshold = Number(args.threshold);
const perBucket = buckets(result.trace);
const stalls = perBucket
  .filter((b) => b.max >= threshold)
  .map((b) => {
    // The isolate's work from when the bucket's slowest request was due to when it was answered.
    const from = result.trace.startedAt + b.at;
    return {
      ...b,
      time: new Date(from).toISOString(),
      cpu: cpuIn(from, from + b.max),
      ...(profile && whatRan(from, from + b.max)),
    };
  });
const { trace, ...summary } = result;
console.log(
  `${scenario.name} at ${rate}/s for ${seconds} s: ${JSON.stringify(summary)}\n` +
    `${stalls.length} of ${perBucket.length} buckets of 100 ms had a request ≥ ${threshold} ms` +
    `${profile ? ` (${samples.length} profile samples)` : ''}\n` +
    `whole run, ms per 100 ms: ${JSON.stringify(cpuIn(result.trace.startedAt, Date.now()))}`,
);
const stretches = profile ? longestStretches() : [];
if (profile) {
  console.log('longest stretches in one entry point (ms):');
  for (const s of stretches) console.log(`  ${s.time} ${s.ms} ms ${s.entry}`);
}
for (const s of stalls)
  console.log(
    `  ${s.time} n=${s.n} p50=${s.p50.toFixed(1)} max=${s.max.toFixed(1)} generator lag ${s.lagMax.toFixed(1)} ms; ` +
      `per 100 ms: workerd ran ${s.cpu.workerdRun}, waited ${s.cpu.workerdWait}, generator waited ${s.cpu.generatorWait}, machine pressure ${s.cpu.pressure}` +
      (s.entries ? `\n    entry: ${s.entries.join(', ')}\n    self: ${s.self.join(', ')}` : ''),
  );
mkdirSync('.bench', { recursive: true });
const file = path.join('.bench', `open-trace-${args.scenario.replace(/[^\w-]/g, '_')}.json`);
writeFileSync(
  file,
  JSON.stringify({ summary, buckets: perBucket, stalls, stretches, sched, trace }, null, 1),
);
console.log(`→ ${file}`);
process.exit(0);
