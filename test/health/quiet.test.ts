// No incident on normal traffic: whole days, low-volume nights, and one-window blips.
import { describe, expect, it } from 'vitest';
import { faults } from '../support/health';
import {
  analyzerAt,
  BANKS,
  DAY,
  DAY3,
  describeChange,
  feed,
  HOUR,
  PARTNERS,
  QUIET_WORLD,
  runScenario,
  WORLD,
} from './helpers';

describe('no incidents on normal traffic', () => {
  it('two full normal days after the warm-up (evening peaks, nights), two seeds', () => {
    for (const seed of [1, 4]) {
      const analyzer = analyzerAt(DAY3, seed);
      expect(analyzer.warm).toBe(true);
      const changes = feed(analyzer, WORLD, seed, DAY3, DAY3 + 2 * DAY);
      expect(changes.map(describeChange)).toEqual([]);
    }
  });

  it('a low-volume world (Poisson noise dominates at night) stays quiet for two days', () => {
    const analyzer = analyzerAt(DAY3, 1, QUIET_WORLD);
    const changes = feed(analyzer, QUIET_WORLD, 1, DAY3, DAY3 + 2 * DAY);
    expect(changes.map(describeChange)).toEqual([]);
  });

  it('a mid-sized bank going silent at night is judged against its share of the other banks (and in the day)', () => {
    // 01:00-04:00 in Sao Paulo the bank expects ~3 payments per window: one window's silence is
    // Poisson-plausible, three hours of it are not. Its own night baseline may overstate a quiet night,
    // its share of what the other banks settle in the same windows cannot, and the run is counted on the
    // lower of the two (BANK_SHARE_SILENCE_WINDOW_MIN); 20 silent minutes (~12 expected) stay quiet.
    const night = DAY3 + 4 * HOUR;
    const hour = runScenario([faults.institutionSilence(BANKS[3]!, night, night + HOUR / 3)], {
      from: DAY3,
      until: DAY3 + 8 * HOUR,
    });
    expect(hour.changes.map(describeChange)).toEqual([]);
    const quiet = runScenario([faults.institutionSilence(BANKS[3]!, night, night + 3 * HOUR)], {
      from: DAY3,
      until: DAY3 + 8 * HOUR,
    });
    expect(quiet.changes[0]?.incident.origin).toMatchObject({ type: 'PAYER_INSTITUTION', id: BANKS[3] });
    const day = DAY3 + 14 * HOUR;
    const loud = runScenario([faults.institutionSilence(BANKS[3]!, day, day + 2 * HOUR)]);
    expect(loud.changes[0]?.incident.origin).toMatchObject({ type: 'PAYER_INSTITUTION', id: BANKS[3] });
  });

  it('one-window blips of every kind never become incidents', () => {
    const at = (h: number) => DAY3 + h * HOUR;
    const blips = [
      faults.blip(faults.partnerFailure(PARTNERS[1], 'CASH_OUT', 0, 0, 1), at(13)),
      faults.blip(faults.institutionSilence(BANKS[0]!, 0, 0), at(14)),
      faults.blip(faults.institutionErrors(BANKS[0]!, 0, 0, 1), at(15)),
      faults.blip(faults.connectpspIntakeOutage(0, 0), at(16)),
      faults.blip(faults.merchantCollapse('client-a', 'CASH_IN', 0, 0), at(17)),
      faults.blip(faults.pixSystemic('CASH_OUT', 0, 0, 1), at(18)),
      faults.blip(faults.cohort([BANKS[2]!, BANKS[3]!, BANKS[4]!], 'CASH_OUT', 0, 0, 1), at(19)),
    ];
    const { changes } = runScenario(blips, { until: at(21) });
    expect(changes.map(describeChange)).toEqual([]);
  });

  it('the same faults lasting two windows do open incidents (the blip test can fail)', () => {
    const at = DAY3 + 14 * HOUR;
    const twoWindows = { ...faults.blip(faults.partnerFailure(PARTNERS[1], 'CASH_OUT', 0, 0, 1), at) };
    twoWindows.to += 5 * 60_000;
    const { changes } = runScenario([twoWindows]);
    expect(changes.map((c) => c.change)).toEqual(['DETECTED', 'UPDATED', 'RESOLVED']);
  });
});
