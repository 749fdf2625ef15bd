#!/usr/bin/env node
// `npm run bench`: throughput and latency of the hot paths on the production-like local runtime
// (`npm run serve`, runtime/local-runtime.mjs), against the reference worker served by the same
// workerd (runtime/reference-worker.mjs): hello world as the ceiling, and a bare Durable Object RPC
// doing one SQLite read / one write as the floor of any request backed by a Durable Object. Each
// scenario: autocannon, 50 connections, a short warm-up then a bounded measured run in slices
// interleaved with every other scenario's (5 rounds), each slice after the runtime is idle again.
// Besides req/s and latency it reports workerd's CPU time per request, which other load on the
// machine disturbs far less. Fresh state in a temporary directory (tmpfs when
// there is one); nothing of `npm start` / `npm run serve` is touched. Raw results: .bench/results.json.
//
//   npm run bench                        # 50 connections, 10 s per scenario in 5 rounds of 2 s
//   npm run bench -- --rounds=1          # each scenario in one piece, one after the other
//   BENCH_DURATION=5 BENCH_CONNECTIONS=20 npm run bench
//   npm run bench -- --duration=5 --rounds=2 --open-duration=3   # a shorter run
//   npm run bench -- --port=9700         # gateway on 9700, reference worker on 9701 (default: free ports)
//   npm run bench -- --only=get-by-id,ceiling
//   npm run bench -- --build-dir=/tmp/patched-build     # A/B: serve a prebuilt (patched) bundle
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { writeDevVars } from '../scripts/dev-vars.mjs';
import { exitWithUsageIfAsked } from '../scripts/usage.mjs';
import { attributeToObjects } from './attribute.mjs';
import { openLoop } from './open-loop.mjs';
import { REFERENCE_KEYS, reportLines, targetLines } from './report.mjs';
import { prepareScenarios } from './scenarios.mjs';

exitWithUsageIfAsked(`
Usage: npm run bench -- [--rounds=N] [--only=a,b] [--build-dir=<dir>]

Req/s and latency of the hot paths against npm run serve (fresh state), beside the reference worker.
  --duration=<s>      seconds per scenario (BENCH_DURATION, default 10)
  --warmup=<s>        warm-up seconds (BENCH_WARMUP, default 3)
  --connections=<n>   autocannon connections (BENCH_CONNECTIONS, default 50)
  --rounds=<n>        slices per scenario, interleaved (BENCH_ROUNDS, default 5)
  --only=<a,b>        only these scenarios
  --open-duration=<s> open-loop seconds per gateway scenario (BENCH_OPEN_DURATION, default 5; 0: none)
  --open-only         only the open loop, at half the req/s an earlier run recorded per scenario
                      (--open-rates=<results.json>, default .bench/results.json); writes .bench/open-loop.json
  --open-priority     the open loop at nice -10 (--open-nice=<n>) for the bench's processes (a shared
                      machine; Linux, as root)
  --open-compare      each open-loop scenario first as it ran before 2026-11-27 12:00, then as now
  --build-dir=<dir>   serve a prebuilt bundle (A/B)
Results: .bench/results.json; the Worker's log: .bench/serve.log. See docs/benchmark.md.
`);

const ROOT = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    duration: { type: 'string', default: process.env.BENCH_DURATION || '10' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP || '3' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS || '50' },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS || '5' },
    // Open-loop latency: seconds per scenario at half its measured maximum (0: skipped).
    'open-duration': { type: 'string', default: process.env.BENCH_OPEN_DURATION || '5' },
    // Only the open loop, at half the req/s of an earlier run's results file.
    'open-only': { type: 'boolean', default: false },
    'open-rates': { type: 'string', default: path.join(ROOT, '.bench', 'results.json') },
    // The open loop with the bench's processes at nice -10 (a machine shared with other work).
    'open-priority': { type: 'boolean', default: false },
    'open-nice': { type: 'string', default: '-10' },
    // Each open-loop scenario first as it ran before 2026-11-27 12:00, then as now.
    'open-compare': { type: 'boolean', default: false },
    // The gateway's port (the reference worker takes the next one); default: two free ports.
    port: { type: 'string', default: process.env.BENCH_PORT },
    // A/B experiments: serve an already built bundle (e.g. a patched copy of .wrangler/build).
    'build-dir': { type: 'string' },
  },
});
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const ONLY = args.only ? new Set(args.only.split(',')) : undefined;
const OPEN_DURATION = Number(args['open-duration']);
const OPEN_ONLY = args['open-only'] ? args['open-rates'] : undefined;
const earlier = OPEN_ONLY ? JSON.parse(readFileSync(OPEN_ONLY, 'utf8')).results : undefined;
const ADMIN_TOKEN = 'dev-admin-token';

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, seconds = 120) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

