// The pooled cohort test's selection (src/health/attribution/pooled-cohort.ts): small banks short over the
// selection windows, ordered by deficit, and the prefixes of that order tested on later windows. A
// cohort of tail banks at ~1 payment a window heads the order; on no-fault traffic the prefixes pass
// no more often than their count allows (src/health/README.md, False-alarm budget).
import { describe, expect, it } from 'vitest';
import {
  type BankTally,
  COHORT_MAX_PREFIX,
  COHORT_MIN_DROP,
  COHORT_PREFIX_TESTS,
  COHORT_SELECTION_WINDOWS,
  cohortPrefixes,
  poissonLowerZ,
  shortInstitutions,
} from '../../src/health/attribution/pooled-cohort';
import { poisson, rngFor as rng } from '../support/health/random';

const BANKS = Array.from({ length: 12 }, (_, i) => `810000${String(i).padStart(2, '0')}`);
const MEMBERS = BANKS.slice(6, 9);

/** One window: every bank expects `mean`; `members` deliver `keep` of it. */
function window(u: () => number, mean: number, keep: number, members: readonly string[]): BankTally {
  const out: BankTally = {};
  for (const b of BANKS) out[b] = [poisson(members.includes(b) ? mean * keep : mean, u), mean];
  return out;
}

/** The strongest prefix's pooled z over the test windows, among those ≥ COHORT_MIN_DROP short. */
function bestPrefixZ(selected: readonly string[], test: readonly BankTally[]): number {
  let best = 0;
  for (const set of cohortPrefixes(selected)) best = Math.min(best, unionZ(set, test));
  return best;
}

/** The pooled z of one set over the test windows (0 when not ≥ COHORT_MIN_DROP short). */
function unionZ(set: readonly string[], test: readonly BankTally[]): number {
  let o = 0;
  let e = 0;
  for (const w of test) {
    for (const b of set) {
      o += w[b]![0];
      e += w[b]![1];
    }
  }
  return (o - e) / e > -COHORT_MIN_DROP ? 0 : poissonLowerZ(o, e);
}

describe('pooled cohort selection', () => {
  it('orders the short banks by deficit: the banks that delivered nothing come first', () => {
    const normal: BankTally = {};
    for (const b of BANKS) normal[b] = [1, 1];
    // Over four windows: a member delivers 0 of 4, a normal bank in a lull 2 of 4 (also ≥ 50 % short).
    const quiet: BankTally = { ...normal, [BANKS[0]!]: [0, 1] };
    for (const b of MEMBERS) quiet[b] = [0, 1];
    const selected = shortInstitutions(
      quiet,
      quiet,
      { ...quiet, [BANKS[0]!]: [1, 1] },
      {
        ...quiet,
        [BANKS[0]!]: [1, 1],
      },
    );
    expect(selected.slice(0, 3).sort()).toEqual(MEMBERS);
    expect(selected).toContain(BANKS[0]);
    expect(selected.length).toBe(4);
  });

  it('tests prefixes of 2..COHORT_MAX_PREFIX banks and the whole selection: COHORT_PREFIX_TESTS sets', () => {
    expect(cohortPrefixes(['a'])).toEqual([]);
    expect(cohortPrefixes(['a', 'b', 'c'])).toEqual([
      ['a', 'b'],
      ['a', 'b', 'c'],
    ]);
    const long = BANKS.slice(0, COHORT_MAX_PREFIX + 3);
    const sets = cohortPrefixes(long);
    expect(sets.length).toBe(COHORT_PREFIX_TESTS);
    expect(sets.at(-1)).toEqual(long);
  });

  it('selects fewer tail banks by chance over its selection windows than over two (~40 %)', () => {
    const u = rng(7);
    let picked2 = 0;
    let pickedN = 0;
    let trials = 0;
    for (let t = 0; t < 500; t++) {
      const ws = Array.from({ length: COHORT_SELECTION_WINDOWS }, () => window(u, 1, 1, []));
      picked2 += shortInstitutions(ws[0]!, ws[1]!).length;
      pickedN += shortInstitutions(...ws).length;
      trials += BANKS.length;
    }
    expect(picked2 / trials).toBeGreaterThan(0.3);
    expect(pickedN / trials).toBeLessThan(0.3);
  });

  it('finds three tail banks at 1 payment a window losing 70 % on six test windows, where two-window selection is diluted', () => {
    const u = rng(11);
    let found = 0;
    let foundBefore = 0;
    for (let t = 0; t < 200; t++) {
      const sel = Array.from({ length: COHORT_SELECTION_WINDOWS }, () => window(u, 1, 0.3, MEMBERS));
      const test = Array.from({ length: 6 }, () => window(u, 1, 0.3, MEMBERS));
      if (bestPrefixZ(shortInstitutions(...sel), test) <= -3) found++;
      // The former selection: the whole set short over the last two windows, tested as one union.
      const whole = shortInstitutions(sel[0]!, sel[1]!);
      if (whole.length >= 2 && unionZ(whole, test) <= -3) foundBefore++;
    }
    expect(found / 200).toBeGreaterThan(0.35);
    expect(found).toBeGreaterThan(1.5 * foundBefore);
  });

  it('passes no more often on no-fault traffic than its prefixes times the one-window tail allow', () => {
    const u = rng(13);
    let passed = 0;
    const trials = 3000;
    for (let t = 0; t < trials; t++) {
      const sel = Array.from({ length: COHORT_SELECTION_WINDOWS }, () => window(u, 1, 1, []));
      const test = Array.from({ length: 6 }, () => window(u, 1, 1, []));
      if (bestPrefixZ(shortInstitutions(...sel), test) <= -3) passed++;
    }
    // Bonferroni: at most COHORT_PREFIX_TESTS × P(Z ≤ -3) = 6 × 1.35e-3 per window and horizon.
    expect(passed / trials).toBeLessThanOrEqual(COHORT_PREFIX_TESTS * 1.35e-3);
  });
});
