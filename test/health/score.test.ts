// A small run of `npm run health:score` (one seed, one judged no-fault day, the fault cases the engine
// meets today) so a regression of recall, false incidents, attribution, delays or resolution fails CI.
// The full score (10 seeds, 60 no-fault days, every case) is `npm run health:score`.
import { describe, expect, it } from 'vitest';
import { runSeed } from '../support/health/bench/run';
import { summarize, TARGETS } from '../support/health/bench/score';

const CASES = [
  'partner-errors',
  'ramp-90min-80%-CASH_OUT',
  'ramp-40min-60%-CASH_OUT',
  'institution-silence',
  'institution-errors',
  'merchant-collapse',
  'connectpsp-errors',
  'pix-systemic',
  'overlap',
  'blips',
];

describe('health score (small)', () => {
  it('meets the issue 18 targets on seed 2: recall, no false incident, attribution, delays, resolution', () => {
    const r = runSeed(2, { cleanDays: 1, cases: CASES });
    const s = summarize(r.outcomes, r.falses, r.noFaultDays, [2]);
    const misses = r.outcomes.filter((o) => !o.detected || !o.attributed || !o.resolvedOnTime);
    expect(
      r.falses.map(
        (f) => `${f.scope}: ${f.incident.origin.type}:${f.incident.origin.id} ${f.incident.startedAt}`,
      ),
    ).toEqual([]);
    expect(misses.map((o) => o.label.name)).toEqual([]);
    expect(s.labels).toBe(CASES.length); // overlap has two labels, blips none
    expect(s.medianDelay).not.toBeNull();
    expect(s.medianDelay!).toBeLessThanOrEqual(TARGETS.medianDelay);
    expect(s.maxRampDelay!).toBeLessThanOrEqual(TARGETS.rampDelay);
  }, 120_000);
});