// ── Runtime ──────────────────────────────────────────────────────────────────

// Fresh state for every run. By default on tmpfs (/dev/shm) when there is one: the local SQLite
// files of D1 and the Durable Objects fsync every commit, so on a virtual disk the disk's flush
// latency, not the gateway, would set the pace. BENCH_STATE_DIR=<dir> measures on that disk.
const stateParent =
  process.env.BENCH_STATE_DIR ||
  (existsSync('/dev/shm') && process.platform === 'linux' ? '/dev/shm' : tmpdir());
const stateDir = mkdtempSync(path.join(stateParent, 'connectpsp-bench-'));
const logDir = path.join(ROOT, '.bench');
mkdirSync(logDir, { recursive: true });
const [port, helloPort, inspectorPort] = args.port
  ? [Number(args.port), Number(args.port) + 1, Number(args.port) + 2]
  : [await freePort(), await freePort(), await freePort()];
const serveLog = path.join(logDir, 'serve.log');
function benchVars() {
  const file = writeDevVars(path.join(stateDir, 'bench.vars'));
  appendFileSync(file, 'BENCH_SEED=on\n');
  return file;
}
// The worker's own request logs go to a file, as a log shipper would take them from stdout.
const child = spawn(
  process.execPath,
  [
    path.join(ROOT, 'scripts', 'serve.mjs'),
    `--port=${port}`,
    `--hello-port=${helloPort}`,
    `--persist-to=${stateDir}`,
    // The second measure of the object's own CPU profiles the gateway's isolate (bench/attribute.mjs).
    `--inspector-port=${inspectorPort}`,
    ...(args['build-dir'] ? ['--no-build', `--build-dir=${args['build-dir']}`] : []),
    // Secrets for this run only: the bench never reads or writes the developer's .dev.vars.
    // BENCH_SEED=on opens the bench-only history seeding (src/staging/bench-seed.ts) for this run only.
    `--vars-file=${benchVars()}`,
  ],
  {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
const logStream = createWriteStream(serveLog);
child.stdout.pipe(logStream);
child.stderr.pipe(logStream);
const stopServe = () => {
  if (child.exitCode === null) child.kill('SIGTERM');
};
/** Stops serve.mjs and waits for it (it ends its workerd itself, forcibly after 5 s). */
const stopServeAndWait = () =>
  child.exitCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => {
        child.once('exit', resolve);
        setTimeout(resolve, 10_000);
        stopServe();
      });
process.on('exit', () => {
  stopServe();
  rmSync(stateDir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const BASE = `http://127.0.0.1:${port}`;
const HELLO = `http://127.0.0.1:${helloPort}`;
console.log(`Starting the runtime (bundle + workerd) … log: ${path.relative(ROOT, serveLog)}`);
await waitFor(`${HELLO}/`, child);
await waitFor(`${BASE}/.well-known/jwks.json`, child);

console.log('Preparing the clients (the @history one is seeded with a month of history) …');
const { scenarios, seedSeconds } = await prepareScenarios({
  base: BASE,
  hello: HELLO,
  adminToken: ADMIN_TOKEN,
  // The month of history is seeded only when a @history twin is to run (--only may leave them out).
  history: !ONLY || [...ONLY].some((key) => key.endsWith('@history')),
});

/**
 * CPU seconds used so far by workerd (the runtime's only process on the request path) and by the
 * serve.mjs process (log forwarding), from /proc: CPU per request is far steadier than req/s on a
 * machine shared with other work.
 */
function cpuSeconds() {
  const read = (pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
    } catch {
      return Number.NaN;
    }
  };
  let children = [];
  try {
    children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
  } catch {}
  return { workerd: children.reduce((sum, pid) => sum + read(pid), 0), serve: read(child.pid) };
}

/** workerd's pid (serve.mjs's child), for the open loop's account of who waited for a core. */
function workerdPid() {
  try {
    return readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0];
  } catch {
    return undefined;
  }
}

function cannon(scenario, duration) {
  return autocannon({
    url: scenario.url ?? BASE,
    connections: scenario.connections ?? CONNECTIONS,
    duration,
    requests: scenario.requests,
    timeout: 10,
    skipAggregateResult: true, // slices are merged below, latency histograms included
  });
}

/**
 * Waits until workerd is idle (under 10 % of a core over half a second, at most 60 s): the work a
 * scenario leaves behind — alarms dispatching webhooks, outbox flushes, queue consumers, Cash-Out
 * settlement — must not be billed to the next scenario.
 */
async function settle() {
  const started = Date.now();
  for (let previous = cpuSeconds().workerd; Date.now() - started < 60_000; ) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuSeconds().workerd;
    if (Number.isNaN(now) || now - previous < 0.05) break;
    previous = now;
  }
  return (Date.now() - started) / 1000;
}

/**
 * One slice of a scenario: settle, warm up, measure, and for scenarios that leave work behind
 * (`untilIdle`: Cash-Out execution, refunds, outbox flushes) settle again and bill the CPU from the
 * warm-up's start until idle over every request sent, with their outcome checked where there is a
 * `verify` (how many of the accepted ones completed). `expected`: requests the slice may send, for
 * scenarios that prepare a supply first (refunds need paid Cash-Ins), outside the measured CPU.
 */
async function slice(scenario, warmup, duration, expected) {
  await settle();
  // A supply's own leftovers (outbox flushes of the Cash-Ins it paid) are not the slice's.
  if (scenario.before && (await scenario.before({ expected })) !== false) await settle();
  const cpuStart = cpuSeconds();
  const warm = warmup > 0 ? await cannon(scenario, warmup) : undefined;
  const cpuBefore = cpuSeconds();
  const measured = await cannon(scenario, duration);
  const cpuAfter = cpuSeconds();
  const out = { measured, cpu: subtract(cpuAfter, cpuBefore) };
  if (scenario.untilIdle || scenario.verify) {
    await settle();
    out.full = {
      cpu: cpuSeconds().workerd - cpuStart.workerd,
      sent: measured.totalCompletedRequests + (warm?.totalCompletedRequests ?? 0),
      accepted: measured['2xx'] + (warm?.['2xx'] ?? 0),
      ...(scenario.verify ? await scenario.verify() : { completed: 0, other: 0 }),
    };
  }
  return out;
}
const subtract = (a, b) => ({ workerd: a.workerd - b.workerd, serve: a.serve - b.serve });
const sliceRps = (s) => s.measured.totalCompletedRequests / s.measured.duration;

// Every scenario runs in ROUNDS interleaved slices (round 1 all scenarios, then round 2, …): load
// from elsewhere on the machine drifts over minutes, and a ratio between two scenarios (a share of
// a floor, a @history twin against its empty-client scenario) is only fair if both were measured
// under the same drift. Round 1 warms up for WARMUP s; later rounds 1 s (connections, not JIT).
const ROUNDS = OPEN_ONLY ? 0 : Math.max(1, Number(args.rounds));
const active = scenarios.filter((s) => (!ONLY || ONLY.has(s.key)) && (!earlier || earlier[s.key]?.rps > 0));
const slices = new Map(active.map((s) => [s.key, []]));
for (const scenario of active) if (scenario.skip) console.log(`- ${scenario.name}: ${scenario.skip}`);
if (!OPEN_ONLY)
  console.log(
    `Measuring ${active.filter((s) => !s.skip).length} scenarios in ${ROUNDS} interleaved rounds of ` +
      `${(DURATION / ROUNDS).toFixed(1)} s each …`,
  );
for (let round = 0; round < ROUNDS; round++) {
  const line = [];
  for (const scenario of active) {
    if (scenario.skip) continue;
    const warmup = round === 0 ? WARMUP : Math.min(WARMUP, 1);
    const lastRps = slices.get(scenario.key).at(-1);
    const expected = Math.ceil((lastRps ? sliceRps(lastRps) : 1500) * (warmup + DURATION / ROUNDS) * 1.5);
    const s = await slice(scenario, warmup, DURATION / ROUNDS, expected);
    slices.get(scenario.key).push(s);
    line.push(`${scenario.key} ${Math.round(sliceRps(s))}`);
  }
  console.log(`- round ${round + 1}/${ROUNDS} (req/s): ${line.join(', ')}`);
}

const results = active.map((scenario) => {
  if (scenario.skip) return { ...scenario };
  // Open loop only: the earlier run's numbers stand for this scenario's maximum.
  if (earlier) return { ...earlier[scenario.key], openLoop: undefined };
  const parts = slices.get(scenario.key);
  const sum = (f) => parts.reduce((n, p) => n + f(p), 0);
  const merged = autocannon.aggregateResult(
    parts.map((p) => p.measured),
    { url: scenario.url ?? BASE, connections: CONNECTIONS },
  );
  const total = sum((p) => p.measured.totalCompletedRequests);
  const ok = sum((p) => p.measured['2xx']);
  const full = scenario.untilIdle
    ? {
        cpuUs: (sum((p) => p.full.cpu) * 1e6) / sum((p) => p.full.sent),
        accepted: sum((p) => p.full.accepted),
        completed: sum((p) => p.full.completed),
        other: sum((p) => p.full.other),
      }
    : undefined;
  return {
    key: scenario.key,
    name: scenario.name,
    items: scenario.items ?? 1,
    rps: total / sum((p) => p.measured.duration),
    // Percentiles of every measured request of every slice (the merged latency histogram).
    p50: merged.latency.p50,
    p99: merged.latency.p99,
    ok,
    failed: total - ok,
    workerdCpuUs: (sum((p) => p.cpu.workerd) * 1e6) / total,
    serveCpuUs: (sum((p) => p.cpu.serve) * 1e6) / total,
    errors: merged.errors,
    statusCodes: Object.fromEntries(Object.entries(merged.statusCodeStats).map(([s, v]) => [s, v.count])),
    full,
    // Each round's req/s, to see how much the machine's load moved during the run.
    roundRps: parts.map(sliceRps),
  };
});

// ── Open loop ────────────────────────────────────────────────────────────────

// Every gateway scenario again, at a constant arrival rate of half the maximum it can sustain
// (bench/open-loop.mjs): latency as a user sees it at a sustainable load. The references and the
// object twin are not gateway scenarios.
const isGateway = (r) => !r.skip && !REFERENCE_KEYS.has(r.key) && !r.key.startsWith('object:');
const pct = (share) => `${(share * 100).toFixed(0)} %`;
/**
 * The req/s a scenario sustains. A scenario that leaves work behind (`full`: Cash-Out execution,
 * outbox, webhooks) was measured at the rate its requests were answered while that work piled up;
 * billed until idle, each request costs `full.cpuUs`, and the rate workerd can keep up with is the
 * measured one scaled by the CPU during the slice over the CPU until idle. A 100-item batch costs
 * 17 ms while answered and 51 ms until its items are COMPLETED: half its answered rate keeps workerd
 * busy 100 % of the time, and an open loop at that rate only measures a growing backlog.
 */
const sustainableRps = (r) =>
  r.full?.cpuUs > r.workerdCpuUs ? (r.rps * r.workerdCpuUs) / r.full.cpuUs : r.rps;
/**
 * `--open-priority`: the open loop runs with the bench's autogroup (the bench, serve.mjs and
 * workerd: one session) at nice -10 (`--open-nice`), so on a machine shared with other work
 * workerd gets the cores it would have on its own (Linux only; needs CAP_SYS_NICE). Other
 * processes run slower meanwhile.
 */
function setPriority(nice) {
  for (const pid of new Set([String(process.pid), workerdPid()].filter(Boolean))) {
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(nice));
    } catch (error) {
      console.log(`(--open-priority: could not set ${pid}'s autogroup: ${error.message})`);
      return false;
    }
  }
  return true;
}
const describe = (key, o) =>
  `- ${key} at ${o.rate}/s: p50 ${o.p50}, p99 ${o.p99}, p99.9 ${o.p999} ms; generator late by ≤ ${o.sendLag.max} ms; ` +
  `workerd ran ${pct(o.machine.workerdRun)} and waited for a core ${pct(o.machine.workerdWait)} of the time`;
