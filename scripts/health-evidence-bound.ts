// npx tsx scripts/health-evidence-bound.ts [--family-seed S] [--worlds 10]
// How early the evidence of each ramp and small-bank cohort of the family's held-out worlds allows ANY
// detector to alarm within the false-alarm budget: an oracle told the faulty slice and the fault's start
// (test/support/health/bench/bound.ts). One line per case, then per kind how many are over 3 windows at
// minute resolution, at window ends, and paying for the search over slices and starts.
import { boundCase, type CaseBound } from '../test/support/health/bench/bound';
import { faultCases } from '../test/support/health/bench/cases';
import { familySeeds, familyWorld } from '../test/support/health/bench/family';
import { DAY_MS } from '../test/support/health/world';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npx tsx scripts/health-evidence-bound.ts [--family-seed S] [--worlds 10]

Lower bound on the detection delay of every ramp and small-bank cohort of the family's held-out
worlds: an oracle told the faulty slice and the fault's start alarms at the first minute its evidence
is within the false-alarm budget. One line per case, then the worst.
`);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return (i >= 0 ? process.argv[i + 1] : undefined) ?? fallback;
}

const familySeed = Number(arg('family-seed', '1543586825'));
const worlds = Number(arg('worlds', '10'));
type Key = 'windows' | 'windowEnd' | 'search';
const rows: CaseBound[] = [];
for (const seed of familySeeds(familySeed, worlds)) {
  const start = Date.UTC(2026, 10, 2) + (seed % 7) * DAY_MS;
  const branchDay = start + 3 * DAY_MS;
  const { world } = familyWorld(seed, start, 4);
  for (const c of faultCases(world, seed, branchDay)) {
    const row = boundCase(world, seed, c);
    if (row === null) continue;
    rows.push(row);
    const f = (x: number | null) => (x === null ? 'never' : `${x.toFixed(1)}w`);
    process.stdout.write(
      `world ${seed} ${c.name}: oracle ${f(row.windows)} (minute), ${f(row.windowEnd)} (window end), ` +
        `${f(row.search)} (searching, window end)\n`,
    );
  }
}
for (const kind of ['ramp', 'cohort'] as const) {
  const mine = rows.filter((r) => r.kind === kind);
  const column = (key: Key, name: string) => {
    const never = mine.filter((r) => r[key] === null).length;
    const late = mine.filter((r) => r[key] !== null && (r[key] as number) > 3);
    const max = Math.max(...mine.filter((r) => r[key] !== null).map((r) => r[key] as number));
    return `${name} ${late.length + never} (max ${max.toFixed(1)}w${never ? `, ${never} never` : ''})`;
  };
  process.stdout.write(
    `${kind}s: ${mine.length}; over 3 windows: ${column('windows', 'oracle at minute resolution')}, ` +
      `${column('windowEnd', 'at window ends')}, ${column('search', 'searching')}\n`,
  );
}
