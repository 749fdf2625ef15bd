/**
 * End to end through real sockets: the Worker's queue consumer POSTs to the Node receiver of
 * test/setup/webhook-receiver.ts, and the integrator side verifies with the standardwebhooks
 * library, as a client would.
 */

import { runInDurableObject } from 'cloudflare:test';
import { Webhook } from 'standardwebhooks';
import { beforeEach, describe, expect, it } from 'vitest';
import { emitWebhook } from '../../durable-objects/ledger/webhooks/events';
import { createCashIn, getCashIn, payCashIn } from '../support/cash-in';
import { type Integrator as Api, admin, Integrator } from '../support/harness';
import { ledgerContextOf, ledgerStub } from '../support/ledger';
import { OUTCOME_MS } from '../support/wait';
import {
  deliveryRows,
  newSink,
  outboxEvents,
  type ReceivedRequest,
  type Sink,
  waitForRequests,
  waitUntil,
} from '../support/webhooks';

const BRT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-03:00$/;
/** Clocks compared here (workerd's, the sink's in Node) read whole milliseconds, at I/O. */
const CLOCKS_MS = 1_000;
/** When the running test began: every event it sends happens after. */
let testStarted = 0;
beforeEach(() => {
  testStarted = Date.now();
});

/** Verifies one request as an integrator would and returns its envelope. */
function verify(api: Api, request: ReceivedRequest) {
  const envelope = new Webhook(api.client.webhookSecret).verify(request.body, request.headers) as {
    eventType: string;
    eventAt: string;
    data: Record<string, unknown>;
  };
  expect(request.method).toBe('POST');
  expect(request.headers['content-type']).toBe('application/json');
  expect(Object.keys(envelope)).toEqual(['eventType', 'eventAt', 'data']);
  expect(envelope.eventAt).toMatch(BRT);
  // eventAt is the time of sending, within a second of the signed timestamp.
  const sentAt = Date.parse(envelope.eventAt);
  expect(Math.abs(sentAt / 1000 - Number(request.headers['webhook-timestamp']))).toBeLessThanOrEqual(1);
  // Between the test's start and the sink's receipt, whatever a busy machine made of the time between.
  expect(sentAt).toBeGreaterThanOrEqual(testStarted - CLOCKS_MS);
  expect(sentAt).toBeLessThanOrEqual(request.receivedAt + CLOCKS_MS);
  return envelope;
}

async function expectDelivered(api: Api, sink: Sink, transactionId: string, snapshots: [string, unknown][]) {
  const requests = await waitForRequests(sink, snapshots.length);
  expect(requests).toHaveLength(snapshots.length);
  const events = await outboxEvents(api.client.clientId, transactionId);
  const envelopes = requests.map((r) => verify(api, r));
  expect(envelopes.map((e) => e.eventType)).toEqual(snapshots.map(([type]) => type));
  expect(envelopes.map((e) => e.data)).toEqual(snapshots.map(([, data]) => data));
  expect(requests.map((r) => r.headers['webhook-id'])).toEqual(events.map((e) => e.eventId));
  const rows = await deliveryRows(api.client.clientId, transactionId);
  expect(rows.map((r) => [r.status, r.attempts, r.last_response_status])).toEqual(
    snapshots.map(() => ['DELIVERED', 1, 200]),
  );
}