if (OPEN_DURATION > 0) {
  const gateway = results.filter(isGateway);
  console.log(
    `Open loop: ${gateway.length} scenarios at 50 % of the req/s each sustains, ${OPEN_DURATION} s each` +
      `${args['open-priority'] ? `, the bench at nice ${args['open-nice']}` : ''}${args['open-compare'] ? ', each first as before' : ''} …`,
  );
  for (const r of gateway) {
    const scenario = active.find((s) => s.key === r.key);
    const warmPath = scenario.url ? '/' : '/.well-known/jwks.json';
    if (args['open-compare']) {
      // As the open loop ran before 2026-11-27 12:00: half the answered req/s, a lazily opened
      // pool, the machine's priority.
      await settle();
      await scenario.before?.({ expected: Math.ceil(r.rps * 0.5 * OPEN_DURATION * 1.2) });
      r.openLoopBefore = await openLoop(
        scenario.url ?? BASE,
        scenario,
        Math.max(1, r.rps * 0.5),
        OPEN_DURATION,
        {
          workerdPid: workerdPid(),
          lazyPool: true,
        },
      );
      console.log(`${describe(r.key, r.openLoopBefore)} (as before)`);
    }
    const rate = Math.max(1, sustainableRps(r) * 0.5);
    await settle();
    await scenario.before?.({ expected: Math.ceil(rate * OPEN_DURATION * 1.2) });
    const prioritized = args['open-priority'] && setPriority(Number(args['open-nice']));
    try {
      r.openLoop = await openLoop(scenario.url ?? BASE, scenario, rate, OPEN_DURATION, {
        workerdPid: workerdPid(),
        warmPath,
      });
    } finally {
      if (prioritized) setPriority(0);
    }
    r.openLoop.priority = prioritized ? Number(args['open-nice']) : 0;
    console.log(describe(r.key, r.openLoop));
  }
  // The runtime's own tail: the reference worker's hello world + one log line, open loop at the
  // highest gateway rate, under the same priority. Its stalls (workerd's garbage collection, the
  // machine) are in every gateway scenario's tail too.
  const reference = results.find((r) => r.key === 'ceiling-log' && !r.skip);
  const highest = Math.max(0, ...gateway.map((r) => r.openLoop.rate));
  if (reference && highest > 0) {
    const scenario = active.find((s) => s.key === reference.key);
    await settle();
    const prioritized = args['open-priority'] && setPriority(Number(args['open-nice']));
    try {
      reference.openLoop = await openLoop(scenario.url, scenario, highest, OPEN_DURATION, {
        workerdPid: workerdPid(),
      });
    } finally {
      if (prioritized) setPriority(0);
    }
    reference.openLoop.priority = prioritized ? Number(args['open-nice']) : 0;
    console.log(`${describe(reference.key, reference.openLoop)} (reference)`);
  }
}

