/** Operator API for webhook deliveries: list with filters, manual retry. */

import { runInDurableObject } from 'cloudflare:test';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { aggregateIs } from '../../durable-objects/ledger/webhooks/outbox-store';
import { createCashIn, payCashIn } from '../support/cash-in';
import { admin, call, Integrator } from '../support/harness';
import { ledgerContextOf, ledgerStub } from '../support/ledger';
import { deliveries } from '../support/ledger-reads';
import { setDelivery } from '../support/ledger-writes';
import {
  failedFirstEvent,
  newSink,
  outboxEvents,
  setPlan,
  waitForDelivery,
  waitForRequests,
  waitUntil,
} from '../support/webhooks';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function list(clientId: string, query = '') {
  const res = await admin(`/admin/clients/${clientId}/webhook-deliveries${query}`);
  return {
    status: res.status,
    body: (await res.json()) as { items: Record<string, any>[]; nextCursor?: string },
  };
}

describe('GET /admin/clients/{clientId}/webhook-deliveries', () => {
  it('lists deliveries newest first with their state, filters by status and pages', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const good = newSink();
    const bad = newSink();
    await setPlan(bad, [500]);
    const a = await createCashIn(api, { webhookUrl: good.url });
    await payCashIn(api, a.internalCode);
    const b = await createCashIn(api, { webhookUrl: bad.url });
    const c = await createCashIn(api);
    const [aRequested, aPaid] = await outboxEvents(clientId, a.transactionId);
    const [bRequested] = await outboxEvents(clientId, b.transactionId);
    const [cRequested] = await outboxEvents(clientId, c.transactionId);
    await waitForDelivery(clientId, aPaid!.eventId, (r) => r.status === 'DELIVERED');
    await waitForDelivery(clientId, bRequested!.eventId, (r) => r.status === 'FAILED');
    await waitForDelivery(clientId, cRequested!.eventId, (r) => r.status === 'UNDELIVERABLE');

    const all = await list(clientId);
    expect(all.status).toBe(200);
    expect(all.body.items.map((i) => i.eventId)).toEqual([
      cRequested!.eventId,
      bRequested!.eventId,
      aPaid!.eventId,
      aRequested!.eventId,
    ]);
    const [undeliverable, failed, delivered] = all.body.items;
    expect(delivered).toEqual({
      eventId: aPaid!.eventId,
      eventType: 'CASHIN_PAID',
      aggregateId: a.transactionId,
      url: good.url,
      status: 'DELIVERED',
      attempts: 1,
      lastResponseStatus: 200,
      lastAttemptAt: expect.stringMatching(ISO_UTC),
      deliveredAt: expect.stringMatching(ISO_UTC),
      createdAt: expect.stringMatching(ISO_UTC),
    });
    expect(failed).toMatchObject({
      eventType: 'CASHIN_REQUESTED',
      status: 'FAILED',
      attempts: 1,
      lastResponseStatus: 500,
      lastError: 'HTTP 500',
      nextAttemptAt: expect.stringMatching(ISO_UTC),
    });
    expect(Date.parse(failed!.nextAttemptAt) - Date.parse(failed!.lastAttemptAt)).toBe(5_000);
    expect(undeliverable).toMatchObject({ status: 'UNDELIVERABLE', attempts: 0 });
    expect(undeliverable).not.toHaveProperty('url');
    expect(undeliverable).not.toHaveProperty('nextAttemptAt');

    const onlyFailed = await list(clientId, '?status=FAILED');
    expect(onlyFailed.body.items.map((i) => i.eventId)).toEqual([bRequested!.eventId]);
    const ofA = await list(clientId, `?aggregateId=${a.transactionId}`);
    expect(ofA.body.items.map((i) => i.eventType)).toEqual(['CASHIN_PAID', 'CASHIN_REQUESTED']);

    const first = await list(clientId, '?limit=3');
    expect(first.body.items).toHaveLength(3);
    expect(first.body.nextCursor).toBeDefined();
    const second = await list(clientId, `?limit=3&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((i) => i.eventId)).toEqual([aRequested!.eventId]);
    expect(second.body).not.toHaveProperty('nextCursor');
  });

  it('validates the query and needs the operator token and a known client', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const bad = await list(clientId, '?status=LOST&limit=0');
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as any).errors).sort()).toEqual(['limit', 'status']);
    expect((await call(`/admin/clients/${clientId}/webhook-deliveries`)).status).toBe(401);
    expect((await list(crypto.randomUUID())).status).toBe(404);
  });
});

describe('POST /admin/clients/{clientId}/webhook-deliveries/{eventId}/retry', () => {
  it('sends a FAILED delivery now on a fresh schedule, with the same webhook-id', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const { sink, eventId } = await failedFirstEvent(api, [500, 500, 200]);
    // Park the automatic retry far away so only the operator's retry can send it.
    await setDelivery(clientId, eventId, { dueAt: Date.now() + 3_600_000 });

    const asked = Date.now();
    const res = await admin(`/admin/clients/${clientId}/webhook-deliveries/${eventId}/retry`, 'POST');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(body).toMatchObject({ eventId, status: 'PENDING', attempts: 0, lastResponseStatus: 500 });
    // Due now: between asking and the answer (a second either side for clocks read at I/O), not in an hour.
    expect(Date.parse(body.nextAttemptAt)).toBeGreaterThanOrEqual(asked - 1_000);
    expect(Date.parse(body.nextAttemptAt)).toBeLessThanOrEqual(Date.now() + 1_000);

    // It fails once more (500): the fresh schedule starts again at 5 s.
    const again = await waitForDelivery(clientId, eventId, (r) => r.status === 'FAILED' && r.attempts === 1);
    expect(again.due_at! - again.last_attempt_at!).toBe(5_000);
    await waitForDelivery(clientId, eventId, (r) => r.status === 'DELIVERED');
    const requests = await waitForRequests(sink, 3);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
  });

  it('refuses a delivery that is not FAILED or GIVEN_UP (422) and an unknown event (404)', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    const created = await createCashIn(api, { webhookUrl: sink.url });
    const [requested] = await outboxEvents(clientId, created.transactionId);
    await waitForDelivery(clientId, requested!.eventId, (r) => r.status === 'DELIVERED');
    const delivered = await admin(
      `/admin/clients/${clientId}/webhook-deliveries/${requested!.eventId}/retry`,
      'POST',
    );
    expect(delivered.status).toBe(422);
    expect(await delivered.json()).toMatchObject({
      code: 'RULE_VIOLATION',
      detail: expect.stringMatching(/DELIVERED/),
    });
    const unknown = await admin(`/admin/clients/${clientId}/webhook-deliveries/evt_nope/retry`, 'POST');
    expect(unknown.status).toBe(404);
    // An id is found by the seq it carries, and only with its own random part.
    const id = requested!.eventId;
    expect(id).toMatch(/^evt_[1-9]\d*_[A-Za-z0-9]{14}$/);
    const forged = `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`;
    const wrong = await admin(`/admin/clients/${clientId}/webhook-deliveries/${forged}/retry`, 'POST');
    expect(wrong.status).toBe(404);
    expect(
      (await call(`/admin/clients/${clientId}/webhook-deliveries/evt_nope/retry`, { method: 'POST' })).status,
    ).toBe(401);
  });

  it("finds one transaction's deliveries through the random end of its id, not its client's prefix", async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    // Cash-In TxIds of one client share their first 22 characters (the client).
    const all = await Promise.all([1, 2, 3].map(() => createCashIn(api)));
    expect(new Set(all.map((c) => c.transactionId.slice(0, 22))).size).toBe(1);
    const rows = await waitUntil(
      async () => (await deliveries(clientId)).map((d) => ({ k: d.aggregateId.slice(-8) })),
      (list) => list.length === 3,
    );
    expect(new Set(rows.map((r) => r.k)).size).toBe(3);
    // The store's own term for one aggregate's deliveries (aggregateIs), planned by SQLite.
    const plan = await runInDurableObject(ledgerStub(clientId), (instance) =>
      ledgerContextOf(instance).db.all<{ detail: string }>(
        sql`EXPLAIN QUERY PLAN SELECT * FROM webhook_deliveries WHERE ${aggregateIs(all[0]!.transactionId)} ORDER BY seq DESC`,
      ),
    );
    expect(plan.map((r) => r.detail).join(' | ')).toMatch(/USING INDEX webhook_deliveries_aggregate_idx/);
    const { body } = await list(clientId, `?aggregateId=${all[1]!.transactionId}`);
    expect(body.items.map((d) => d.aggregateId)).toEqual([all[1]!.transactionId]);
  });
});
