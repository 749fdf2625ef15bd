/**
 * bench:footprint's fit (bench/footprint-fit.mjs): a day's growth is a fixed part F plus b per archived
 * transaction, so the marginal bytes per transaction of one run (its growth over its transactions)
 * falls as the rate rises, and the slopes of the runs at two rates did not match (16.5 B at
 * 20,000 a day, 43.0 B at 2,000). Two clients at rates apart separate F and b; the same b comes out of
 * runs at different rates, as the issue asks its slope to.
 */
import { expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the bench, without types
import { dailySlope, fixedAndPerTransaction, leastSquares } from '../../bench/footprint-fit.mjs';

interface Day {
  day: number;
  bytes: number;
  archivedTx: number;
}

/** Days 3..`days` of a client archiving `perDay` transactions a day: F + b each, plus page-sized jitter. */
function simulated(F: number, b: number, perDay: number, days: number, jitter: (d: number) => number): Day[] {
  return Array.from({ length: days - 2 }, (_, k) => {
    const day = k + 3;
    return {
      day,
      bytes: 4_000_000 + (day - 1) * (F + b * perDay) + jitter(day),
      archivedTx: (day - 1) * perDay,
    };
  });
}

const page = (d: number) => ((d * 7919) % 5) * 4096 - 8192;

it('fits a line: slope, intercept and a standard error that grows with the scatter', () => {
  const exact = leastSquares([1, 2, 3, 4], [10, 12, 14, 16]);
  expect(exact.slope).toBeCloseTo(2, 12);
  expect(exact.intercept).toBeCloseTo(8, 12);
  expect(exact.se).toBeCloseTo(0, 12);
  expect(leastSquares([1, 2, 3, 4], [10, 13, 13, 16]).se).toBeGreaterThan(0);
  expect(leastSquares([1], [10]).slope).toBeNaN();
});

it('separates F and b where the marginal of each run does not agree across rates', () => {
  const [F, b] = [18_000, 7.8];
  const runAt = (rate: number, days: number) => {
    const one = dailySlope(simulated(F, b, rate * 1.5, days, page));
    const two = dailySlope(simulated(F, b, (rate / 10) * 1.5, days, page));
    return { one, ...fixedAndPerTransaction(one, two) };
  };
  const high = runAt(20_000, 8);
  const low = runAt(2_000, 24);
  // One run's marginal holds F spread over its transactions: 8.4 B at 20,000 a day, 13.8 B at 2,000.
  const marginal = (r: { one: { s: number; t: number } }) => r.one.s / r.one.t;
  expect(marginal(low) / marginal(high)).toBeGreaterThan(1.5);
  for (const r of [high, low]) {
    expect(Math.abs(r.b - b)).toBeLessThan(Math.max(3 * r.bSe, 0.05));
    expect(Math.abs(r.F - F) / F).toBeLessThan(0.1);
  }
  expect(Math.abs(high.b - low.b)).toBeLessThan(0.5);
});

it('gives no F or b from one client, nor from two at the same volume', () => {
  const one = dailySlope(simulated(18_000, 7.8, 30_000, 8, page));
  expect(fixedAndPerTransaction(one, undefined).b).toBeNaN();
  expect(fixedAndPerTransaction(one, one).F).toBeNaN();
});