// ── The object's CPU measured a second way ───────────────────────────────────

// The object twin gives the ClientLedger's own CPU per operation (bench/report.mjs). Check it on
// cash-in against a CPU profile of the real gateway scenario, attributed by module: the objects'
// share of the attributed time, applied to the scenario's CPU per request from /proc.
let attribution;
const cashIn = active.find((s) => s.key === 'cash-in');
if (cashIn && !cashIn.skip && !OPEN_ONLY) {
  await settle();
  const buildDir = args['build-dir'] ?? path.join(ROOT, '.wrangler', 'build');
  const profiled = await attributeToObjects({
    port: inspectorPort,
    bundleText: readFileSync(path.join(buildDir, 'index.js'), 'utf8'),
    // The scenario's own load and length (more samples than a short run: its share moved ±15 %
    // between runs at 4 s), profiled until idle like the CPU it is applied to.
    load: async () => (await cannon(cashIn, Math.max(DURATION, 6))).totalCompletedRequests,
    idle: settle,
  });
  attribution = {
    scenario: 'cash-in',
    ...profiled,
    share: profiled.objectUs / (profiled.objectUs + profiled.workerUs),
  };
}

// ── Report ───────────────────────────────────────────────────────────────────

const machine =
  `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}, ` +
  `load average ${loadavg()[0].toFixed(1)} at the end`;
