/**
 * The health engine inside the Worker: the HealthAnalyzer Durable Object fed with generated
 * traffic (three days of history, the last hour with a partner failure), incidents published to D1, visible on
 * /health/pix* to the clients in scope only, and delivered to their healthWebhookUrl as events.
 * A dedicated analyzer instance fed by RPC, so the whole incident lifecycle can be driven from
 * generated data; the same path through the queue, the shared 'platform' analyzer and real Cash-Outs
 * under an operator fault is test/health/queue-e2e.test.ts. Other tests' incidents may reach the
 * same clients' webhooks (partner incidents go to everyone routed through the partner), so events
 * are matched by incidentId.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { HealthPictureBody } from '../../src/api/health/get-pix-health';
import type { IncidentPageBody } from '../../src/api/health/list-pix-incidents';
import { WINDOW_MS } from '../../src/health';
import { createCashOut, deposit, settled } from '../support/cash-out';
import { addIncident, dropIncident, dropIncidentsOf } from '../support/d1-writes';
import { admin, Integrator } from '../support/harness';
import { faults, generateArray } from '../support/health';
import { withD1TableGone } from '../support/storage-faults';
import { newSink, received, waitUntil } from '../support/webhooks';
import { ALFA, analyzer, BETA, GAMA, HOUR, windowStart, worldWith } from './worker-world';

/** Busy enough that the failing partner clears the volume gate even in the small hours (~4 a.m.). */
const PEAK_PER_MINUTE = 360;

async function feed(name: string, observations: unknown[]) {
  for (let i = 0; i < observations.length; i += 5_000) {
    await analyzer(name).ingest(observations.slice(i, i + 5_000));
  }
}

