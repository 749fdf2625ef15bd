// The console's plots and the incidents cannot disagree: the per-window counts handed to seriesSink are
// read from the analyzer's cells when the window closes, after it was judged on them. (Late and dropped
// observations through the Durable Object: test/health/admin-health.test.ts, "HealthAnalyzer per-window
// series".)
import { describe, expect, it } from 'vitest';
import { WINDOW_MS } from '../../src/health';
import { type SeriesPoint, successRate } from '../../src/health/surface/series';
import { faults } from '../support/health';
import { analyzerAt, DAY3, detected, F0, F1, feed, HOUR, PARTNERS, WORLD } from './helpers';

/** The summary's own rounding (lifecycle/summary.ts): one decimal, comma. */
const pt = (x: number) => `${(Math.round(x * 1000) / 10).toString().replace('.', ',')}`;

describe('console series from the analyzer state', () => {
  it('plots, for the window that opened a partner incident, the failure rate the incident states', () => {
    const from = DAY3 + 13 * HOUR;
    const analyzer = analyzerAt(from, 1);
    const points: SeriesPoint[] = [];
    analyzer.seriesSink = (p) => points.push(...p);
    const partner = PARTNERS[2];
    const changes = feed(analyzer, WORLD, 1, from, DAY3 + 15 * HOUR, [
      faults.partnerFailure(partner, 'CASH_OUT', F0, F1, 0.8),
    ]);
    const opened = detected(changes).find((c) => c.incident.origin.id === partner);
    expect(opened, 'the partner incident opens').toBeDefined();
    const stated = /falhas em ([\d,]+)% das transações/.exec(opened!.incident.summary)?.[1];
    const plotted = (window: number) =>
      points.find(
        (p) => p.kind === 'partner' && p.id === partner && p.operation === 'CASH_OUT' && p.window === window,
      );
    const last = plotted(Date.parse(opened!.incident.detectedAt) - WINDOW_MS);
    expect(last).toBeDefined();
    // Success rate counts expiries too; a Cash-Out never expires, so failures = 1 - success.
    expect(last!.expired).toBe(0);
    expect(pt(1 - successRate(last!)!)).toBe(stated);
    // Every window of the incident's evidence plots the partner failing; the hour before, it did not.
    const evidenceWindows = new Set(
      opened!.incident.evidence.filter((e) => e.entity.id === partner).map((e) => Date.parse(e.observedAt)),
    );
    expect(evidenceWindows.size).toBeGreaterThanOrEqual(2);
    for (const w of evidenceWindows) expect(1 - successRate(plotted(w)!)!).toBeGreaterThan(0.5);
    for (let w = F0 - HOUR; w < F0 - WINDOW_MS; w += WINDOW_MS) {
      const p = plotted(w);
      if (p && p.settled + p.failed > 0) expect(p.failed / (p.settled + p.failed)).toBeLessThan(0.3);
    }
  });
});
