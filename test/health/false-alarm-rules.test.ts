// Rules whose thresholds come from a property of the traffic (src/health/README.md, False-alarm budget):
// the count dispersion learnt over two days, near-silence runs on the same Poisson tail as a total
// silence, and the recovery of a failure incident on windows too small for the rate test.
import { describe, expect, it } from 'vitest';
import {
  newSeasonal,
  relativeKappa,
  relativeNoise,
  updateSeasonal,
} from '../../src/health/baselines/baseline';
import { DEFAULT_CONFIG } from '../../src/health/config';
import { evalCount } from '../../src/health/scoring/evaluate';
import { faultRateLlr, RECOVERY_LLR } from '../../src/health/scoring/evidence-rules';
import { SILENCE_MIN_EXPECTED, silenceEval, silenceRun } from '../../src/health/scoring/silence-rules';
import { gammaMeanOne, rngFor } from '../support/health/random';

const cfg = DEFAULT_CONFIG;

function poisson(mean: number, rng: () => number): number {
  // Knuth's product method: the means here are small.
  const l = Math.exp(-mean);
  let k = 0;
  let p = rng();
  while (p > l) {
    k++;
    p *= rng();
  }
  return k;
}

describe('count dispersion from two days of the series', () => {
  it('learns the relative noise of a gamma-mixed client, and floors the z of its ordinary low windows', () => {
    // A client at ~25 new Cash-Outs a window whose rate is redrawn every window from a gamma of shape 29
    // (variance E + E^2/29, sd 6.8): the false MERCHANT incident's traffic.
    const rng = rngFor(7);
    const s = newSeasonal();
    const t0 = Date.UTC(2026, 10, 2);
    for (let w = 0; w < 576; w++) {
      const expected = 10 + 30 * (0.5 + 0.5 * Math.sin((2 * Math.PI * w) / 288));
      const observed = poisson(expected * gammaMeanOne(29, rng), rng);
      updateSeasonal(s, t0 + w * 300_000, observed, expected, true, cfg);
    }
    expect(relativeNoise(s)).toBeGreaterThan(0.6 / 29);
    expect(relativeNoise(s)).toBeLessThan(1.6 / 29);
    const k = relativeKappa(s, 25);
    expect(k).toBeGreaterThan(1.2);
    // 11 where 25 were expected: z -2.8 with the Poisson floor alone (anomalous with the 50 % merchant
    // gate at a budget z of 2.27 over three windows), about -2 with the learnt dispersion.
    expect(evalCount('created', 11, 25, 1, cfg, false).z).toBeLessThan(-2.7);
    expect(evalCount('created', 11, 25, k, cfg, false).z).toBeGreaterThan(-2.4);
  });

  it('learns no noise from plain Poisson windows, and one burst does not blind the series', () => {
    const rng = rngFor(11);
    const s = newSeasonal();
    const t0 = Date.UTC(2026, 10, 2);
    for (let w = 0; w < 576; w++) {
      const burst = w === 300 ? 5 : 1;
      updateSeasonal(s, t0 + w * 300_000, poisson(30, rng) * burst, 30, true, cfg);
    }
    expect(relativeKappa(s, 30)).toBeLessThan(1.15);
    expect(relativeKappa(newSeasonal(), 30)).toBe(1);
  });
});

describe('near-silence', () => {
  it('a merchant trickling one charge now and then where ~10 were expected is judged silent', () => {
    // 0, 1, 1, 0 seen at ~10 expected a window: each single charge used to end the silence.
    let run = silenceRun('client', undefined, 0, 10.1);
    run = silenceRun('client', run, 1, 9.9);
    const e = silenceEval(run, 'created');
    expect(e).toMatchObject({ anomalous: true, observed: 1, basis: { kind: 'pooled', windows: 2 } });
    expect(e!.z).toBeLessThan(-5);
    run = silenceRun('client', run, 1, 9.8);
    run = silenceRun('client', run, 0, 9.7);
    expect(run[1]).toBe(4);
  });

  it('keeps the tail of a total silence: 0 seen needs 15 expected, 1 seen about 18', () => {
    expect(silenceEval([SILENCE_MIN_EXPECTED - 0.1, 3, 0], 'created')).toBeNull();
    expect(silenceEval([SILENCE_MIN_EXPECTED, 3, 0], 'created')?.anomalous).toBe(true);
    expect(silenceEval([17.5, 3, 1], 'created')).toBeNull();
    expect(silenceEval([18.1, 3, 1], 'created')?.anomalous).toBe(true);
  });

  it('a window with half of its traffic ends the run (the first window back to normal)', () => {
    let run = silenceRun('client', undefined, 0, 20);
    for (let i = 0; i < 5; i++) run = silenceRun('client', run, 0, 20);
    // 120 expected, none seen: 10 % of the run would allow 13 in one window.
    expect(silenceRun('client', run, 9, 10)).toEqual([0, 0, 0]);
  });

  it('a bank counts its night windows on the lower of its baseline and its share of the other banks', () => {
    // 3 expected by its own night baseline: below the bank floor of 5, so never counted on it alone.
    expect(silenceRun('institution', undefined, 0, 3)).toEqual([0, 0, 0]);
    expect(silenceRun('institution', undefined, 0, 3, 2.6)).toEqual([2.6, 1, 0]);
    // The other banks are quiet too: the share says 1, below the partner's floor of 2.
    expect(silenceRun('institution', undefined, 0, 3, 1)).toEqual([0, 0, 0]);
  });

  it('stays inside the budget on Poisson traffic: no run reaches the tail in 200,000 windows', () => {
    const rng = rngFor(3);
    let run: [number, number, number] | undefined;
    let alarms = 0;
    for (let w = 0; w < 200_000; w++) {
      const expected = 4 + 8 * rng();
      run = silenceRun('client', run, poisson(expected, rng), expected);
      if (silenceEval(run, 'created')) alarms++;
    }
    expect(alarms).toBe(0);
  });
});

describe('recovery on small windows', () => {
  it('0 failures of 2 where a bank failed 83 % (1.5 % usual) favours the baseline by more than e^3', () => {
    expect(faultRateLlr(0, 2, 0.015, 0.83, cfg.rateFloor)).toBeLessThan(-RECOVERY_LLR);
    expect(faultRateLlr(0, 1, 0.015, 0.83, cfg.rateFloor)).toBeGreaterThan(-RECOVERY_LLR);
    // A window still failing favours the fault.
    expect(faultRateLlr(2, 3, 0.015, 0.83, cfg.rateFloor)).toBeGreaterThan(0);
  });
});
