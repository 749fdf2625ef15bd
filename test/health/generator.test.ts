// The synthetic traffic itself: seasonal, Poisson, Zipf-sized, realistic outcomes, deterministic.
import { describe, expect, it } from 'vitest';
import { FAILURE_CODES } from '../../src/domain/failure-codes';
import type { Observation } from '../../src/health/types';
import { dailyShape, faults, generateArray, poisson } from '../support/health';
import { DAY3, HOUR, MINUTE, PARTNERS, START, WORLD } from './helpers';

const day = generateArray({ world: WORLD, seed: 11, from: START + 6 * HOUR, to: START + 30 * HOUR });

function count(obs: readonly Observation[], pred: (o: Observation) => boolean) {
  let n = 0;
  for (const o of obs) if (pred(o)) n++;
  return n;
}

describe('generator', () => {
  it('is deterministic and time-ordered', () => {
    const a = generateArray({ world: WORLD, seed: 5, from: DAY3, to: DAY3 + HOUR });
    const b = generateArray({ world: WORLD, seed: 5, from: DAY3, to: DAY3 + HOUR });
    expect(b).toEqual(a);
    for (let i = 1; i < a.length; i++) expect(a[i]!.at >= a[i - 1]!.at).toBe(true);
    expect(generateArray({ world: WORLD, seed: 6, from: DAY3, to: DAY3 + HOUR })).not.toEqual(a);
  });

  it('reproduces any slice of a longer run (per-minute random streams, lead-in)', () => {
    const long = generateArray({ world: WORLD, seed: 5, from: DAY3, to: DAY3 + 2 * HOUR });
    const tail = generateArray({
      world: WORLD,
      seed: 5,
      from: DAY3 + HOUR,
      to: DAY3 + 2 * HOUR,
      leadInMs: 2 * HOUR,
    });
    expect(tail).toEqual(long.filter((o) => o.at >= new Date(DAY3 + HOUR).toISOString()));
  });

  it('follows a daily shape: quiet at night, peak in the evening (Sao Paulo time)', () => {
    const created = (h: number) =>
      count(
        day,
        (o) =>
          o.event === 'CREATED' &&
          Date.parse(o.at) >= START + h * HOUR &&
          Date.parse(o.at) < START + (h + 1) * HOUR,
      );
    const night = created(7); // 04:00 local
    const evening = created(24); // 21:00 local
    expect(night / evening).toBeLessThan(0.15);
    expect(dailyShape(Date.UTC(2026, 10, 2, 24))).toBeGreaterThan(0.9);
  });

  it('sizes banks Zipf-like and spreads traffic over every partner and client', () => {
    const byBank = new Map<string, number>();
    for (const o of day)
      if (o.institutionIspb) byBank.set(o.institutionIspb, (byBank.get(o.institutionIspb) ?? 0) + 1);
    const sizes = WORLD.institutions.map((i) => byBank.get(i.ispb) ?? 0);
    expect(sizes).toHaveLength(10);
    expect(sizes[0]! / sizes[9]!).toBeGreaterThan(10);
    expect(new Set(day.map((o) => o.partnerIspb))).toEqual(new Set(PARTNERS));
    expect(new Set(day.map((o) => o.clientId)).size).toBe(6);
  });

  it('has realistic outcomes: ~85 % of charges paid, the rest expire; transfers settle or fail with catalog codes', () => {
    const cin = day.filter((o) => o.operation === 'CASH_IN');
    const settled = count(cin, (o) => o.event === 'SETTLED');
    const expired = count(cin, (o) => o.event === 'EXPIRED');
    expect(settled / (settled + expired)).toBeGreaterThan(0.82);
    expect(settled / (settled + expired)).toBeLessThan(0.88);
    expect(
      cin.every((o) =>
        o.event === 'SETTLED'
          ? o.institutionIspb && o.latencyMs
          : !o.institutionIspb || o.event === 'RETURNED',
      ),
    ).toBe(true);
    const cout = day.filter((o) => o.operation === 'CASH_OUT');
    const failed = cout.filter((o) => o.event === 'FAILED');
    expect(failed.length / count(cout, (o) => o.event === 'SETTLED')).toBeLessThan(0.04);
    expect(failed.every((o) => (FAILURE_CODES as readonly string[]).includes(o.failureCode!))).toBe(true);
    expect(cout.every((o) => o.institutionIspb)).toBe(true);
  });

  it('draws Poisson counts (mean = variance)', () => {
    let s = 1;
    const rng = () => {
      s = (s * 16807) % 2147483647;
      return s / 2147483647;
    };
    for (const lambda of [3, 80]) {
      const xs = Array.from({ length: 4000 }, () => poisson(lambda, rng));
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length;
      expect(mean / lambda).toBeGreaterThan(0.95);
      expect(mean / lambda).toBeLessThan(1.05);
      expect(variance / lambda).toBeGreaterThan(0.9);
      expect(variance / lambda).toBeLessThan(1.1);
    }
  });

  it('applies faults only inside their window and target', () => {
    const from = DAY3 + 14 * HOUR;
    const f = faults.partnerFailure(PARTNERS[0], 'CASH_OUT', from, from + 10 * MINUTE, 1);
    const obs = generateArray({
      world: WORLD,
      seed: 5,
      from: from - 10 * MINUTE,
      to: from + 20 * MINUTE,
      faults: [f],
    });
    const provider = obs.filter(
      (o) => o.failureCode === 'PROVIDER_UNAVAILABLE' && o.operation === 'CASH_OUT',
    );
    expect(provider.length).toBeGreaterThan(20);
    const inside = provider.filter(
      (o) => o.at >= new Date(from).toISOString() && o.at < new Date(from + 10 * MINUTE).toISOString(),
    );
    expect(inside.every((o) => o.partnerIspb === PARTNERS[0])).toBe(true);
    expect(provider.length - inside.length).toBeLessThan(3);
  });
});
