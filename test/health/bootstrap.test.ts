/**
 * Bootstrap from history in the HealthAnalyzer Durable Object (src/health/baselines/bootstrap.ts): days of past
 * observations reaching a warming-up analyzer after live traffic has started. A dedicated instance
 * fed by RPC, so the counts are exact; the queue path is test/health/queue-e2e.test.ts.
 */
import { runDurableObjectAlarm } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { WINDOW_MS } from '../../src/health';
import { bootstrapDone } from '../../src/health/baselines/bootstrap';
import { generateArray } from '../support/health';
import { ALFA, analyzer, DAY, HOUR, windowStart, worldWith } from './worker-world';

function live(at: number) {
  return {
    id: `live-${crypto.randomUUID()}`,
    at: new Date(at).toISOString(),
    clientId: 'client-live',
    operation: 'CASH_IN',
    partnerIspb: ALFA,
    event: 'CREATED',
  };
}

describe('HealthAnalyzer bootstrap from history', () => {
  it('restarts a cold analyzer from late history, parks recent traffic meanwhile and counts it after', async () => {
    const stub = analyzer(`bootstrap-${crypto.randomUUID()}`);
    try {
      const start = windowStart(Date.now());
      expect(await stub.ingest([live(Date.now())])).toMatchObject({ accepted: 1, parked: 0 });
      expect(await stub.stats()).toMatchObject({ ingested: 1, bootstrapping: false, warm: false });

      const world = worldWith('client-history', 3);
      const history = generateArray({ world, seed: 5, from: start - 3 * DAY, to: start - 2 * HOUR });
      for (let i = 0; i < history.length; i += 5_000) await stub.ingest(history.slice(i, i + 5_000));
      // Live traffic during the bootstrap waits (a redelivery of it is still a duplicate)...
      const late = live(Date.now());
      expect(await stub.ingest([late, late])).toMatchObject({ accepted: 1, duplicates: 1, parked: 1 });
      const during = await stub.stats();
      expect(during).toMatchObject({ bootstrapping: true, parked: 1, droppedLate: 0 });
      // ...and so do the windows: the alarm does not close them while the history is arriving.
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      expect((await stub.stats()).windowsClosed).toBe(during.windowsClosed);

      // The rest of the history, up to now: its last hour is parked with the live traffic.
      const tail = generateArray({ world, seed: 5, from: start - 2 * HOUR, to: Date.now() });
      const result = await stub.ingest(tail);
      const recent = tail.filter((o) => Date.parse(o.at) >= (during.liveFrom as number)).length;
      expect(result.parked).toBe(recent);
      expect(recent).toBeGreaterThan(0);

      await stub.advance(Date.now() - 60_000);
      const after = await stub.stats();
      // The first live observation went with the cold state; every other one is counted.
      expect(after).toMatchObject({
        bootstrapping: false,
        parked: 0,
        warm: true,
        droppedLate: 0,
        ingested: history.length + tail.length + 1,
      });
      expect(after.windowsClosed).toBeGreaterThanOrEqual((3 * DAY) / WINDOW_MS - 1);

      // A warm analyzer never starts over: history older than its lateness is dropped.
      expect(await stub.ingest([live(start - 4 * DAY)])).toMatchObject({ accepted: 1, parked: 0 });
      expect(await stub.stats()).toMatchObject({ bootstrapping: false, droppedLate: 1 });
    } finally {
      await stub.reset();
    }
    expect(await stub.stats()).toMatchObject({ ingested: 0, windowsClosed: 0, warm: false, duplicates: 1 });
  });

  it('the alarm ends a bootstrap once the history has stopped arriving for a whole window', () => {
    const b = { liveFrom: 0, lastHistoryAt: 1_000_000 };
    expect(bootstrapDone(b, 1_000_000 + WINDOW_MS - 1)).toBe(false);
    expect(bootstrapDone(b, 1_000_000 + WINDOW_MS)).toBe(true);
  });
});