describe('PIX health in the Worker', () => {
  it('detects a failing partner, shows it to clients routed through it, and sends PIX_INCIDENT_DETECTED', async () => {
    const sink = newSink();
    const affected = await Integrator.create({ partners: [BETA] });
    const bystander = await Integrator.create({ partners: [GAMA] });
    await admin(`/admin/clients/${affected.client.clientId}`, 'PATCH', { healthWebhookUrl: sink.url });

    const end = windowStart(Date.now()) - WINDOW_MS;
    const world = worldWith(affected.client.clientId, PEAK_PER_MINUTE);
    const fault = faults.partnerFailure(BETA, 'CASH_OUT', end - 60 * 60_000, end, 0.9);
    const observations = generateArray({
      world,
      seed: 7,
      from: end - 3 * 24 * HOUR,
      to: end,
      faults: [fault],
    });
    const name = `e2e-${crypto.randomUUID()}`;
    try {
      await feed(name, observations);
      await analyzer(name).advance(Date.now() - 60_000);
      await incidentSeenAndDelivered(affected, bystander, sink, end);
    } finally {
      // Left alone, its alarm would keep closing windows on this timeline: silence, then an outage.
      await analyzer(name).reset();
      await dropIncidentsOf(affected.client.clientId);
    }
  }, 120_000); // three days of a world replayed into the analyzer: ~15 s alone, far more beside the suite

  async function incidentSeenAndDelivered(
    affected: Integrator,
    bystander: Integrator,
    sink: ReturnType<typeof newSink>,
    end: number,
  ) {
    const list = await affected.get('/health/pix/incidents');
    expect(list.status).toBe(200);
    const body = (await list.json()) as { items: any[]; total: number };
    // Started before `end`: a concurrent queue-e2e incident on Beta starts after it.
    const incident = body.items.find(
      (i) => i.origin.type === 'BANKING_PARTNER' && i.origin.id === BETA && Date.parse(i.startedAt) < end,
    );
    expect(incident).toBeDefined();
    expect(incident.operation).toBe('CASH_OUT');
    expect(['ACTIVE', 'WORSENING']).toContain(incident.status);
    expect(incident.startedAt).toMatch(/Z$/);

    const picture = await affected.get('/health/pix');
    expect(picture.status).toBe(200);
    const pic = (await picture.json()) as HealthPictureBody;
    expect(pic.incidents.map((i: any) => i.incidentId)).toContain(incident.incidentId);
    expect(pic.blocks.find((b: any) => b.operation === 'CASH_OUT')!.status).not.toBe('HEALTHY');

    const detail = await affected.get(`/health/pix/incidents/${incident.incidentId}`);
    expect(detail.status).toBe(200);
    const d = (await detail.json()) as { incident: any; evidence: any[] };
    expect(d.incident).toEqual(incident);
    expect(d.evidence.length).toBeGreaterThan(0);
    const times = d.evidence.map((e) => Date.parse(e.observedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(JSON.stringify(d.evidence)).not.toMatch(/"count"|"volume"/);

    // Out of scope answers like a nonexistent incident.
    const foreign = await bystander.get(`/health/pix/incidents/${incident.incidentId}`);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(await (await bystander.get('/health/pix/incidents/nope')).json());
    const bystanderList = (await (await bystander.get('/health/pix/incidents')).json()) as { items: any[] };
    expect(bystanderList.items.map((i) => i.incidentId)).not.toContain(incident.incidentId);

    const verify = new Webhook(affected.client.webhookSecret);
    const requests = await waitUntil(
      () => received(sink),
      (list) =>
        list.some((r) => (verify.verify(r.body, r.headers) as any).data.incidentId === incident.incidentId),
    );
    const envelope = requests
      .map((r) => verify.verify(r.body, r.headers) as any)
      .find((e) => e.data.incidentId === incident.incidentId);
    expect(envelope.eventType).toBe('PIX_INCIDENT_DETECTED');
    expect(envelope.eventAt).toMatch(/Z$/);
    expect(envelope.data.incidentId).toBe(incident.incidentId);
    expect(envelope.data.origin).toEqual(incident.origin);
  }

  it('validates the incident list query with the kebab-case codes', async () => {
    const api = await Integrator.create();
    const cases: [string, string][] = [
      ['from=2026-11-21T00:00:00Z&to=2026-11-01T00:00:00Z', 'invalid-window'],
      ['from=2026-01-01T00:00:00Z&to=2026-11-01T00:00:00Z', 'invalid-window'],
      ['from=yesterday', 'invalid-window'],
      ['status=ACTIVE,BROKEN', 'invalid-status'],
      ['page=0', 'invalid-page'],
      ['pageSize=201', 'invalid-page-size'],
      ['pageSize=0', 'invalid-page-size'],
    ];
    for (const [query, code] of cases) {
      const res = await api.get(`/health/pix/incidents?${query}`);
      expect(res.status, query).toBe(422);
      expect(((await res.json()) as { code: string }).code).toBe(code);
    }
    const ok = await api.get('/health/pix/incidents?status=active,Resolved&page=2&pageSize=200');
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as IncidentPageBody;
    expect(body.page).toBe(2);
    expect(body.pageSize).toBe(200);
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(7 * 24 * HOUR);
    const blank = await api.get('/health/pix/incidents/%20%20');
    expect(blank.status).toBe(422);
    expect(((await blank.json()) as { code: string }).code).toBe('invalid-incident-id');
  });

  it('answers 503 PIX_HEALTH_UNAVAILABLE with Retry-After: 60 when the incidents cannot be read', async () => {
    const api = await Integrator.create();
    await withD1TableGone('health_incidents', async () => {
      const res = await api.get('/health/pix/incidents');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('60');
      expect(((await res.json()) as { code: string }).code).toBe('PIX_HEALTH_UNAVAILABLE');
    });
  });

  it('feeds the platform analyzer from the queue and ignores a redelivered observation', async () => {
    const id = `obs-${crypto.randomUUID()}`;
    const body = {
      id,
      at: new Date().toISOString(),
      clientId: 'c',
      operation: 'CASH_IN',
      partnerIspb: ALFA,
      event: 'CREATED',
    };
    const first = await analyzer('platform').ingest([body]);
    const again = await analyzer('platform').ingest([body, { nonsense: true }]);
    expect(first.accepted).toBe(1);
    expect(again).toMatchObject({ accepted: 0, duplicates: 1, rejected: 1 });
  });

  it('routes Cash-Outs away from a partner with an open Cash-Out incident', async () => {
    const api = await Integrator.create({ partners: [ALFA, GAMA] });
    await deposit(api, 100, 0);
    await deposit(api, 50, 1);
    const id = `inc_test_${crypto.randomUUID()}`;
    await addIncident({
      id,
      originType: 'BANKING_PARTNER',
      originId: ALFA,
      operation: 'CASH_OUT',
      status: 'ACTIVE',
      incident: {},
      affectedClientIds: [],
      startedAt: Date.now(),
      updatedAt: Date.now(),
    });
    try {
      const accepted = await createCashOut(api, { amount: 10 });
      const done = await settled(api, accepted.transactionId);
      expect(done.status).toBe('COMPLETED');
      expect(done.settlement!.ispb).toBe(GAMA);
    } finally {
      await dropIncident(id);
    }
  });
});
