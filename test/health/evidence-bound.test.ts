// The evidence bound behind src/health/README.md, "Detection delays against the evidence": its tails are
// exact, it alarms on a fault as soon as the budget allows and never on traffic without one.
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/health/types';
import {
  cohortBound,
  lnBinomUpper,
  lnChoose,
  lnPoissonLower,
  rampBound,
} from '../support/health/bench/bound';

const T0 = Date.UTC(2026, 10, 10, 12);
const MIN = 60_000;

/** `perMinute` outcomes a minute for a partner from three hours before T0 to an hour after it. */
function partnerTraffic(perMinute: number, failingFrom: (minute: number) => number): Observation[] {
  const out: Observation[] = [];
  for (let m = -180; m < 60; m++) {
    const share = failingFrom(m);
    for (let i = 0; i < perMinute; i++) {
      // Deterministic: the first `share` of each minute's outcomes fail.
      const failed = i < Math.round(share * perMinute);
      out.push({
        at: new Date(T0 + m * MIN + i * 1000).toISOString(),
        clientId: 'c',
        operation: 'CASH_OUT',
        partnerIspb: 'P',
        institutionIspb: 'B',
        event: failed ? 'FAILED' : 'SETTLED',
      });
    }
  }
  return out;
}

function bankTraffic(delivered: (bank: string, minute: number) => number): Observation[] {
  const out: Observation[] = [];
  const banks = ['A', 'B', 'C', 'D', 'E', 'F'];
  for (let m = -180; m < 60; m++) {
    for (const b of banks) {
      const n = delivered(b, m);
      for (let i = 0; i < n; i++) {
        out.push({
          at: new Date(T0 + m * MIN + i * 100).toISOString(),
          clientId: 'c',
          operation: 'CASH_IN',
          partnerIspb: 'P',
          institutionIspb: b,
          event: 'SETTLED',
        });
      }
    }
  }
  return out;
}

describe('evidence bound', () => {
  it('computes exact binomial and Poisson tails', () => {
    expect(Math.exp(lnBinomUpper(1, 1, 0.5))).toBeCloseTo(0.5, 12);
    expect(Math.exp(lnBinomUpper(2, 3, 0.5))).toBeCloseTo(0.5, 12);
    // Σ_{k>=5} C(20,k) 0.02^k 0.98^(20-k)
    expect(Math.exp(lnBinomUpper(5, 20, 0.02))).toBeCloseTo(3.8590903e-5, 10);
    expect(lnBinomUpper(0, 20, 0.02)).toBe(0);
    expect(lnPoissonLower(0, 15)).toBeCloseTo(-15, 12);
    expect(Math.exp(lnPoissonLower(2, 2))).toBeCloseTo(5 * Math.exp(-2), 12);
    expect(Math.exp(lnChoose(20, 4))).toBeCloseTo(4845, 6);
  });

  it('alarms on a partner failing half its transfers within minutes, never on its usual 1 %', () => {
    // 10 a minute, 1 % failing (one in 100: the first outcome of every tenth minute) before the fault.
    const usual = (m: number) => (m < 0 && m % 10 === 0 ? 0.1 : 0);
    const fault = rampBound(
      partnerTraffic(10, (m) => (m >= 0 ? 0.5 : usual(m))),
      'P',
      'CASH_OUT',
      T0,
      T0 + 60 * MIN,
      0,
    );
    // p0 = 1 %: 5 of 10 failing has a tail of ~2e-8, within 1.5e-6 in the first minute.
    expect(fault.oracleMinutes).toBe(1);
    // Paying for a search over 1e6 hypotheses takes one more minute (10 of 20: ~1e-14 < 1.5e-12).
    const searching = rampBound(
      partnerTraffic(10, (m) => (m >= 0 ? 0.5 : usual(m))),
      'P',
      'CASH_OUT',
      T0,
      T0 + 60 * MIN,
      Math.log(1e6),
    );
    expect(searching.searchMinutes).toBe(2);
    const clean = rampBound(partnerTraffic(10, usual), 'P', 'CASH_OUT', T0, T0 + 60 * MIN, 0);
    expect(clean).toEqual({ oracleMinutes: null, searchMinutes: null });
  });

  it('alarms on a cohort delivering a tenth of its share, never on one delivering all of it', () => {
    const members = ['A', 'B', 'C'];
    const normal = () => 2;
    const clean = cohortBound(bankTraffic(normal), members, T0, T0 + 60 * MIN, 0);
    expect(clean).toEqual({ oracleMinutes: null, searchMinutes: null });
    // 6 a minute expected from the members; none delivered: e^-6t <= 6.4e-6 from t = 2 minutes.
    const silent = cohortBound(
      bankTraffic((b, m) => (m >= 0 && members.includes(b) ? 0 : 2)),
      members,
      T0,
      T0 + 60 * MIN,
      0,
    );
    expect(silent.oracleMinutes).toBe(2);
  });
});
