/**
 * What may enter the health analyzer, and what a gap costs. An observation dated in the future
 * would close every window up to it and make live traffic "late" from then on: an import dated
 * 30 days ahead is refused with 400 naming its `at`, and the analyzer's own intake refuses one that
 * arrives by the queue. A long gap (a month without traffic) closes at most a day of windows one by
 * one and passes over the rest at once: the work is counted in windows judged, not wall time.
 */
import { describe, expect, it } from 'vitest';
import { Analyzer, WINDOW_MS } from '../../src/health';
import { MAX_CLOSED_PER_GAP } from '../../src/health/analyzer';
import { admin } from '../support/harness';
import { ALFA, analyzer } from './worker-world';

const DAY = 86_400_000;

function observation(id: string, at: number, event = 'CREATED') {
  return {
    id,
    at: new Date(at).toISOString(),
    clientId: 'intake-test',
    operation: 'CASH_IN',
    partnerIspb: ALFA,
    institutionIspb: '00000000',
    event,
  };
}

describe('POST /admin/health/observations bounds `at`', () => {
  it('refuses an observation 30 days ahead, naming its at', async () => {
    const now = Date.now();
    const res = await admin('/admin/health/observations', 'POST', {
      observations: [
        observation(`${crypto.randomUUID()}:ok`, now - 60_000),
        observation('ahead', now + 30 * DAY),
      ],
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(body.errors)).toEqual(['observations.1.at']);
    expect(body.errors['observations.1.at']?.[0]).toMatch(/^at must not be more than 5 minutes ahead/);
  });

  it('takes a little clock skew, refuses history older than 30 days', async () => {
    const now = Date.now();
    const skewed = await admin('/admin/health/observations', 'POST', {
      observations: [observation(`${crypto.randomUUID()}:skew`, now + 2 * 60_000)],
    });
    expect(skewed.status).toBe(202);
    const ancient = await admin('/admin/health/observations', 'POST', {
      observations: [observation('ancient', now - 31 * DAY)],
    });
    expect(ancient.status).toBe(400);
    expect(((await ancient.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      'observations.0.at': ['at must be within the last 30 days (imports are recent history)'],
    });
  });
});

describe("the analyzer's intake", () => {
  it('rejects an observation from the future that arrives by the queue, and keeps counting live traffic', async () => {
    const stub = analyzer(`intake-${crypto.randomUUID()}`);
    const now = Date.now();
    expect(await stub.ingest([observation('live-1', now - 1000)])).toMatchObject({ accepted: 1 });
    const before = await stub.stats();
    expect(await stub.ingest([observation('future', now + 30 * DAY)])).toMatchObject({
      accepted: 0,
      rejected: 1,
    });
    expect((await stub.stats()).windowsClosed).toBe(before.windowsClosed);
    expect(await stub.ingest([observation('live-2', Date.now())])).toMatchObject({ accepted: 1 });
    expect(await stub.stats()).toMatchObject({ droppedLate: 0, ingested: 2 });
  });
});

describe('closing a gap', () => {
  it('a 30-day gap judges at most a day of windows, passes over the rest, and counts what follows', () => {
    const a = new Analyzer();
    const t0 = Date.UTC(2026, 0, 5, 12);
    a.ingest(observation('a', t0) as never, t0);
    const gapWindows = (30 * DAY) / WINDOW_MS;
    a.advanceTo(t0 + 30 * DAY);
    const stats = a.getStats();
    expect(stats.windowsClosed).toBe(MAX_CLOSED_PER_GAP);
    expect(stats.windowsClosed + stats.windowsSkipped).toBe(gapWindows);
    expect(a.openWindowStartMs).toBe(Math.floor((t0 + 30 * DAY) / WINDOW_MS) * WINDOW_MS);
    // Traffic after the gap is counted, not dropped as late.
    a.ingest(observation('b', t0 + 30 * DAY + 1000) as never, t0 + 30 * DAY + 1000);
    expect(a.getStats()).toMatchObject({ ingested: 2, droppedLate: 0 });
  });

  it('a gap of a day or less is still judged window by window', () => {
    const a = new Analyzer();
    const t0 = Date.UTC(2026, 0, 5, 12);
    a.ingest(observation('a', t0) as never, t0);
    a.advanceTo(t0 + 6 * 3_600_000);
    expect(a.getStats()).toMatchObject({ windowsClosed: 72, windowsSkipped: 0 });
  });

  it('restores a snapshot saved before windowsSkipped existed', () => {
    const a = new Analyzer();
    a.ingest(observation('a', Date.UTC(2026, 0, 5)) as never);
    const snapshot = a.snapshot();
    delete (snapshot.stats as Partial<typeof snapshot.stats>).windowsSkipped;
    expect(Analyzer.restore(snapshot).getStats().windowsSkipped).toBe(0);
  });
});
