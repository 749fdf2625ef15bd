// Replay throughput of the PIX health engine.  npx tsx bench/health-replay.bench.ts [--peak 800] [--days 3] [--runs 3]
// Generates a few million observations in memory (5 partners, 40 banks, 30 clients, faults on the last
// day so attribution and incidents run too), then measures:
//   core    Analyzer.ingest(observation) + window closes (what the Durable Object runs per queue message)
//   replay  NDJSON line -> JSON.parse -> parseObservation -> ingest (what `npm run health:replay` runs)
// Target: >= 250,000 observations/s on the core.

import { exitWithUsageIfAsked } from '../scripts/usage.mjs';
import { present } from '../src/domain/present';
import { Analyzer, ReplaySession } from '../src/health/index';
import { faults, generateArray, scaledWorld, worldNames } from '../test/support/health';

exitWithUsageIfAsked(`
Usage: npm run bench:health -- [--peak 800] [--days 3] [--runs 3]

Replay throughput of the PIX health engine on a few million generated observations (target:
>= 250,000 observations/s on the core).
`);

const DAY = 86_400_000;
const HOUR = 3_600_000;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`bad --${name}`);
  return v;
}

const peak = arg('peak', 800);
const days = arg('days', 3);
const runs = arg('runs', 3);
const start = Date.UTC(2026, 10, 2);
const last = start + (days - 1) * DAY;
const world = scaledWorld({ partners: 5, institutions: 40, clients: 30, peakPerMinute: peak, seed: 7 });
const names = worldNames(world);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

let t = performance.now();
const observations = generateArray({
  world,
  seed: 1,
  from: start,
  to: start + days * DAY,
  faults: [
    faults.partnerFailure(
      present(world.partners[0], 'a partner').ispb,
      'CASH_OUT',
      last + 14 * HOUR,
      last + 15 * HOUR,
      0.8,
    ),
    faults.institutionSilence(
      present(world.institutions[1], 'a second institution').ispb,
      last + 16 * HOUR,
      last + 17 * HOUR,
    ),
    faults.merchantCollapse(
      present(world.clients[0], 'a client').clientId,
      'CASH_IN',
      last + 18 * HOUR,
      last + 19 * HOUR,
    ),
  ],
});
console.log(
  `generated ${fmt(observations.length)} observations over ${days} days in ${fmt(performance.now() - t)} ms`,
);

const end = start + days * DAY;
let best = 0;
let changes = 0;
let analyzer: Analyzer | null = null;
for (let r = 0; r < runs; r++) {
  const a = new Analyzer({ names });
  changes = 0;
  t = performance.now();
  for (const o of observations) changes += a.ingest(o).length;
  changes += a.advanceTo(end).length;
  const ms = performance.now() - t;
  const rate = observations.length / (ms / 1000);
  best = Math.max(best, rate);
  console.log(
    `core   run ${r + 1}: ${fmt(ms)} ms  ${fmt(rate)} obs/s  (${a.getStats().windowsClosed} windows, ${changes} incident changes)`,
  );
  analyzer = a;
}

const lines = observations.map((o) => JSON.stringify(o));
observations.length = 0;
let bestReplay = 0;
for (let r = 0; r < runs; r++) {
  let out = 0;
  const session = new ReplaySession({ config: { names }, onOutput: () => out++, onError: () => {} });
  t = performance.now();
  for (const line of lines) session.push(line);
  session.end(end);
  const ms = performance.now() - t;
  const rate = lines.length / (ms / 1000);
  bestReplay = Math.max(bestReplay, rate);
  console.log(`replay run ${r + 1}: ${fmt(ms)} ms  ${fmt(rate)} lines/s  (${out} incident lines)`);
}

const snapshotBytes = JSON.stringify(present(analyzer, "the last run's analyzer").snapshot()).length;
console.log(
  `\nbest core ${fmt(best)} obs/s (${(1e6 / best).toFixed(2)} µs/obs), best replay ${fmt(bestReplay)} lines/s; ` +
    `target 250,000 obs/s: ${best >= 250_000 ? 'met' : 'NOT met'}; snapshot ${fmt(snapshotBytes / 1024)} KiB`,
);
