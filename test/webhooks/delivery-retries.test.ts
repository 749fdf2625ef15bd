/**
 * Failure handling of webhook delivery (decisions §6) against the real receiver: retries on the
 * schedule with the same webhook-id, the 10 s time-out, per-transaction ordering and giving up.
 * Long delays are travelled by making the scheduled retry due now and running the alarm.
 */
import { runInDurableObject } from 'cloudflare:test';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { RETRY_DELAYS_MS } from '../../src/webhooks/retry-schedule';
import { createCashIn, payCashIn } from '../support/cash-in';
import { admin, Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';
import { setDelivery } from '../support/ledger-writes';
import {
  deliveryOf,
  deliveryRows,
  makeDueNow,
  newSink,
  outboxEvents,
  received,
  setPlan,
  waitForDelivery,
  waitForRequests,
  waitUntil,
} from '../support/webhooks';

async function eventIds(clientId: string, transactionId: string) {
  return (await outboxEvents(clientId, transactionId)).map((e) => e.eventId);
}

const typeOf = (body: string) => (JSON.parse(body) as { eventType: string }).eventType;

describe('webhook retries', () => {
  it('retries a 500 after about 5 s with the same webhook-id, then succeeds', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    await setPlan(sink, [500, 200]);
    const created = await createCashIn(api, { webhookUrl: sink.url });
    const [requested] = await eventIds(api.client.clientId, created.transactionId);

    const failed = await waitForDelivery(api.client.clientId, requested!, (r) => r.status === 'FAILED');
    expect(failed.attempts).toBe(1);
    expect(failed.last_response_status).toBe(500);
    expect(failed.last_error).toBe('HTTP 500');
    expect(failed.due_at! - failed.last_attempt_at!).toBe(RETRY_DELAYS_MS[0]);

    const requests = await waitForRequests(sink, 2);
    const done = await waitForDelivery(api.client.clientId, requested!, (r) => r.status === 'DELIVERED');
    expect(done.attempts).toBe(2);
    expect(done.last_response_status).toBe(200);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([requested, requested]);
    const gap = requests[1]!.receivedAt - requests[0]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(5_000);
    expect(gap).toBeLessThan(9_000);
    // Each attempt is signed afresh (its own timestamp) and verifies.
    const wh = new Webhook(api.client.webhookSecret);
    for (const r of requests)
      expect(typeOf(JSON.stringify(wh.verify(r.body, r.headers)))).toBe('CASHIN_REQUESTED');
  });

  it('treats a receiver that does not answer within 10 s as a failure and retries', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    await setPlan(sink, ['hang', 200]);
    const created = await createCashIn(api, { webhookUrl: sink.url });
    const [requested] = await eventIds(api.client.clientId, created.transactionId);

    const failed = await waitForDelivery(api.client.clientId, requested!, (r) => r.status === 'FAILED');
    expect(failed.last_error).toBe('no answer within 10 s');
    expect(failed.last_response_status).toBeNull();
    const requests = await waitForRequests(sink, 2);
    await waitForDelivery(api.client.clientId, requested!, (r) => r.status === 'DELIVERED');
    // 10 s time-out, then the 5 s retry delay.
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(15_000);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([requested, requested]);
  });

  it('holds a later event of the same transaction until the earlier one is delivered', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    await setPlan(sink, [500]);
    const created = await createCashIn(api, { webhookUrl: sink.url });
    await payCashIn(api, created.internalCode);
    const [requested, paid] = await eventIds(api.client.clientId, created.transactionId);
    await waitForDelivery(api.client.clientId, requested!, (r) => r.status === 'FAILED');

    // Another transaction of the same client is not held back.
    const other = newSink();
    await createCashIn(api, { webhookUrl: other.url });
    await waitForRequests(other, 1);

    const waiting = await deliveryOf(api.client.clientId, paid!);
    expect([waiting.status, waiting.attempts, waiting.dispatches]).toEqual(['PENDING', 0, 0]);
    expect(await received(sink)).toHaveLength(1);

    await setPlan(sink, [200]);
    await makeDueNow(api.client.clientId, requested!);
    const requests = await waitForRequests(sink, 3);
    expect(requests.map((r) => [r.headers['webhook-id'], typeOf(r.body)])).toEqual([
      [requested, 'CASHIN_REQUESTED'],
      [requested, 'CASHIN_REQUESTED'],
      [paid, 'CASHIN_PAID'],
    ]);
    await waitForDelivery(api.client.clientId, paid!, (r) => r.status === 'DELIVERED');
  });

  it('gives up after the eighth attempt, keeps the event, releases the next one; an operator retry delivers it', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    await setPlan(sink, [503]);
    const created = await createCashIn(api, { webhookUrl: sink.url });
    await payCashIn(api, created.internalCode);
    const [requested, paid] = await eventIds(clientId, created.transactionId);

    for (let attempt = 1; attempt <= 8; attempt++) {
      const row = await waitForDelivery(
        clientId,
        requested!,
        (r) => r.attempts === attempt && r.status !== 'IN_FLIGHT',
      );
      if (attempt < 8) {
        expect(row.status).toBe('FAILED');
        expect(row.due_at! - row.last_attempt_at!).toBe(RETRY_DELAYS_MS[attempt - 1]);
        expect((await deliveryOf(clientId, paid!)).status).toBe('PENDING');
        await makeDueNow(clientId, requested!);
      } else {
        expect(row.status).toBe('GIVEN_UP');
        expect(row.due_at).toBeNull();
        expect(row.last_response_status).toBe(503);
      }
    }
    // The later event now has its turn (and fails too).
    await waitForDelivery(clientId, paid!, (r) => r.status === 'FAILED');
    const requests = await received(sink);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([...Array(8).fill(requested), paid]);

    const listed = await admin(`/admin/clients/${clientId}/webhook-deliveries?status=GIVEN_UP`);
    const body = (await listed.json()) as { items: Record<string, unknown>[] };
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({ eventId: requested, status: 'GIVEN_UP', attempts: 8 });

    await setPlan(sink, [200]);
    const retried = await admin(`/admin/clients/${clientId}/webhook-deliveries/${requested}/retry`, 'POST');
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ eventId: requested, status: 'PENDING', attempts: 0 });
    const done = await waitForDelivery(clientId, requested!, (r) => r.status === 'DELIVERED');
    expect(done.attempts).toBe(1);
    const after = await received(sink);
    expect(after.at(-1)!.headers['webhook-id']).toBe(requested);
    expect(typeOf(after.at(-1)!.body)).toBe('CASHIN_REQUESTED');
  });
});

