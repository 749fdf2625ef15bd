/**
 * Operator health API: importing observations onto the real health queue (ids make a repeat
 * harmless), the analyzer's state, and closing windows on demand (staging only). Plus the per-window
 * series the console plots, kept by the HealthAnalyzer from what it ingests.
 */
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { WINDOW_MS } from '../../src/health';
import worker from '../../src/index';
import { ADMIN_TOKEN, admin, BASE } from '../support/harness';
import { waitUntil } from '../support/webhooks';
import { ALFA, analyzer, windowStart } from './worker-world';

const production = { ...env, ENVIRONMENT: 'production', PIX_LOCATION_HOST: 'pix.example.com.br' } as Env;

function observation(id: string, at: number, event: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    at: new Date(at).toISOString(),
    clientId: 'admin-health-test',
    operation: 'CASH_IN',
    partnerIspb: ALFA,
    institutionIspb: '00000000',
    event,
    ...extra,
  };
}

describe('POST /admin/health/observations', () => {
  it('queues valid observations once per id; the analyzer counts each id once', async () => {
    const run = crypto.randomUUID();
    const now = Date.now();
    const batch = [
      observation(`${run}:1`, now - 1000, 'CREATED'),
      observation(`${run}:2`, now - 500, 'SETTLED', { latencyMs: 500 }),
    ];
    const res = await admin('/admin/health/observations', 'POST', { observations: batch });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ queued: 2 });
    const platform = analyzer('platform');
    await waitUntil(
      () => platform.countSeen(batch.map((o) => o.id)),
      (n) => n === 2,
    );
    const before = (await platform.stats()).duplicates;
    expect((await admin('/admin/health/observations', 'POST', { observations: batch })).status).toBe(202);
    await waitUntil(
      () => platform.stats(),
      (s) => s.duplicates - before >= 2,
    );
  });

  it('refuses a bad batch with 400 naming each bad item, and queues nothing of it', async () => {
    const now = Date.now();
    const good = observation(`${crypto.randomUUID()}:ok`, now, 'CREATED');
    const res = await admin('/admin/health/observations', 'POST', {
      observations: [
        good,
        { ...good, id: 'x:1', at: '2026-11-25 10:00:00' },
        { ...good, id: undefined },
        { ...good, id: 'x:3', partnerIspb: '123' },
      ],
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(body.errors).sort()).toEqual(['observations.2.id', 'observations.3.partnerIspb']);
    // The analyzer's own parser runs once the shapes are right.
    const badTime = await admin('/admin/health/observations', 'POST', {
      observations: [good, { ...good, id: 'x:1', at: '2026-11-25 10:00:00' }],
    });
    expect(badTime.status).toBe(400);
    expect(((await badTime.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      'observations.1': ['at: not an ISO 8601 timestamp with offset'],
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(await analyzer('platform').countSeen([good.id])).toBe(0);

    const tooMany = Array.from({ length: 251 }, (_, i) => ({ ...good, id: `y:${i}` }));
    const big = await admin('/admin/health/observations', 'POST', { observations: tooMany });
    expect(big.status).toBe(400);
  });

  it('needs the operator token', async () => {
    const res = await worker.fetch(
      new Request(`${BASE}/admin/health/observations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"observations":[]}',
      }) as Request<unknown, IncomingRequestCfProperties>,
      env,
      createExecutionContext(),
    );
    expect(res.status).toBe(401);
  });
});

describe('GET /admin/health/analyzer and POST /admin/health/analyzer/advance', () => {
  it("reads the platform analyzer's state", async () => {
    const res = await admin('/admin/health/analyzer');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [
        'accepted',
        'bootstrapping',
        'droppedLate',
        'duplicates',
        'ingested',
        'late',
        'liveFrom',
        'parked',
        'rejected',
        'warm',
        'windowsClosed',
      ].sort(),
    );
  });

  it('validates until, and does not exist in production', async () => {
    const bad = await admin('/admin/health/analyzer/advance', 'POST', { until: 'yesterday' });
    expect(bad.status).toBe(400);
    const prod = await worker.fetch(
      new Request(`${BASE}/admin/health/analyzer/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ until: new Date().toISOString() }),
      }) as Request<unknown, IncomingRequestCfProperties>,
      production,
      createExecutionContext(),
    );
    expect(prod.status).toBe(404);
  });
});

