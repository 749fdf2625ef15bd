// A small run of `npm run health:score` (seed 2: its world, one judged no-fault day and one simulated day
// per fault case: partners, ramps, flickering outage, banks, small-bank cohort, merchant, ConnectPSP, PIX,
// overlap, blips) so a regression of recall, false incidents, attribution, delays or resolution fails CI.
// The full score (10 seeds, 60 no-fault days) is `npm run health:score`.
import { describe, expect, it } from 'vitest';
import { runSeed } from '../support/health/bench/run';
import { summarize, TARGETS } from '../support/health/bench/score';

describe('health score (small)', () => {
  it('meets the issue 18 targets on seed 2: recall, no false incident, attribution, delays, resolution', () => {
    const r = runSeed(2, { cleanDays: 1 });
    const s = summarize(r.outcomes, r.falses, r.noFaultDays, [2]);
    const misses = r.outcomes.filter((o) => !o.detected || !o.attributed || !o.resolvedOnTime);
    expect(
      r.falses.map(
        (f) => `${f.scope}: ${f.incident.origin.type}:${f.incident.origin.id} ${f.incident.startedAt}`,
      ),
    ).toEqual([]);
    expect(misses.map((o) => o.label.name)).toEqual([]);
    expect(s.labels).toBe(16); // 14 fault cases (intake and overlap have two labels) and the blips (none)
    expect(s.medianDelay).not.toBeNull();
    expect(s.medianDelay!).toBeLessThanOrEqual(TARGETS.medianDelay);
    expect(s.maxRampDelay!).toBeLessThanOrEqual(TARGETS.rampDelay);
  }, 120_000);
});