describe('webhook delivery is at least once, never lost', () => {
  it('sends again, with the same webhook-id, when a dispatch never reports (consumer or object crash)', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    await setPlan(sink, [500, 200]);
    const created = await createCashIn(api, { webhookUrl: sink.url });
    const [requested] = await eventIds(api.client.clientId, created.transactionId);
    const first = await waitForDelivery(api.client.clientId, requested!, (r) => r.status === 'FAILED');

    // As if its retry had been dispatched and the consumer died: IN_FLIGHT, lease over.
    await setDelivery(api.client.clientId, requested!, { status: 'IN_FLIGHT' });
    await makeDueNow(api.client.clientId, requested!);
    const requests = await waitForRequests(sink, 2);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([requested, requested]);
    const again = await waitForDelivery(api.client.clientId, requested!, (r) => r.status === 'DELIVERED');
    expect(again.dispatches).toBe(first.dispatches + 1);
  });

  it('sends again when the queue refuses the batch', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    // The object's next sendBatch fails (and puts the real binding back).
    const stub: any = ledgerStub(api.client.clientId);
    await (runInDurableObject as any)(stub, (instance: any) => {
      const env = instance.env;
      instance.env = {
        ...env,
        WEBHOOKS: {
          sendBatch: async () => {
            instance.env = env;
            throw new Error('queue unavailable');
          },
        },
      };
    });
    const created = await createCashIn(api, { webhookUrl: sink.url });
    const [requested] = await eventIds(api.client.clientId, created.transactionId);
    const done = await waitForDelivery(api.client.clientId, requested!, (r) => r.status === 'DELIVERED');
    expect(done.dispatches).toBe(2);
    expect(done.attempts).toBe(1);
    expect((await received(sink)).map((r) => r.headers['webhook-id'])).toEqual([requested]);
  });

  it('leaves no event behind when many transactions emit at once', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const created = await Promise.all(
      Array.from({ length: 12 }, () => createCashIn(api, { webhookUrl: sink.url })),
    );
    await Promise.all(created.map((c) => payCashIn(api, c.internalCode)));
    const requests = await waitForRequests(sink, 24);
    expect(requests).toHaveLength(24);
    for (const c of created) {
      const ids = await eventIds(api.client.clientId, c.transactionId);
      const order = requests.filter((r) => ids.includes(r.headers['webhook-id']!)).map((r) => typeOf(r.body));
      expect(order).toEqual(['CASHIN_REQUESTED', 'CASHIN_PAID']);
    }
    await waitUntil(
      () => deliveryRows(api.client.clientId),
      (rows) => rows.every((r) => r.status === 'DELIVERED'),
    );
  });
});
