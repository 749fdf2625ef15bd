/**
 * What leaves the ClientLedger through queues survives crashes and redelivery (issue 9, faults):
 * health observations re-sent after a crash are counted once by the analyzer; a webhook dispatch
 * whose message never reached the queue is sent again when its lease ends; a queue message
 * delivered twice (to either consumer) has one effect. Receivers that fail and recover are covered
 * by test/webhooks/delivery-retries.test.ts, a redelivered message of a delivered event by
 * test/webhooks/delivery-consumer.test.ts.
 */
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runInDurableObject,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { AnalyzerStore } from '../../durable-objects/health/store';
import worker from '../../src/index';
import type { DeliveryMessage } from '../../src/webhooks/types';
import { createCashIn, waitFor } from '../support/cash-in';
import { armCrash, crashedAt } from '../support/crash';
import { Integrator } from '../support/harness';
import { outboxRows } from '../support/ledger-reads';
import { setDelivery } from '../support/ledger-writes';
import {
  deliveryOf,
  makeDueNow,
  newSink,
  outboxEvents,
  received,
  setPlan,
  waitForDelivery,
  waitForRequests,
} from '../support/webhooks';

const ALFA = '31880826';

/** Cash-In CREATED observations the platform analyzer counted for a client (open window). */
async function countedCreations(clientId: string): Promise<number> {
  const snapshot = await runInDurableObject(
    env.HEALTH_ANALYZER.getByName('platform') as unknown as DurableObjectStub,
    (_i, state) => new AnalyzerStore(state.storage.sql).loadState().get('snapshot'),
  );
  if (!snapshot) return 0;
  type Cell = [string, { acc: number[][] }];
  const { partners } = JSON.parse(snapshot) as { partners: { clients: Cell[] }[] };
  return partners
    .flatMap((p) => p.clients)
    .filter(([id]) => id === clientId)
    .reduce((n, [, cell]) => n + cell.acc[0]![0]!, 0);
}

async function consume(queue: string, bodies: unknown[]) {
  const batch = createMessageBatch(
    queue,
    bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: Date.now(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  const handler: ExportedHandlerQueueHandler<Env> = worker.queue;
  await handler(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

describe('health observations', () => {
  it('re-sent after a crash between the queue and the outbox mark: counted once', async () => {
    const api = await Integrator.create();
    await armCrash(api, 'outbox.health-sent');
    await createCashIn(api);
    await waitFor(
      () => crashedAt(api, 'outbox.health-sent'),
      (at) => at !== undefined,
    );
    const unpublished = () =>
      outboxRows(api.client.clientId, 'health').then((rows) =>
        rows.filter((r) => r.publishedAt === null).map(({ seq }) => ({ seq })),
      );
    expect(await waitFor(unpublished, (rows) => rows.length === 0)).toEqual([]);
    // Both sends reached the analyzer; the second was recognised by its ids.
    expect(
      await waitFor(
        () => countedCreations(api.client.clientId),
        (n) => n >= 1,
      ),
    ).toBe(1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await countedCreations(api.client.clientId)).toBe(1);
  });

  it('a message the queue delivers twice to the consumer is counted once', async () => {
    const clientId = `redelivery-${crypto.randomUUID()}`;
    const body = {
      id: `evt_${crypto.randomUUID().replace(/-/g, '')}`,
      at: new Date().toISOString(),
      clientId,
      operation: 'CASH_IN',
      partnerIspb: ALFA,
      event: 'CREATED',
    };
    const first = await consume('connectpsp-health-signals', [body]);
    const again = await consume('connectpsp-health-signals', [body, body]);
    expect(first.retryBatch.retry).toBe(false);
    expect(again.retryBatch.retry).toBe(false);
    expect(await countedCreations(clientId)).toBe(1);
  });
});

describe('webhook dispatch', () => {
  it('leased but never queued (crash): sent again when the lease ends, delivered once', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    await armCrash(api, 'webhooks.leased');
    const created = await createCashIn(api, { webhookUrl: sink.url });
    const [event] = await outboxEvents(api.client.clientId, created.transactionId);
    await waitFor(
      () => crashedAt(api, 'webhooks.leased'),
      (at) => at !== undefined,
    );
    const leased = await deliveryOf(api.client.clientId, event!.eventId);
    expect(leased).toMatchObject({ status: 'IN_FLIGHT', dispatches: 1, attempts: 0 });
    expect(await received(sink)).toEqual([]);
    // Two minutes later the lease ends (travelled here) and the dispatcher sends it again.
    await makeDueNow(api.client.clientId, event!.eventId);
    const done = await waitForDelivery(api.client.clientId, event!.eventId, (r) => r.status === 'DELIVERED');
    expect(done).toMatchObject({ dispatches: 2, attempts: 1 });
    const requests = await waitForRequests(sink, 1);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([event!.eventId]);
  });

  it('one message consumed twice at once against a failing receiver spends one attempt', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    // The receiver fails: the first attempt, and both copies of the message below.
    await setPlan(sink, [500, 500, 500]);
    const created = await createCashIn(api, { webhookUrl: sink.url });
    const [event] = await outboxEvents(api.client.clientId, created.transactionId);
    const first = await waitForDelivery(api.client.clientId, event!.eventId, (r) => r.status === 'FAILED');
    // A later dispatch of it is in flight (its lease far away, so the dispatcher leaves it alone).
    const dispatch = first.dispatches + 1;
    await setDelivery(api.client.clientId, event!.eventId, {
      status: 'IN_FLIGHT',
      dispatches: dispatch,
      attempts: 0,
      dueAt: Date.now() + 3_600_000,
    });
    const message: DeliveryMessage = { clientId: api.client.clientId, eventId: event!.eventId, dispatch };
    const [a, b] = await Promise.all([
      consume('connectpsp-webhooks', [message]),
      consume('connectpsp-webhooks', [message]),
    ]);
    for (const r of [a, b]) expect(r.retryMessages).toEqual([]);
    const row = await deliveryOf(api.client.clientId, event!.eventId);
    // The receiver may see the same webhook-id twice (at least once); the ledger counts one attempt
    // and schedules one retry.
    expect(row).toMatchObject({ status: 'FAILED', attempts: 1, last_response_status: 500 });
    expect(row.due_at! - row.last_attempt_at!).toBe(5_000);
    const ids = new Set((await received(sink)).map((r) => r.headers['webhook-id']));
    expect(ids).toEqual(new Set([event!.eventId]));
  });
});
