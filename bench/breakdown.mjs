#!/usr/bin/env node
// Where an operation's object-side CPU goes, call site by call site: a V8 CPU profile of the
// gateway's isolate while the object twin (runtime/reference-worker.mjs, /ledger/<op>) runs an
// operation and everything it leaves behind (Cash-Out execution, outbox flushes, health
// ingestion) runs to idle. Each busy sample goes to the innermost frame in a Durable Object's
// module on its stack (the statement's call site: `exec` and `transactionSync` count for their
// caller), the rest to the worker or to V8 itself. Printed per operation (per item for a batch).
// Sample times are wall-clock intervals: on a busy machine they overstate CPU, so read the shares;
// the bare one-write object method to compare with is `npm run bench`'s floor-write − floor-rpc.
// Against a running runtime with the reference worker and the inspector:
//
//   node scripts/serve.mjs --port 9730 --hello-port 9731 --inspector-port 9732 --persist-to /dev/shm/x &
//   node bench/breakdown.mjs --base=http://127.0.0.1:9730 --hello=http://127.0.0.1:9731 \
//     --inspector=9732 --op=cash-out-batch
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { gatewayWorker, inspector, isObjectModule, moduleOfLine } from './inspector.mjs';
import { prepareScenarios } from './scenarios.mjs';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:8787' },
    hello: { type: 'string', default: 'http://127.0.0.1:8788' },
    inspector: { type: 'string', default: '9229' },
    op: { type: 'string', default: 'cash-out-batch' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '4' },
    top: { type: 'string', default: '30' },
    // 'object': the innermost Durable Object frame (a statement's call site); 'any': the innermost
    // frame in any module of the bundle, for object samples (what a call site's own JS spends on).
    site: { type: 'string', default: 'object' },
    // Seconds to wait after the twin's supply (refunds: paid Cash-Ins) for its own leftovers.
    settle: { type: 'string', default: '5' },
    'build-dir': { type: 'string', default: '.wrangler/build' },
  },
});

const bundle = readFileSync(path.join(args['build-dir'], 'index.js'), 'utf8');
const moduleAt = moduleOfLine(bundle);

/** Profiles `worker` while `run()` goes on and until it is idle (a 1 s stretch under 5 % busy). */
async function profileUntilIdle(worker, run) {
  const { send, close } = await inspector(Number(args.inspector), worker);
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  await send('Profiler.start');
  const operations = await run();
  // Work left behind (execution, outbox, health) runs on: keep sampling a while after the load.
  await new Promise((r) => setTimeout(r, 8_000));
  const { result } = await send('Profiler.stop');
  close();
  return { operations, profile: result.profile };
}

function attribute(profile, per) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const sites = new Map();
  const groups = new Map();
  const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const name = byId.get(id).callFrame.functionName;
    if (name === '(idle)') return;
    let site;
    let inner;
    for (let cur = id; cur !== undefined && !site; cur = parent.get(cur)) {
      const f = byId.get(cur).callFrame;
      const m = f.url !== '' && f.lineNumber >= 0 ? moduleAt(f.lineNumber) : undefined;
      if (m && !inner) inner = `${f.functionName || '(anonymous)'} ${m}`;
      if (isObjectModule(m)) site = `${f.functionName || '(anonymous)'} ${m.replace('durable-objects/', '')}`;
    }
    if (site && args.site === 'any' && inner && !inner.includes(' durable-objects/'))
      site = `${inner} ← ${site}`;
    if (site) {
      add(sites, site, us);
      add(groups, site.split(' ').at(-1).startsWith('health') ? 'HealthAnalyzer' : 'ClientLedger', us);
    } else add(groups, name === '(program)' || name === '(garbage collector)' ? name : 'worker', us);
  });
  const fmt = (us) => `${(us / per).toFixed(1).padStart(8)} µs`;
  return {
    groups: [...groups].sort((a, b) => b[1] - a[1]).map(([k, us]) => `${fmt(us)}  ${k}`),
    sites: [...sites]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(args.top))
      .map(([k, us]) => `${fmt(us)}  ${k}`),
  };
}

const { scenarios } = await prepareScenarios({ base: args.base, hello: args.hello });
const twin = scenarios.find((s) => s.key === `object:${args.op}`);
if (!twin) throw new Error(`no object twin for ${args.op}`);
await twin.before?.({ expected: 20_000 });
await new Promise((r) => setTimeout(r, Number(args.settle) * 1_000));
const load = (url, requests) => async () =>
  (
    await autocannon({
      url,
      connections: Number(args.connections),
      duration: Number(args.duration),
      requests,
    })
  ).requests.total;

const items = twin.items ?? 1;
const measured = await profileUntilIdle(await gatewayWorker(args.inspector), load(args.hello, twin.requests));
const result = attribute(measured.profile, measured.operations * items);
console.log(
  `${twin.name}: ${measured.operations} calls (${measured.operations * items} operations); CPU per operation (per item), profile attributed:\n`,
);
console.log(result.groups.join('\n'));
console.log('\nby call site (innermost Durable Object frame):');
console.log(result.sites.join('\n'));

process.exit(0);
