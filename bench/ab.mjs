#!/usr/bin/env node
// A/B of the ClientLedger's own CPU per operation between two bundles on one machine: two runtimes
// side by side (say, the main branch's bundle and this one's), each with its reference worker, and
// their object twins (runtime/reference-worker.mjs, /ledger/<op>) loaded in alternating slices, so
// both meet the same drift from other work on the machine. Each slice is billed from its start
// until its runtime is idle again (workerd's CPU from /proc), the bare RPC hop (floor-rpc)
// likewise; object CPU = twin − hop per call, as `npm run bench` reports it.
//
//   node scripts/serve.mjs --no-build --build-dir=/tmp/base --port 9410 --hello-port 9411 … &  (A)
//   node scripts/serve.mjs --port 9420 --hello-port 9421 … &                                    (B)
//   node bench/ab.mjs --a=9410,9411,<serve pid A> --b=9420,9421,<serve pid B> --op=cash-in
//
// The Worker's side of an operation (what runs outside the object, e.g. the QR PNG of a Cash-In)
// is a gateway scenario against a reference scenario that differs from it by that part only:
//   node bench/ab.mjs --a=… --b=… --scenario=cash-in --reference=cash-in-noqr
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { prepareScenarios } from './scenarios.mjs';

const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    op: { type: 'string', default: 'cash-in' },
    // A scenario of bench/scenarios.mjs instead of the object twin, and the one subtracted from it.
    scenario: { type: 'string' },
    reference: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    // Operations a twin's supply prepares before each slice (refunds: paid Cash-Ins).
    supply: { type: 'string', default: '1000' },
  },
});

/** CPU seconds of the workerd processes a serve.mjs process started. */
function cpuSeconds(servePid) {
  let total = 0;
  const children = readFileSync(`/proc/${servePid}/task/${servePid}/children`, 'utf8').trim().split(/\s+/);
  for (const pid of children.filter(Boolean)) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    total += (Number(fields[11]) + Number(fields[12])) / 100;
  }
  return total;
}

/** Until the runtime uses under 10 % of a core over half a second (at most 60 s). */
async function idle(servePid) {
  const started = Date.now();
  for (let previous = cpuSeconds(servePid); Date.now() - started < 60_000; ) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuSeconds(servePid);
    if (now - previous < 0.05) return;
    previous = now;
  }
}

async function side(spec) {
  const [port, helloPort, pid] = spec.split(',');
  const base = `http://127.0.0.1:${port}`;
  const { scenarios } = await prepareScenarios({
    base,
    hello: `http://127.0.0.1:${helloPort}`,
  });
  const find = (key) => scenarios.find((s) => s.key === key);
  return {
    base,
    pid: Number(pid),
    twin: find(args.scenario ?? `object:${args.op}`),
    hop: find(args.reference ?? 'floor-rpc'),
    bill: { twin: { cpu: 0, calls: 0 }, hop: { cpu: 0, calls: 0 } },
  };
}

async function slice(s, which) {
  const scenario = s[which];
  await idle(s.pid);
  if (scenario.before) {
    await scenario.before({ expected: Number(args.supply) });
    await idle(s.pid);
  }
  const start = cpuSeconds(s.pid);
  const result = await autocannon({
    url: scenario.url ?? s.base,
    connections: Number(args.connections),
    duration: Number(args.seconds),
    requests: scenario.requests,
  });
  await idle(s.pid);
  s.bill[which].cpu += cpuSeconds(s.pid) - start;
  s.bill[which].calls += result['2xx'];
  if (result.non2xx > 0) console.log(`  (${which}: ${result.non2xx} non-2xx answers, not counted)`);
}

const sides = { A: await side(args.a), B: await side(args.b) };
// Each round's part per call, per side: their median resists a round that met a burst of other work.
const rounds = { A: [], B: [] };
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const what = args.scenario === undefined ? 'object' : `${args.scenario} − ${args.reference ?? 'floor-rpc'}`;
const perCall = (b) => (b.cpu * 1e6) / b.calls;
for (let round = 0; round < Number(args.rounds); round++) {
  const order = round % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
  const before = Object.fromEntries(
    Object.entries(sides).map(([name, s]) => [name, structuredClone(s.bill)]),
  );
  for (const name of order) {
    await slice(sides[name], 'hop');
    await slice(sides[name], 'twin');
  }
  // This round alone, then the run so far.
  const delta = (name, which) => ({
    cpu: sides[name].bill[which].cpu - before[name][which].cpu,
    calls: sides[name].bill[which].calls - before[name][which].calls,
  });
  const line = Object.keys(sides).map((name) => {
    const [twin, hop] = [perCall(delta(name, 'twin')), perCall(delta(name, 'hop'))];
    rounds[name].push(twin - hop);
    return `${name} ${what} ${(twin - hop).toFixed(0)} µs (twin ${twin.toFixed(0)}, hop ${hop.toFixed(0)})`;
  });
  console.log(`round ${round + 1}: ${line.join(' | ')}`);
}
const part = (s) => perCall(s.bill.twin) - perCall(s.bill.hop);
const [a, b] = [part(sides.A), part(sides.B)];
const calls = `${sides.A.bill.twin.calls} and ${sides.B.bill.twin.calls} calls`;
console.log(
  `\n${args.scenario ?? `object:${args.op}`} CPU per call: A ${perCall(sides.A.bill.twin).toFixed(0)} µs, B ${perCall(sides.B.bill.twin).toFixed(0)} µs`,
);
console.log(
  `${what} per call, all rounds: A ${a.toFixed(0)} µs, B ${b.toFixed(0)} µs: B/A ${(b / a).toFixed(3)} (${calls})`,
);
const [ma, mb] = [median(rounds.A), median(rounds.B)];
console.log(
  `${what} per call, median round: A ${ma.toFixed(0)} µs, B ${mb.toFixed(0)} µs: B/A ${(mb / ma).toFixed(3)}`,
);
process.exit(0);
