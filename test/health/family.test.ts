// The bench's family of worlds: members differ in structure (laws, shares, noise, volume, client mixes),
// not only in seed, and their traffic follows what each member drew.
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/health/types';
import { generateArray } from '../support/health';
import { FAMILY_RANGES, familySeeds, familyWorld } from '../support/health/bench/family';

const START = Date.UTC(2026, 10, 2);
const HOUR = 3_600_000;

describe('family of bench worlds', () => {
  const members = familySeeds(1, 16).map((seed) => ({ seed, ...familyWorld(seed, START, 4) }));

  it('draws the structure of each world, spanning the family ranges', () => {
    const draws = members.map((m) => m.draw);
    expect(new Set(draws.map((d) => d.payDelay.kind))).toEqual(new Set(['lognormal', 'heavy']));
    expect(Math.min(...draws.map((d) => d.bankZipf))).toBeLessThan(0.8);
    expect(Math.max(...draws.map((d) => d.bankZipf))).toBeGreaterThan(1.3);
    expect(Math.min(...draws.map((d) => d.volume))).toBeLessThan(0.6);
    expect(Math.max(...draws.map((d) => d.volume))).toBeGreaterThan(1.5);
    for (const { world, draw } of members) {
      for (const c of world.clients) {
        expect(c.payProbability!).toBeGreaterThanOrEqual(FAMILY_RANGES.conversion[0]);
        expect(c.payProbability!).toBeLessThanOrEqual(FAMILY_RANGES.conversion[1]);
        expect(c.cashInExpiryMs!).toBeGreaterThanOrEqual(FAMILY_RANGES.expiryMs[0]);
        expect(c.cashInExpiryMs!).toBeLessThanOrEqual(FAMILY_RANGES.expiryMs[1]);
      }
      expect(draw.commonSigma).toBeLessThanOrEqual(FAMILY_RANGES.commonSigma[1]);
      expect(world.cashInLatencyFromCreation).toBe(true);
    }
    expect(draws.some((d) => d.nightClients > 0) && draws.some((d) => d.lunchClients > 0)).toBe(true);
    // The held-out half is another family seed: no member in common with the tuning half.
    const tuning = new Set(familySeeds(1, 20));
    expect(familySeeds(2, 20).some((s) => tuning.has(s))).toBe(false);
  });

  it('reports Cash-In latency from the charge creation, following the drawn pay-delay law', () => {
    const m = members.find((x) => x.draw.payDelay.kind === 'lognormal')!;
    const law = m.draw.payDelay as { medianMs: number; sigma: number };
    const obs: Observation[] = generateArray({
      world: m.world,
      seed: m.seed,
      from: START + 20 * HOUR,
      to: START + 23 * HOUR,
    });
    const lat = obs
      .filter((o) => o.operation === 'CASH_IN' && o.event === 'SETTLED')
      .map((o) => o.latencyMs!)
      .sort((a, b) => a - b);
    expect(lat.length).toBeGreaterThan(500);
    const median = lat[lat.length >> 1]!;
    // Payment delay (capped by the shortest expiries) plus the bank's second or two.
    expect(median).toBeGreaterThan(0.7 * law.medianMs);
    expect(median).toBeLessThan(1.3 * law.medianMs + 5_000);
  });

  it('moves every client together with the common mode (same seed, with and without it)', () => {
    const m = members.reduce((a, b) => (b.draw.commonSigma > a.draw.commonSigma ? b : a));
    const flat = {
      ...m.world,
      texture: { ...m.world.texture, commonMode: { sigma: 0, phi: 0.5, daySigma: 0 } },
    };
    const perWindow = (world: typeof m.world) => {
      const counts = new Map<number, number>();
      for (const o of generateArray({
        world,
        seed: m.seed,
        from: START + 18 * HOUR,
        to: START + 22 * HOUR,
      })) {
        if (o.event !== 'CREATED') continue;
        const w = Math.floor(Date.parse(o.at) / 300_000);
        counts.set(w, (counts.get(w) ?? 0) + 1);
      }
      return counts;
    };
    const a = perWindow(m.world);
    const b = perWindow(flat);
    const ratios = [...a.keys()].filter((w) => (b.get(w) ?? 0) > 50).map((w) => a.get(w)! / b.get(w)!);
    expect(ratios.length).toBeGreaterThan(20);
    expect(ratios.some((r) => Math.abs(r - 1) > 0.01)).toBe(true);
  });
});
