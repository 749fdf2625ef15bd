// Replay (decisions §7) and persistence: same core, same incidents, deterministic, restorable.
import { describe, expect, it } from 'vitest';
import { Analyzer } from '../../src/health/analyzer';
import { ReplaySession } from '../../src/health/surface/replay';
import { toPublicIncident } from '../../src/health/surface/scope';
import type { IncidentChange } from '../../src/health/types';
import { faults, generateArray, worldNames } from '../support/health';
import { analyzerAt, DAY3, F0, F1, feed, HOUR, MINUTE, QUIET_WORLD, START, WORLD } from './helpers';

const names = worldNames(QUIET_WORLD);
const END = DAY3 + 17 * HOUR;
const scenario = [faults.partnerFailure(QUIET_WORLD.partners[1]!.ispb, 'CASH_OUT', F0, F1, 0.7)];
const lines = generateArray({ world: QUIET_WORLD, seed: 3, from: START, to: END, faults: scenario }).map(
  (o) => JSON.stringify(o),
);

function replay(input: readonly string[], until?: number) {
  const out: string[] = [];
  const err: string[] = [];
  const session = new ReplaySession({
    config: { names },
    onOutput: (l) => out.push(l),
    onError: (e) => err.push(e),
  });
  for (const l of input) session.push(l);
  const summary = session.end(until);
  return { out, err, summary };
}

function direct(until: number): IncidentChange[] {
  const a = new Analyzer({ names });
  const changes: IncidentChange[] = [];
  for (const l of lines) changes.push(...a.ingest(JSON.parse(l)));
  changes.push(...a.advanceTo(until));
  return changes;
}

describe('health replay', () => {
  const first = replay(lines, END);

  it('prints one §2.5 incident per change, the same as the core used directly', () => {
    expect(first.out.length).toBeGreaterThanOrEqual(3);
    const expected = direct(END).map((c) => JSON.stringify(toPublicIncident(c.incident)));
    expect(first.out).toEqual(expected);
    const incidents = first.out.map((l) => JSON.parse(l));
    expect(incidents[0].origin).toEqual({
      type: 'BANKING_PARTNER',
      id: QUIET_WORLD.partners[1]!.ispb,
      displayName: 'Banco Parceiro Beta',
    });
    expect(incidents.map((i) => i.status)).toEqual(['ACTIVE', 'RECOVERING', 'RESOLVED']);
  });

  it('is deterministic: a second replay prints the same bytes', () => {
    expect(replay(lines, END).out).toEqual(first.out);
  });

  it('reports invalid lines on stderr with their number, skips them and carries on', () => {
    const noisy = [
      'not json',
      ...lines.slice(0, 1000),
      '{"at":"2026-11-02T00:10:00Z","clientId":"c","operation":"PIX","partnerIspb":"90000001","event":"CREATED"}',
      '',
      '[1,2]',
      ...lines.slice(1000),
    ];
    const r = replay(noisy, END);
    expect(r.out).toEqual(first.out);
    expect(r.err.slice(0, 3)).toEqual([
      'line 1: invalid JSON; skipped',
      'line 1002: operation: CASH_IN or CASH_OUT; skipped',
      'line 1004: not an object; skipped',
    ]);
    expect(r.summary.invalid).toBe(3);
    expect(r.err.at(-1)).toMatch(/3 invalid/);
  });

  it('does not close the partial last window when the file simply ends', () => {
    // Cut the file 2 minutes into a window: without --until the cut window is not judged as a drop.
    const cut = DAY3 + 12 * HOUR + 2 * MINUTE;
    const head = lines.filter((l) => Date.parse(JSON.parse(l).at) < cut);
    expect(replay(head).out).toEqual([]);
  });
});

describe('snapshot and restore', () => {
  it('continues exactly like an uninterrupted run, through a JSON round trip mid-incident', () => {
    const fault = [faults.institutionErrors(WORLD.institutions[0]!.ispb, F0, F1, 0.8)];
    const from = DAY3 + 13 * HOUR;
    const continuous = feed(analyzerAt(from), WORLD, 1, from, DAY3 + 17 * HOUR, fault);

    const a = analyzerAt(from);
    const before = feed(a, WORLD, 1, from, F0 + 37 * MINUTE + 12_345, fault);
    const stored = JSON.parse(JSON.stringify(a.snapshot()));
    const b = Analyzer.restore(stored, { names: worldNames(WORLD) });
    expect(b.openIncidents().map((i) => i.origin.type)).toEqual(['PAYER_INSTITUTION']);
    const after = feed(b, WORLD, 1, F0 + 37 * MINUTE + 12_345, DAY3 + 17 * HOUR, fault);
    expect([...before, ...after]).toEqual(continuous);
    expect(continuous.map((c) => c.change)).toEqual(['DETECTED', 'UPDATED', 'RESOLVED']);
  });

  it('rejects an unknown snapshot version', () => {
    expect(() => Analyzer.restore({ version: 99 } as never)).toThrow(/snapshot/);
  });
});

describe('time and silence', () => {
  it('judges silence: no traffic at all after the warm-up is a CONNECTPSP intake incident', () => {
    const a = analyzerAt(DAY3 + 14 * HOUR);
    const changes = a.advanceTo(DAY3 + 14 * HOUR + 15 * MINUTE);
    const found = changes.map((c) => `${c.change}:${c.incident.operation}:${c.incident.origin.type}`).sort();
    expect(found).toEqual(['DETECTED:CASH_IN:CONNECTPSP', 'DETECTED:CASH_OUT:CONNECTPSP']);
    expect(
      changes.every((c) => c.incident.originClass === 'INFERRED' && c.incident.severity === 'UNAVAILABLE'),
    ).toBe(true);
  });

  it('counts slightly late observations in the open window and drops much older ones', () => {
    const a = new Analyzer();
    const base = { clientId: 'c', operation: 'CASH_IN', partnerIspb: '90000001', event: 'CREATED' } as const;
    a.ingest({ ...base, at: '2026-11-02T10:07:00.000Z' });
    a.ingest({ ...base, at: '2026-11-02T10:03:30.000Z' });
    a.ingest({ ...base, at: '2026-11-02T09:50:00.000Z' });
    expect(a.getStats()).toMatchObject({ ingested: 2, late: 1, droppedLate: 1 });
    expect(a.openWindowStartMs).toBe(Date.parse('2026-11-02T10:05:00Z'));
    expect(a.warm).toBe(false);
  });
});
