// npm run health:score -- [--seeds 1-6] [--holdout 101-104] [--clean-days 6] [--cases a,b] [--verbose]
// npm run health:score -- --family N [--family-seed S] [--clean-days 10] [--held-out-only] [--cases a,b]
// Scores the PIX health engine on the bench of test/support/health/bench (rules in score.ts): tuning
// seeds and held-out seeds (never tuned on), each with its own world, `--clean-days` judged no-fault
// days and one simulated day per fault case. Prints ONE line (stdout) and exits 1 if a target is missed;
// per-set lines and every miss go to stderr.
// With --family N: N worlds drawn from the family (family.ts), each with its own structure. The first
// half (the tuning half, fixed) is drawn from family seed 1; the held-out half from --family-seed, by
// default a fresh random one (printed, to reproduce a run), so no test pins it. Targets are judged on
// the held-out half; the family's parameter ranges are printed first.
import { describeFamily, familySeeds } from '../test/support/health/bench/family';
import { runSeed, type SeedResult } from '../test/support/health/bench/run';
import {
  FAMILY_TARGETS,
  familyTargetsMet,
  formatSummary,
  summarize,
  targetsMet,
} from '../test/support/health/bench/score';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run health:score -- [--seeds 1-6] [--holdout 101-104] [--clean-days 6] [--cases a,b] [--verbose]
       npm run health:score -- --family N [--family-seed S] [--clean-days 10] [--held-out-only] [--cases a,b]

Scores the PIX health engine on the bench (tuning and held-out seeds, clean days, one day per fault
case), or on N worlds drawn from the family of worlds (targets judged on the held-out half, drawn
from --family-seed, random by default and printed). Prints one line; exit 1 if a target is missed.
Takes minutes.
`);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return (i >= 0 ? process.argv[i + 1] : undefined) ?? fallback;
}

function seedList(spec: string): number[] {
  if (spec === '') return [];
  return spec.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    if (a === undefined || !Number.isInteger(a) || (b !== undefined && !Number.isInteger(b)))
      throw new Error(`bad seeds ${spec}`);
    return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}

const familySize = process.argv.includes('--family') ? Number(arg('family', '0')) : 0;
if (process.argv.includes('--family') && !(Number.isInteger(familySize) && familySize >= 2))
  throw new Error('--family needs an integer N >= 2');
const familySeed = Number(arg('family-seed', String(1 + Math.floor(Math.random() * 2 ** 31))));
const tuning = familySize
  ? process.argv.includes('--held-out-only')
    ? []
    : familySeeds(1, familySize >> 1)
  : seedList(arg('seeds', '1-6'));
const holdout = familySize
  ? familySeeds(familySeed, familySize - (familySize >> 1))
  : seedList(arg('holdout', '101-104'));
const cleanDays = Number(arg('clean-days', familySize ? '10' : '6'));
const cases = process.argv.includes('--cases') ? arg('cases', '').split(',') : undefined;
const verbose = process.argv.includes('--verbose');
const t0 = performance.now();

function run(seeds: number[]): SeedResult[] {
  return seeds.map((seed) => {
    const r = runSeed(seed, {
      cleanDays,
      ...(cases ? { cases } : {}),
      ...(familySize ? { family: true } : {}),
    });
    for (const o of r.outcomes) {
      const bad = !o.detected || !o.attributed || !o.resolvedOnTime;
      const slowLimit =
        o.label.rampCross !== undefined
          ? FAMILY_TARGETS.rampDelay
          : o.label.originType === 'PAYER_COHORT'
            ? FAMILY_TARGETS.cohortDelay
            : Number.POSITIVE_INFINITY;
      const slow = familySize > 0 && (o.delayWindows ?? 0) > slowLimit;
      if (bad || slow || verbose) {
        process.stderr.write(
          `  seed ${seed} ${o.label.name} ${o.label.originType}/${o.label.operation}: ` +
            `${o.detected ? `detected +${o.delayWindows?.toFixed(1)}w` : 'MISSED'}` +
            `${o.attributed ? '' : ' NOT-ATTRIBUTED'}${o.resolvedOnTime ? '' : ' LATE-RESOLVE'}\n`,
        );
      }
    }
    if (familySize) {
      const d = r.draw;
      process.stderr.write(
        `  world ${seed}: ${r.outcomes.filter((o) => o.detected && o.attributed && o.resolvedOnTime).length}/` +
          `${r.outcomes.length} caught, ${r.falses.length} false, ${r.noFaultDays} no-fault days` +
          (d
            ? ` (volume x${d.volume.toFixed(2)}, ${d.banks} banks s ${d.bankZipf.toFixed(2)}, ${d.payDelay.kind})`
            : '') +
          ` at ${Math.round((performance.now() - t0) / 1000)}s\n`,
      );
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
if (familySize) {
  process.stdout.write(
    `health:score family of ${familySize}: tuning half ${tuning.length ? 'family seed 1' : 'skipped'}, ` +
      `held-out half family seed ${familySeed} (--family-seed ${familySeed} reproduces it); ${cleanDays} judged no-fault days a world\n`,
  );
}
const rt = run(tuning);
process.stderr.write(`tuning:   ${formatSummary(summaryOf(rt, tuning))}\n`);
const rh = run(holdout);
if (holdout.length) process.stderr.write(`held-out: ${formatSummary(summaryOf(rh, holdout))}\n`);
const obs = [...rt, ...rh].reduce((s, r) => s + r.observations, 0);
if (familySize) {
  const draws = [...rt, ...rh].flatMap((r) => (r.draw ? [r.draw] : []));
  process.stdout.write(
    `family parameter ranges (as drawn):\n${describeFamily(draws)
      .map((l) => `  ${l}\n`)
      .join('')}`,
  );
  const held = summaryOf(rh, holdout);
  const ok = familyTargetsMet(held);
  if (rt.length) process.stdout.write(`tuning half:   ${formatSummary(summaryOf(rt, tuning))}\n`);
  process.stdout.write(
    `health:score held-out half (family seed ${familySeed}): ${formatSummary(held)} observations ${obs} in ` +
      `${Math.round((performance.now() - t0) / 1000)}s; targets (median <= ${FAMILY_TARGETS.medianDelay}w, ramp and cohort <= ` +
      `${FAMILY_TARGETS.rampDelay}w, >= ${FAMILY_TARGETS.noFaultDays} no-fault days, 0 false) ${ok ? 'met' : 'MISSED'}\n`,
  );
  process.exit(ok ? 0 : 1);
}
const all = summaryOf([...rt, ...rh], [...tuning, ...holdout]);
const ok = targetsMet(all);
process.stdout.write(
  `health:score ${formatSummary(all)} observations ${obs} in ${Math.round((performance.now() - t0) / 1000)}s; ` +
    `targets ${ok ? 'met' : 'MISSED'}\n`,
);
process.exitCode = ok ? 0 : 1;
