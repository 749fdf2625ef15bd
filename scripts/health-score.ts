// npm run health:score -- [--seeds 1-6] [--holdout 101-104] [--clean-days 6] [--cases a,b] [--verbose]
// Scores the PIX health engine on the bench of test/support/health/bench (rules in score.ts): tuning
// seeds and held-out seeds (never tuned on), each with its own world, `--clean-days` judged no-fault
// days and one simulated day per fault case. Prints ONE line (stdout) and exits 1 if a target is missed;
// per-set lines and every miss go to stderr.
import { runSeed, type SeedResult } from '../test/support/health/bench/run';
import { formatSummary, summarize, targetsMet } from '../test/support/health/bench/score';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run health:score -- [--seeds 1-6] [--holdout 101-104] [--clean-days 6] [--cases a,b] [--verbose]

Scores the PIX health engine on the bench (tuning and held-out seeds, clean days, one day per fault
case). Prints one line; exit 1 if a target is missed. Takes minutes.
`);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

function seedList(spec: string): number[] {
  if (spec === '') return [];
  return spec.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    if (!Number.isInteger(a) || (b !== undefined && !Number.isInteger(b)))
      throw new Error(`bad seeds ${spec}`);
    return b === undefined ? [a!] : Array.from({ length: b - a! + 1 }, (_, i) => a! + i);
  });
}

const tuning = seedList(arg('seeds', '1-6'));
const holdout = seedList(arg('holdout', '101-104'));
const cleanDays = Number(arg('clean-days', '6'));
const cases = process.argv.includes('--cases') ? arg('cases', '').split(',') : undefined;
const verbose = process.argv.includes('--verbose');
const t0 = performance.now();

function run(seeds: number[]): SeedResult[] {
  return seeds.map((seed) => {
    const r = runSeed(seed, { cleanDays, ...(cases ? { cases } : {}) });
    for (const o of r.outcomes) {
      const bad = !o.detected || !o.attributed || !o.resolvedOnTime;
      if (bad || verbose) {
        process.stderr.write(
          `  seed ${seed} ${o.label.name} ${o.label.originType}/${o.label.operation}: ` +
            `${o.detected ? `detected +${o.delayWindows?.toFixed(1)}w` : 'MISSED'}` +
            `${o.attributed ? '' : ' NOT-ATTRIBUTED'}${o.resolvedOnTime ? '' : ' LATE-RESOLVE'}\n`,
        );
      }
    }
    for (const f of r.falses) {
      const i = f.incident;
      process.stderr.write(
        `  seed ${seed} FALSE in ${f.scope}: ${i.origin.type}:${i.origin.id} ${i.operation} ${i.originClass} ` +
          `${i.startedAt}..${i.resolvedAt ?? 'open'} ${i.summary.slice(0, 140)}\n`,
      );
    }
    return r;
  });
}

const summaryOf = (rs: SeedResult[], seeds: number[]) =>
  summarize(
    rs.flatMap((r) => r.outcomes),
    rs.flatMap((r) => r.falses),
    rs.reduce((s, r) => s + r.noFaultDays, 0),
    seeds,
  );
const rt = run(tuning);
process.stderr.write(`tuning:   ${formatSummary(summaryOf(rt, tuning))}\n`);
const rh = run(holdout);
if (holdout.length) process.stderr.write(`held-out: ${formatSummary(summaryOf(rh, holdout))}\n`);
const all = summaryOf([...rt, ...rh], [...tuning, ...holdout]);
const obs = [...rt, ...rh].reduce((s, r) => s + r.observations, 0);
const ok = targetsMet(all);
process.stdout.write(
  `health:score ${formatSummary(all)} observations ${obs} in ${Math.round((performance.now() - t0) / 1000)}s; ` +
    `targets ${ok ? 'met' : 'MISSED'}\n`,
);
process.exitCode = ok ? 0 : 1;
