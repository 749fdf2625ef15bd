/**
 * The queue consumer called directly with crafted batches: redeliveries and stale dispatches are
 * acknowledged without a POST, and the URL guard runs again at delivery.
 */
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import type { DeliveryMessage } from '../../src/webhooks/types';
import { createCashIn } from '../support/cash-in';
import { Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';
import { addOutboxEvent, addTask, setDelivery } from '../support/ledger-writes';
import {
  deliveryOf,
  newSink,
  outboxEvents,
  received,
  setPlan,
  waitForDelivery,
  waitForRequests,
} from '../support/webhooks';

async function consume(body: unknown, environment: Env = env) {
  const id = crypto.randomUUID();
  const batch = createMessageBatch('connectpsp-webhooks', [{ id, timestamp: Date.now(), attempts: 1, body }]);
  const ctx = createExecutionContext();
  const queue: ExportedHandlerQueueHandler<Env> = worker.queue;
  await queue(batch, environment, ctx);
  const result = await getQueueResult(batch, ctx);
  return { id, result };
}

/** An event sent once: DELIVERED, or FAILED (its payload kept for the retry) when the receiver fails. */
async function deliveredEvent(outcome: 'DELIVERED' | 'FAILED' = 'DELIVERED') {
  const api = await Integrator.create();
  const sink = newSink();
  if (outcome === 'FAILED') await setPlan(sink, [500]);
  const created = await createCashIn(api, { webhookUrl: sink.url });
  const [event] = await outboxEvents(api.client.clientId, created.transactionId);
  const row = await waitForDelivery(api.client.clientId, event!.eventId, (r) => r.status === outcome);
  await waitForRequests(sink, 1);
  return { api, sink, eventId: event!.eventId, row };
}

describe('webhook queue consumer', () => {
  it('acknowledges a redelivered message of a DELIVERED event without posting again', async () => {
    const { api, sink, eventId, row } = await deliveredEvent();
    const message: DeliveryMessage = { clientId: api.client.clientId, eventId, dispatch: row.dispatches };
    const { id, result } = await consume(message);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    expect(await received(sink)).toHaveLength(1);
    expect(await deliveryOf(api.client.clientId, eventId)).toEqual(row);
  });

  it('skips a message of a superseded dispatch', async () => {
    const { api, sink, eventId, row } = await deliveredEvent();
    // A newer dispatch is in flight (lease far away, so the real dispatcher leaves it alone).
    await setDelivery(api.client.clientId, eventId, {
      status: 'IN_FLIGHT',
      dispatches: row.dispatches + 1,
      dueAt: Date.now() + 3_600_000,
    });
    const { id, result } = await consume({
      clientId: api.client.clientId,
      eventId,
      dispatch: row.dispatches,
    });
    expect(result.explicitAcks).toEqual([id]);
    expect(await received(sink)).toHaveLength(1);
  });

  it('drops a malformed message instead of retrying it forever', async () => {
    const { id, result } = await consume({ nope: true });
    expect(result.explicitAcks).toEqual([id]);
  });

  it('re-checks the URL at delivery: a production guard refusal is UNDELIVERABLE, not retried, nothing sent', async () => {
    const { api, sink, eventId, row } = await deliveredEvent('FAILED');
    const dispatch = row.dispatches + 1;
    await setDelivery(api.client.clientId, eventId, {
      status: 'IN_FLIGHT',
      dispatches: dispatch,
      dueAt: Date.now() + 3_600_000,
    });
    const production = { ...env, ENVIRONMENT: 'production', PIX_LOCATION_HOST: 'pix.example.com.br' } as Env;
    const { id, result } = await consume({ clientId: api.client.clientId, eventId, dispatch }, production);
    expect(result.explicitAcks).toEqual([id]);
    const refused = await deliveryOf(api.client.clientId, eventId);
    expect(refused.status).toBe('UNDELIVERABLE');
    expect(refused.last_error).toBe('URL refused: must use https');
    expect(refused.due_at).toBeNull();
    expect(refused.attempts).toBe(row.attempts);
    expect(await received(sink)).toHaveLength(1);
  });

  it('marks an event whose stored URL fails the guard UNDELIVERABLE through the normal pipeline', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api);
    // A target no route would accept (stored by an older version, say): never POSTed.
    await addOutboxEvent(api.client.clientId, {
      eventId: 'evt_bad_url',
      aggregateId: created.transactionId,
      channel: 'webhook',
      eventType: 'CASHIN_PAID',
      data: {},
      webhookUrl: 'file:///etc/passwd',
      occurredAt: Date.now(),
    });
    await addTask(api.client.clientId, 'dispatch-webhooks', 'all', Date.now());
    await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) =>
      state.storage.setAlarm(Date.now()),
    );
    await runDurableObjectAlarm(ledgerStub(api.client.clientId));
    const row = await waitForDelivery(
      api.client.clientId,
      'evt_bad_url',
      (r) => r.status === 'UNDELIVERABLE',
    );
    expect(row.last_error).toBe('URL refused: must be an http or https URL');
    expect(row.attempts).toBe(0);
  });
});