describe('webhook delivery, end to end over HTTP', () => {
  it('POSTs CASHIN_REQUESTED, CASHIN_PAID and CASHIN_REFUNDED in order, signed, data as GET then', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const created = await createCashIn(api, { webhookUrl: sink.url });
    const atRequest = await getCashIn(api, created.transactionId);
    const paid = await payCashIn(api, created.internalCode);
    expect(await getCashIn(api, created.transactionId)).toEqual(paid);
    const res = await api.post(`/sandbox/cash-in/${created.internalCode}/return`, { reason: 'FRAUD' });
    expect(res.status).toBe(200);
    const refunded = await getCashIn(api, created.transactionId);
    expect(refunded.status).toBe('REFUNDED');
    expect(atRequest.status).toBe('AWAITING_PAYMENT');
    await expectDelivered(api, sink, created.transactionId, [
      ['CASHIN_REQUESTED', atRequest],
      ['CASHIN_PAID', paid],
      ['CASHIN_REFUNDED', refunded],
    ]);
  });

  it('POSTs CASHIN_EXPIRED and CASHIN_CANCELLED with data as GET then', async () => {
    const api = await Integrator.create();
    const expiring = newSink();
    const cancelling = newSink();
    const a = await createCashIn(api, { webhookUrl: expiring.url });
    const aRequested = await getCashIn(api, a.transactionId);
    expect((await api.post(`/sandbox/cash-in/${a.internalCode}/expire`, {})).status).toBe(200);
    const aExpired = await getCashIn(api, a.transactionId);
    const b = await createCashIn(api, { webhookUrl: cancelling.url });
    const bRequested = await getCashIn(api, b.transactionId);
    expect((await api.post(`/cash-in/${b.internalCode}/cancel`, {})).status).toBe(200);
    const bCancelled = await getCashIn(api, b.transactionId);
    expect(aExpired.status).toBe('EXPIRED');
    expect(bCancelled.status).toBe('CANCELLED');
    await expectDelivered(api, expiring, a.transactionId, [
      ['CASHIN_REQUESTED', aRequested],
      ['CASHIN_EXPIRED', aExpired],
    ]);
    await expectDelivered(api, cancelling, b.transactionId, [
      ['CASHIN_REQUESTED', bRequested],
      ['CASHIN_CANCELLED', bCancelled],
    ]);
  });

  it('keeps events without a webhookUrl as UNDELIVERABLE, sending nothing', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api);
    await payCashIn(api, created.internalCode);
    const rows = await waitForRows(api.client.clientId, created.transactionId, 2);
    expect(rows.map((r) => [r.event_type, r.status, r.attempts, r.url])).toEqual([
      ['CASHIN_REQUESTED', 'UNDELIVERABLE', 0, null],
      ['CASHIN_PAID', 'UNDELIVERABLE', 0, null],
    ]);
    // The operator sees why; the rows do not each store the sentence.
    const res = await admin(
      `/admin/clients/${api.client.clientId}/webhook-deliveries?aggregateId=${created.transactionId}`,
    );
    const { items } = (await res.json()) as { items: { status: string; lastError?: string }[] };
    expect(items.map((d) => [d.status, d.lastError])).toEqual([
      ['UNDELIVERABLE', 'no webhook URL was given for this transaction'],
      ['UNDELIVERABLE', 'no webhook URL was given for this transaction'],
    ]);
  });
});

describe('the pipeline is generic over events and targets', () => {
  it('delivers any event type to the URL the event names, PIX health events with a UTC eventAt', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const data = { id: 'inc_1', status: 'ACTIVE', detectedAt: '2026-01-01T00:00:00.000Z' };
    // What the health engine will do with the client's healthWebhookUrl.
    await runInDurableObject(ledgerStub(api.client.clientId), async (instance: any, state) => {
      state.storage.transactionSync(() =>
        emitWebhook(ledgerContextOf(instance), {
          aggregateId: 'inc_1',
          eventType: 'PIX_INCIDENT_DETECTED',
          data,
          webhookUrl: sink.url,
          at: Date.now(),
        }),
      );
      await state.storage.setAlarm(Date.now());
    });
    const [request] = await waitForRequests(sink, 1);
    const envelope = new Webhook(api.client.webhookSecret).verify(request!.body, request!.headers) as Record<
      string,
      unknown
    >;
    expect(envelope).toEqual({
      eventType: 'PIX_INCIDENT_DETECTED',
      eventAt: expect.stringMatching(/Z$/),
      data,
    });
  });
});

function waitForRows(clientId: string, aggregateId: string, count: number) {
  return waitUntil(
    () => deliveryRows(clientId, aggregateId),
    (rows) => rows.length >= count,
    OUTCOME_MS,
    `${count} delivery rows of ${aggregateId}`,
  );
}
