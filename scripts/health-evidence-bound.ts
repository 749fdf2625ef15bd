// npx tsx scripts/health-evidence-bound.ts [--family-seed S] [--worlds 10]
// How early the evidence of a ramp or a small-bank cohort allows ANY detector to alarm within the
// false-alarm budget, on the held-out half of the family (test/support/health/bench/family.ts). An
// oracle is told the faulty slice (the ramping partner; the cohort's members) and the minute the fault
// began, and tests everything the slice did since then against its own pre-fault behaviour, minute by
// minute: failures against Binomial(n, p0) (p0: the partner's rate over the 3 hours before, floored at
// 1 %), a cohort's outcomes against Poisson(Σ share × the other banks' outcomes) (share: the members'
// share of the other banks' outcomes over the 3 hours before). It alarms at the first minute whose tail
// is within the budget's per-test rate (src/health/scoring/budget.ts: 1.5e-6 for partners, 6.4e-6 for
// cohorts). Pure Poisson and binomial, no over-dispersion, no search over slices or start times: every
// real detector pays more, so the oracle's delay is a lower bound. Delays are measured as the score does
// (bench/score.ts: ramps from the minute the rate passes 20 %, cohorts from the end of the fault's first
// full window), at minute resolution and rounded up to window ends.
import { allowedRate, testsInBudget } from '../src/health/scoring/budget';
import type { Observation } from '../src/health/types';
import { WINDOW_MS } from '../src/health/windows/window';
import { faultCases } from '../test/support/health/bench/cases';
import { familySeeds, familyWorld } from '../test/support/health/bench/family';
import { generateObservations } from '../test/support/health/generator';
import { DAY_MS, MINUTE_MS } from '../test/support/health/world';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npx tsx scripts/health-evidence-bound.ts [--family-seed S] [--worlds 10]

