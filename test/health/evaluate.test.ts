// Robust z-scores, floors and gates.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/health/config';
import { evalCount, evalRate, severityOf } from '../../src/health/scoring/evaluate';
import { kappa, mad, median, newRing, ringPush } from '../../src/health/windows/stats';

const cfg = DEFAULT_CONFIG;

describe('volume drops', () => {
  it('gates small expectations: 3 expected and 0 seen at night is not judged at all', () => {
    expect(evalCount('outcomes', 0, 3, 1, cfg, false)).toMatchObject({ evaluated: false, anomalous: false });
  });

  it('uses a Poisson floor: sigma >= sqrt(expected), so 0 of 12 is anomalous but 6 of 12 is not', () => {
    expect(evalCount('outcomes', 0, 12, 1, cfg, false).anomalous).toBe(true);
    const six = evalCount('outcomes', 6, 12, 1, cfg, false);
    expect(six.z).toBeCloseTo(-6 / Math.sqrt(12));
    expect(six.anomalous).toBe(false);
  });

  it('scales sigma by the MAD dispersion factor (kappa)', () => {
    expect(evalCount('outcomes', 60, 100, 1, cfg, false).anomalous).toBe(true);
    expect(evalCount('outcomes', 60, 100, 2, cfg, false).anomalous).toBe(false);
  });

  it('needs an effect size: a 15 % dip of a huge volume is not an incident even at |z| > 3', () => {
    const e = evalCount('created', 8500, 10_000, 1, cfg, false);
    expect(e.z).toBeLessThan(-3);
    expect(e.anomalous).toBe(false);
    expect(evalCount('created', 7000, 10_000, 1, cfg, false).anomalous).toBe(true);
  });

  it('reports deviation as (observed - expected) / expected and severity by the share lost', () => {
    const e = evalCount('outcomes', 84, 100, 1, cfg, false);
    expect(e.deviation).toBeCloseTo(-0.16);
    expect(severityOf(evalCount('outcomes', 60, 100, 1, cfg, false))).toBe('DEGRADED');
    expect(severityOf(evalCount('outcomes', 30, 100, 1, cfg, false))).toBe('SEVERELY_DEGRADED');
    expect(severityOf(evalCount('outcomes', 5, 100, 1, cfg, false))).toBe('UNAVAILABLE');
  });
});

describe('failure rates', () => {
  it('does not mistake the heavy upper tail of rare failures for an anomaly (8 where 2.5 expected)', () => {
    expect(evalRate('errors', 8, 100, 25, 1000, 1, cfg, false).anomalous).toBe(false);
    expect(evalRate('errors', 30, 100, 25, 1000, 1, cfg, false).anomalous).toBe(true);
  });

  it('gates on outcomes, failures and history', () => {
    expect(evalRate('errors', 5, 8, 25, 1000, 1, cfg, false).evaluated).toBe(false);
    expect(evalRate('errors', 4, 20, 1, 1000, 1, cfg, false).anomalous).toBe(false);
    expect(evalRate('errors', 10, 20, 1, 10, 1, cfg, false).evaluated).toBe(false);
  });

  it('measures impact as the share of otherwise-good outcomes lost', () => {
    const e = evalRate('errors', 82, 100, 20, 1000, 1, cfg, false);
    expect(e.impact).toBeCloseTo((0.82 - 0.02) / 0.98);
    expect(severityOf(e)).toBe('SEVERELY_DEGRADED');
  });
});

describe('robust statistics', () => {
  it('median, MAD and the dispersion factor', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(mad([1, 2, 3, 4, 100])).toBe(1);
    const ring = newRing();
    for (let i = 0; i < 30; i++) ringPush(ring, i % 2 === 0 ? 2 : -2, 24);
    expect(ring.v).toHaveLength(24);
    expect(kappa(ring, 8, 10)).toBeCloseTo(1.4826 * 2);
    expect(kappa(newRing(), 8, 10)).toBe(1);
  });
});