console.log(
  `\nConnectPSP benchmark — ${new Date().toISOString().slice(0, 10)}, ${machine}; ` +
    `${CONNECTIONS} connections, ${DURATION} s per scenario in ${ROUNDS} interleaved rounds after ${WARMUP} s warm-up, ` +
    `state in ${stateParent}; @history client seeded in ${seedSeconds?.toFixed(1)} s\n`,
);
if (OPEN_ONLY) {
  for (const line of targetLines(results, attribution)) if (line.startsWith('- open loop')) console.log(line);
  writeFileSync(
    path.join(logDir, 'open-loop.json'),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine,
        rates: OPEN_ONLY,
        OPEN_DURATION,
        results: Object.fromEntries(
          results
            .filter((r) => r.openLoop)
            .map((r) => [r.key, { ...r.openLoop, ...(r.openLoopBefore && { before: r.openLoopBefore }) }]),
        ),
      },
      null,
      2,
    ),
  );
  await stopServeAndWait();
  process.exit(0);
}
for (const line of reportLines(results)) console.log(line);
console.log('');
for (const line of targetLines(results, attribution)) console.log(line);
writeFileSync(
  path.join(logDir, 'results.json'),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine,
      CONNECTIONS,
      DURATION,
      ROUNDS,
      seedSeconds,
      OPEN_DURATION,
      attribution,
      // One entry per scenario under its key (ceiling, floor, cash-in, get-by-id@history, …).
      results: Object.fromEntries(results.map((r) => [r.key, r])),
    },
    null,
    2,
  ),
);
await stopServeAndWait();
process.exit(0);