Lower bound on the detection delay of every ramp and small-bank cohort of the family's held-out
worlds: an oracle told the faulty slice and the fault's start alarms at the first minute its evidence
is within the false-alarm budget. One line per case, then the worst.
`);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

const familySeed = Number(arg('family-seed', '1543586825'));
const worlds = Number(arg('worlds', '10'));
const PARTNER_BUDGET = allowedRate(testsInBudget('partner'));
const COHORT_BUDGET = allowedRate(testsInBudget('cohort'));
const BEFORE_MS = 3 * 60 * MINUTE_MS;
const RATE_FLOOR = 0.01;

/** ln of the binomial upper tail P(X >= k), X ~ Bin(n, p). */
function lnBinomUpper(k: number, n: number, p: number): number {
  if (k <= 0) return 0;
  let lnTerm = lnChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p);
  let sum = 1;
  let ratio = 1;
  for (let j = k; j < n; j++) {
    ratio *= ((n - j) / (j + 1)) * (p / (1 - p));
    sum += ratio;
    if (ratio < 1e-12 * sum) break;
  }
  lnTerm += Math.log(sum);
  return Math.min(0, lnTerm);
}

function lnChoose(n: number, k: number): number {
  return lnFact(n) - lnFact(k) - lnFact(n - k);
}

function lnFact(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}

/** ln of the Poisson lower tail P(X <= k), X ~ Poisson(e). */
function lnPoissonLower(k: number, e: number): number {
  let term = -e;
  let sum = Math.exp(term);
  for (let i = 1; i <= k; i++) {
    term += Math.log(e / i);
    sum += Math.exp(term);
  }
  return Math.min(0, Math.log(sum));
}

const isOutcome = (o: Observation) => o.event === 'SETTLED' || o.event === 'FAILED';

interface Bound {
  /** Minutes from the fault's start to the oracle's alarm. */
  oracleMinutes: number | null;
  /** The same, paying for the search a real detector makes (ln of the number of hypotheses). */
  searchMinutes: number | null;
}

/** Starts a detector considers: each window of the last hour (cohort-cusum.ts SCAN_MAX_AGE). */
const STARTS = 12;

function rampBound(
  obs: Observation[],
  partner: string,
  op: string,
  from: number,
  to: number,
  lnSearch: number,
): Bound {
  let n0 = 0;
  let f0 = 0;
  const perMinute = new Map<number, [number, number]>();
  for (const o of obs) {
    if (o.partnerIspb !== partner || o.operation !== op || !isOutcome(o)) continue;
    const t = Date.parse(o.at);
    if (t >= from - BEFORE_MS && t < from) {
      n0++;
      if (o.event === 'FAILED') f0++;
    } else if (t >= from && t < to) {
      const m = Math.floor((t - from) / MINUTE_MS);
      const c = perMinute.get(m) ?? [0, 0];
      c[0]++;
      if (o.event === 'FAILED') c[1]++;
      perMinute.set(m, c);
    }
  }
  const p0 = Math.max(RATE_FLOOR, n0 > 0 ? f0 / n0 : 0);
  let n = 0;
  let f = 0;
  const out: Bound = { oracleMinutes: null, searchMinutes: null };
  for (let m = 0; m * MINUTE_MS < to - from && out.searchMinutes === null; m++) {
    const c = perMinute.get(m);
    if (c) {
      n += c[0];
      f += c[1];
    }
    const ln = lnBinomUpper(f, n, p0);
    if (out.oracleMinutes === null && ln <= Math.log(PARTNER_BUDGET)) out.oracleMinutes = m + 1;
    if (ln + lnSearch <= Math.log(PARTNER_BUDGET)) out.searchMinutes = m + 1;
  }
  return out;
}

function cohortBound(
  obs: Observation[],
  members: readonly string[],
  from: number,
  to: number,
  lnSearch: number,
): Bound {
  const inCohort = new Set(members);
  let mine0 = 0;
  let others0 = 0;
  const perMinute = new Map<number, [number, number]>();
  for (const o of obs) {
    if (o.operation !== 'CASH_IN' || !isOutcome(o) || !o.institutionIspb) continue;
    const t = Date.parse(o.at);
    const mine = inCohort.has(o.institutionIspb);
    if (t >= from - BEFORE_MS && t < from) {
      if (mine) mine0++;
      else others0++;
    } else if (t >= from && t < to) {
      const m = Math.floor((t - from) / MINUTE_MS);
      const c = perMinute.get(m) ?? [0, 0];
      c[mine ? 0 : 1]++;
      perMinute.set(m, c);
    }
  }
  const share = others0 > 0 ? mine0 / others0 : 0;
  let seen = 0;
  let expected = 0;
  const out: Bound = { oracleMinutes: null, searchMinutes: null };
  for (let m = 0; m * MINUTE_MS < to - from && out.searchMinutes === null; m++) {
    const c = perMinute.get(m);
    if (c) {
      seen += c[0];
      expected += share * c[1];
    }
    if (expected <= 0) continue;
    const ln = lnPoissonLower(seen, expected);
    if (out.oracleMinutes === null && ln <= Math.log(COHORT_BUDGET)) out.oracleMinutes = m + 1;
    if (ln + lnSearch <= Math.log(COHORT_BUDGET)) out.searchMinutes = m + 1;
  }
  return out;
}

type Key = 'windows' | 'windowEnd' | 'search';
const rows: ({ kind: 'ramp' | 'cohort' } & Record<Key, number | null>)[] = [];
for (const seed of familySeeds(familySeed, worlds)) {
  const start = Date.UTC(2026, 10, 2) + (seed % 7) * DAY_MS;
  const branchDay = start + 3 * DAY_MS;
  const { world } = familyWorld(seed, start, 4);
  for (const c of faultCases(world, seed, branchDay)) {
    const label = c.labels[0];
    if (label === undefined) continue;
    const ramp = label.rampCross !== undefined;
    if (!ramp && label.originType !== 'PAYER_COHORT') continue;
    const obs = [
      ...generateObservations({
        world,
        seed,
        from: label.from - BEFORE_MS,
        to: Math.min(label.to, label.from + 4 * 60 * MINUTE_MS),
        faults: c.faults,
      }),
    ];
    // A real detector does not know the slice nor the start: it tests every partner (or every set of
    // as many banks) from each of the last hour's windows. Bonferroni over those hypotheses.
    const k = label.members?.length ?? 1;
    const lnSearch =
      Math.log(STARTS) + (ramp ? Math.log(world.partners.length) : lnChoose(world.institutions.length, k));
    const b = ramp
      ? rampBound(obs, label.originId, label.operation, label.from, label.to, lnSearch)
      : cohortBound(obs, label.members ?? [], label.from, label.to, lnSearch);
    const reference = ramp ? label.rampCross! : Math.ceil(label.from / WINDOW_MS) * WINDOW_MS + WINDOW_MS;
    const delay = (minutes: number | null, atWindowEnd: boolean) => {
      if (minutes === null) return null;
      const at = label.from + minutes * MINUTE_MS;
      return ((atWindowEnd ? Math.ceil(at / WINDOW_MS) * WINDOW_MS : at) - reference) / WINDOW_MS;
    };
    const row = {
      kind: ramp ? ('ramp' as const) : ('cohort' as const),
      windows: delay(b.oracleMinutes, false),
      windowEnd: delay(b.oracleMinutes, true),
      search: delay(b.searchMinutes, true),
    };
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
