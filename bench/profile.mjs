#!/usr/bin/env node
// CPU profile of one benchmark scenario, taken inside workerd through the V8 inspector: where the
// worker and its Durable Objects spend their time under load. Against a running runtime:
//
//   npm run serve -- --inspector-port 9229 --persist-to /dev/shm/cpsp &
//   npm run bench:profile -- --scenario=cash-in   # cash-in, get-by-id, list, cash-out, health
//
// Prints the functions with the most self and inclusive time and writes the raw profile to
// .bench/<scenario>.cpuprofile (open it in Chrome DevTools → Performance). Options: --base
// (default http://127.0.0.1:8787), --inspector (9229), --duration (8 s), --connections (50).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { exitWithUsageIfAsked } from '../scripts/usage.mjs';
import { inspector } from './inspector.mjs';
import { prepareScenarios } from './scenarios.mjs';

exitWithUsageIfAsked(`
Usage: npm run bench:profile -- [--scenario=cash-in] [--base=<url>] [--inspector=9229]

CPU profile of one benchmark scenario inside workerd, against a running runtime:
  npm run serve -- --inspector-port 9229 &
  npm run bench:profile -- --scenario=cash-in     # cash-in, get-by-id, list, cash-out, health
Options: --base (http://127.0.0.1:8787), --inspector (9229), --worker (connectpsp-staging),
--duration (8 s), --connections (50), --top (35), --admin-token (dev-admin-token).
Writes .bench/<scenario>.cpuprofile.
`);

const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'cash-in' },
    base: { type: 'string', default: 'http://127.0.0.1:8787' },
    inspector: { type: 'string', default: '9229' },
    worker: { type: 'string', default: 'connectpsp-staging' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
    top: { type: 'string', default: '35' },
    'admin-token': { type: 'string', default: 'dev-admin-token' },
  },
});

const { scenarios } = await prepareScenarios({ base: args.base, adminToken: args['admin-token'] });
const scenario = scenarios.find((s) => s.key === args.scenario);
if (!scenario?.requests) throw new Error(`no runnable scenario ${args.scenario}`);

const { send, close } = await inspector(Number(args.inspector), args.worker);

const load = (duration) =>
  autocannon({
    url: args.base,
    connections: Number(args.connections),
    duration,
    requests: scenario.requests,
  });
const step = (text) => process.stderr.write(`[profile] ${text}\n`);
step('warm-up');
await load(2); // warm-up: JIT, caches
await send('Profiler.enable');
await send('Profiler.setSamplingInterval', { interval: 100 });
await send('Profiler.start');
step('profiling under load');
const result = await load(Number(args.duration));
step('collecting the profile');
const { result: profileResult } = await send('Profiler.stop');
close();
const profile = profileResult.profile;

mkdirSync('.bench', { recursive: true });
const file = path.join('.bench', `${args.scenario}.cpuprofile`);
writeFileSync(file, JSON.stringify(profile));

// Self time per function from the samples.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const counts = new Map();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
const total = profile.samples.length;
const key = (n) => {
  const f = n.callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
};
const self = new Map();
const inclusive = new Map();
for (const [id, count] of counts) {
  const node = byId.get(id);
  self.set(key(node), (self.get(key(node)) ?? 0) + count);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + count);
  }
}
const pct = (n) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
console.log(
  `${scenario.name}: ${Math.round(result.requests.total / result.duration)} req/s, p50 ${result.latency.p50} ms, ` +
    `p99 ${result.latency.p99} ms (profiling slows it); ${total} samples → ${file}\n`,
);
console.log('self time:');
for (const [k, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(args.top)))
  console.log(`${pct(n)}  ${k}`);
console.log('\ninclusive time:');
for (const [k, n] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(args.top))) {
  console.log(`${pct(n)}  ${k}`);
}
process.exit(0);