describe('HealthAnalyzer per-window series', () => {
  it('counts each partner and institution per window and operation, and forgets what is older than two days', async () => {
    const name = `series-${crypto.randomUUID()}`;
    const a = analyzer(name);
    const w = windowStart(Date.now()) - WINDOW_MS;
    const at = (ms: number) => new Date(ms).toISOString();
    const base = { clientId: 'c', operation: 'CASH_OUT', partnerIspb: ALFA, institutionIspb: '60701190' };
    await a.ingest([
      { id: 's1', at: at(w + 1000), event: 'CREATED', ...base },
      { id: 's2', at: at(w + 2000), event: 'SETTLED', ...base },
      { id: 's3', at: at(w + 3000), event: 'FAILED', failureCode: 'PAYEE_BANK_UNAVAILABLE', ...base },
      { id: 's3', at: at(w + 3000), event: 'FAILED', failureCode: 'PAYEE_BANK_UNAVAILABLE', ...base },
      { id: 's4', at: at(w + WINDOW_MS + 10), event: 'CREATED', ...base, institutionIspb: undefined },
      // A Cash-Out to a PIX key learns its payee's bank when it settles: that bank's volume counts it.
      { id: 's5', at: at(w + WINDOW_MS + 20), event: 'SETTLED', ...base },
    ]);
    const points = await a.series(w - WINDOW_MS, 4);
    const find = (kind: string, window: number) =>
      points.find((p) => p.kind === kind && p.window === window && p.operation === 'CASH_OUT');
    expect(find('partner', w)).toMatchObject({ id: ALFA, created: 1, settled: 1, failed: 1, expired: 0 });
    // A bank's volume counts transactions at their outcome (its bank is often unknown at creation).
    expect(find('institution', w)).toMatchObject({ id: '60701190', created: 2, settled: 1, failed: 1 });
    expect(find('partner', w + WINDOW_MS)).toMatchObject({ created: 1, settled: 1 });
    expect(find('institution', w + WINDOW_MS)).toMatchObject({ id: '60701190', created: 1, settled: 1 });
    // Two days back is the retention: older points are not kept.
    await a.ingest([{ id: 'old', at: at(Date.now() - 49 * 3_600_000), event: 'CREATED', ...base }]);
    expect((await a.series(0, 4)).every((p) => p.window >= Date.now() - 48 * 3_600_000 - WINDOW_MS)).toBe(
      true,
    );
  });

  it('plots what the analyzer counted: a slightly late observation in the window that took it, a too-late one nowhere', async () => {
    const a = analyzer(`series-late-${crypto.randomUUID()}`);
    const w = windowStart(Date.now()) - 2 * WINDOW_MS;
    const at = (ms: number) => new Date(ms).toISOString();
    const base = { clientId: 'c', operation: 'CASH_OUT', partnerIspb: ALFA, institutionIspb: '60701190' };
    await a.ingest([
      { id: 'l1', at: at(w + 1000), event: 'CREATED', ...base },
      { id: 'l2', at: at(w + WINDOW_MS + 1000), event: 'CREATED', ...base },
      { id: 'l3', at: at(w + 2 * WINDOW_MS + 1000), event: 'CREATED', ...base },
    ]);
    // The open window is w + 2; w + 1 ended less than the lateness ago (counted in the open window),
    // w is beyond it (dropped): the analyzer never judged either in its own window.
    await a.ingest([
      { id: 'l4', at: at(w + 2 * WINDOW_MS - 1000), event: 'SETTLED', ...base },
      { id: 'l5', at: at(w + 2000), event: 'SETTLED', ...base },
    ]);
    const points = (await a.series(w - WINDOW_MS, 4)).filter((p) => p.kind === 'partner' && p.id === ALFA);
    const at0 = (window: number) => points.find((p) => p.window === window);
    expect(at0(w)).toMatchObject({ created: 1, settled: 0 });
    expect(at0(w + WINDOW_MS)).toMatchObject({ created: 1, settled: 0 });
    expect(at0(w + 2 * WINDOW_MS)).toMatchObject({ created: 1, settled: 1 });
    expect(points.reduce((n, p) => n + p.settled, 0)).toBe(1);
  });
});
