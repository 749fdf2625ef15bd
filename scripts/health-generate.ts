// npm run health:generate -- [--scenario <name>] [--days 3] [--seed 1] [--start 2026-11-02] [--peak 150] [--out file]
// Writes synthetic observations (docs/contract.md, PIX health) (NDJSON) to try the replay: several days of
// seasonal traffic over 3 partners, 10 banks and 6 clients, with the scenario's fault on the last day,
// 14:00-16:00 UTC.
import { createWriteStream } from 'node:fs';
import { defaultWorld, generateObservations, SCENARIOS } from '../test/support/health';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run health:generate -- [--scenario <name>] [--days N] [--seed N] [--start YYYY-MM-DD] [--peak tx/min] [--out file.ndjson]

Writes synthetic observations (NDJSON) with the scenario's fault on the last day, 14:00-16:00 UTC.
`);

const DAY = 86_400_000;

function usage(message: string): never {
  const names = Object.keys(SCENARIOS).join(', ');
  process.stderr.write(
    `${message}\nusage: npm run health:generate -- [--scenario <name>] [--days N] [--seed N] [--start YYYY-MM-DD] ` +
      `[--peak tx/min] [--out file.ndjson]\nscenarios: ${names}\n`,
  );
  process.exit(2);
}

const opts: Record<string, string> = {};
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i] ?? '';
  if (a === '--help' || a === '-h') usage('Generates synthetic PIX observations.');
  if (!a.startsWith('--') || args[i + 1] === undefined) usage(`bad argument ${a}`);
  opts[a.slice(2)] = args[++i] ?? '';
}
for (const k of Object.keys(opts)) {
  if (!['scenario', 'days', 'seed', 'start', 'peak', 'out'].includes(k)) usage(`unknown option --${k}`);
}
const scenarioName = opts.scenario ?? 'normal';
const scenario = SCENARIOS[scenarioName];
if (!scenario) usage(`unknown scenario ${scenarioName}`);
const days = Number(opts.days ?? 3);
const seed = Number(opts.seed ?? 1);
const peak = Number(opts.peak ?? 150);
const start = Date.parse(`${opts.start ?? '2026-11-02'}T00:00:00Z`);
if (!(days >= 1) || !Number.isInteger(days))
  usage('--days must be a positive integer (3 or more to pass the warm-up)');
if (!Number.isFinite(seed) || !(peak > 0) || !Number.isFinite(start)) usage('bad --seed, --peak or --start');

const world = defaultWorld(peak);
const lastDay = start + (days - 1) * DAY;
const out = opts.out ? createWriteStream(opts.out) : process.stdout;
let buffer = '';
let count = 0;
for (const obs of generateObservations({
  world,
  seed,
  from: start,
  to: start + days * DAY,
  faults: scenario.faults(world, lastDay),
})) {
  buffer += `${JSON.stringify(obs)}\n`;
  count++;
  if (buffer.length > 1 << 20) {
    if (!out.write(buffer)) await new Promise((resolve) => out.once('drain', resolve));
    buffer = '';
  }
}
out.write(buffer);
if (out !== process.stdout) out.end();
process.stderr.write(
  `health:generate: ${count} observations, scenario ${scenarioName} (${scenario.description}); expect: ${scenario.expect}\n`,
);
