// Cases from unseen bench seeds that the engine missed or got wrong, kept as regressions (issue 18:
// the targets must hold on seeds nobody tuned on). Each runs one seed's world with one judged no-fault
// day and only the named fault case.
import { describe, expect, it } from 'vitest';
import { runSeed } from '../support/health/bench/run';
import { TARGETS } from '../support/health/bench/score';

/**
 * A hang guard, not a speed claim: one seed's world takes 3-12 s of CPU alone, several times that on
 * a busy two-core machine (speed is npm run bench's).
 */
const SEED_RUN = { timeout: 300_000 };

function one(seed: number, name: string) {
  const r = runSeed(seed, { cleanDays: 1, cases: [name] });
  const o = r.outcomes.find((x) => x.label.name === name)!;
  return { r, o };
}

/** One fault case, caught at its origin and resolved on time, with no false incident beside it. */
function caught(seed: number, name: string) {
  const { r, o } = one(seed, name);
  expect(r.falses).toEqual([]);
  expect(o.detected && o.attributed && o.resolvedOnTime).toBe(true);
  return o;
}

/** A seed's first `days` judged no-fault days, without any incident. */
function quiet(seed: number, days: number) {
  const r = runSeed(seed, { cleanDays: days, cases: [] });
  expect(r.noFaultDays).toBe(days);
  expect(r.falses).toEqual([]);
}

describe('generalizes to unseen seeds', SEED_RUN, () => {
  it('a ramp on a partner with ~7 transfers a window is caught within 4 windows of passing 20 % (seed 408)', () => {
    const o = caught(408, 'ramp-90min-80%-CASH_OUT');
    expect(o.delayWindows!).toBeLessThanOrEqual(TARGETS.rampDelay);
  });

  it('a 40-minute ramp on a partner with ~5 transfers a window (never one judged window) is found (seed 508)', () => {
    caught(508, 'ramp-40min-60%-CASH_OUT');
  });

  it('a small merchant that sends nothing for 30 minutes is blamed for its silence (seed 402)', () => {
    caught(402, 'merchant-collapse');
  });

  it('a big bank silent for 75 minutes is blamed for the silence, though its dispersion keeps each window at z -2 (seed 804)', () => {
    const o = caught(804, 'institution-silence');
    expect(o.incident?.summary).toContain('nenhuma liquidação em');
  });

  it('one chance window of failures on a small partner does not make a trend out of the next one (seed 707)', () => {
    // The no-fault days of seed 707 up to 2026-11-08, when a partner with ~7 transfers a window saw 4
    // failures of 11 and then 1 of 8.
    quiet(707, 5);
  });

  it('a cohort of three small banks delivering about half their payments is found against their share of the platform (seed 807)', () => {
    // Their seasonal baselines read the hour 20-30 % low; their share of everyone's payments does not.
    const o = caught(807, 'small-bank-cohort');
    expect(o.incident?.origin.type).toBe('PAYER_COHORT');
  });

  it('small banks quiet together at night are no cohort: the scan proposes only in busy hours (seed 705)', () => {
    // No-fault traffic of seed 705 up to 2026-11-13, when three small banks delivered 12 of 24, 6 of 15
    // and 2 of 12 between 00:45 and 01:25 local.
    quiet(705, 5);
  });

  it('a silent partner carrying mostly one merchant is blamed, not the merchant (seed 906)', () => {
    // The partner's other clients expect ~1.5 payments a window: judged over two windows they speak.
    caught(906, 'partner-silence');
  });

  it('our own intake outage is one CONNECTPSP incident per operation, not also a "silent" partner (seed 901)', () => {
    const { r } = one(901, 'connectpsp-intake');
    expect(r.falses).toEqual([]);
    expect(
      r.outcomes.map((o) => [o.label.operation, o.detected && o.attributed && o.resolvedOnTime]),
    ).toEqual([
      ['CASH_IN', true],
      ['CASH_OUT', true],
    ]);
  });
});

/** One fault case of a family world (its structure drawn too, family.ts), one judged no-fault day. */
function familyCase(seed: number, name: string) {
  const r = runSeed(seed, { cleanDays: 1, cases: [name], family: true });
  const o = r.outcomes.find((x) => x.label.name === name)!;
  expect(
    r.falses.map((f) => `${f.incident.origin.type}:${f.incident.origin.id} ${f.incident.startedAt}`),
  ).toEqual([]);
  expect(o.detected && o.attributed && o.resolvedOnTime).toBe(true);
  return o;
}

describe('generalizes across the family of worlds', SEED_RUN, () => {
  it('no Cash-In "slowness" on no-fault days where payers take minutes to hours to pay (heavy-tailed pay delays)', () => {
    // Latency from the charge's creation trails the creation curve: before, this world opened about one
    // bank, partner or cohort CASH_IN OBSERVED incident a day.
    const r = runSeed(981047484, { cleanDays: 3, cases: [], family: true });
    expect(r.draw?.payDelay.kind).toBe('heavy');
    expect(
      r.falses.map((f) => `${f.incident.origin.type}:${f.incident.origin.id} ${f.incident.startedAt}`),
    ).toEqual([]);
  }, 120_000);

  it('a bank failing its transfers is the origin, not the partners that carry them (family world)', () => {
    familyCase(140236332, 'institution-errors');
  });

  it('a mid-sized bank with ~5 transfers a window failing is found by its own failure trend (family world)', () => {
    const o = familyCase(233174035, 'institution-errors');
    expect(o.incident?.origin.type).toBe('PAYER_INSTITUTION');
  });

  it('a partner at 3-4 Cash-In outcomes a window that stops settling is blamed for its silence (family world, 0.3x volume)', () => {
    const o = familyCase(477801540, 'partner-silence');
    // Judged as a near-silence: a straggler settled during the run keeps it at 99 % (SILENCE_MAX_SHARE).
    expect(o.incident?.summary).toMatch(/liquidações (99|100)% abaixo do esperado/);
  });

  it('four mid-sized banks (12 payments a window each) losing 71 % together are a cohort within 4 windows (family world)', () => {
    // None is anomalous alone and the platform loses 10 %: the small-bank tests found them 10 windows late.
    const o = familyCase(981047484, 'small-bank-cohort');
    expect(o.delayWindows!).toBeLessThanOrEqual(4);
  });

  it('our own Cash-Out intake outage in a 0.3x world is CONNECTPSP, though small banks cannot show it (family world)', () => {
    const r = runSeed(477801540, { cleanDays: 1, cases: ['connectpsp-intake'], family: true });
    expect(r.falses.map((f) => `${f.incident.origin.type}:${f.incident.origin.id}`)).toEqual([]);
    expect(
      r.outcomes.map((o) => [o.label.operation, o.detected && o.attributed && o.resolvedOnTime]),
    ).toEqual([
      ['CASH_IN', true],
      ['CASH_OUT', true],
    ]);
  });
});
