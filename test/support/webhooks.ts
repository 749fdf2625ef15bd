/**
 * Webhook test helpers: sinks on the real HTTP receiver of test/setup/webhook-receiver.ts, the
 * delivery rows of a client's ledger, and a way to make a scheduled retry due now.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { expect, inject } from 'vitest';
import type { DeliveryRow as StoredDelivery } from '../../durable-objects/ledger/webhooks/outbox-store';
import { allDeliveries, allOutbox } from '../../durable-objects/ledger/webhooks/outbox-store';
import type { ReceivedRequest } from '../setup/webhook-receiver';
import { createCashIn } from './cash-in';
import { admin, type Integrator } from './harness';
import { ledgerStub } from './ledger';
import { deliveries, inLedger } from './ledger-reads';
import { addTask, setDelivery } from './ledger-writes';
import { OUTCOME_MS, waitUntil } from './wait';

export type { ReceivedRequest };

export interface Sink {
  id: string;
  url: string;
}

export function newSink(): Sink {
  const id = crypto.randomUUID();
  return { id, url: `${inject('webhookReceiverUrl')}/hooks/${id}` };
}

/** What the sink answers to its n-th request: a status code or `hang` (never answers). */
export async function setPlan(sink: Sink, plan: (number | 'hang')[]): Promise<void> {
  const res = await fetch(`${inject('webhookReceiverUrl')}/plans/${sink.id}`, {
    method: 'PUT',
    body: JSON.stringify(plan),
  });
  expect(res.status).toBe(204);
}

export async function received(sink: Sink): Promise<ReceivedRequest[]> {
  return (await fetch(`${inject('webhookReceiverUrl')}/requests/${sink.id}`)).json();
}

export { waitUntil };

export function waitForRequests(sink: Sink, count: number, timeoutMs = OUTCOME_MS) {
  return waitUntil(
    () => received(sink),
    (list) => list.length >= count,
    timeoutMs,
    `${count} requests at webhook sink ${sink.id}`,
  );
}

/**
 * The first `count` webhooks a sink received, as an integrator reads them (type and data), in the
 * order they arrived: one transaction's events arrive in order.
 */
export async function sinkEvents(sink: Sink, count: number, timeoutMs = OUTCOME_MS) {
  const requests = await waitForRequests(sink, count, timeoutMs);
  return requests.slice(0, count).map((r) => {
    const envelope = envelopeOf(r);
    return { type: envelope.eventType, data: envelope.data };
  });
}

/** A received request's envelope: its event type, the attempt's time and the event's data. */
export const envelopeOf = (r: ReceivedRequest) =>
  JSON.parse(r.body) as { eventType: string; eventAt: string; data: any };

export interface DeliveryRow {
  event_id: string;
  seq: number;
  aggregate_id: string;
  event_type: string;
  url: string | null;
  status: string;
  attempts: number;
  dispatches: number;
  due_at: number | null;
  last_response_status: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
}

/** The delivery store's row, under the column names these tests have always read it by. */
function asDeliveryRow(d: StoredDelivery): DeliveryRow & { created_at: number; updated_at: number } {
  return {
    event_id: d.eventId,
    seq: d.seq,
    aggregate_id: d.aggregateId,
    event_type: d.eventType,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    dispatches: d.dispatches,
    due_at: d.dueAt,
    last_response_status: d.lastResponseStatus,
    last_error: d.lastError,
    last_attempt_at: d.lastAttemptAt,
    delivered_at: d.deliveredAt,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

export async function deliveryRows(clientId: string, aggregateId?: string): Promise<DeliveryRow[]> {
  return (await deliveries(clientId))
    .filter((d) => aggregateId === undefined || d.aggregateId === aggregateId)
    .map(asDeliveryRow);
}

const deliveriesOfEvent = async (clientId: string, eventId: string) =>
  (await deliveries(clientId)).filter((d) => d.eventId === eventId).map(asDeliveryRow);

export async function deliveryOf(clientId: string, eventId: string): Promise<DeliveryRow> {
  const rows = await deliveriesOfEvent(clientId, eventId);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

export async function waitForDelivery(
  clientId: string,
  eventId: string,
  done: (row: DeliveryRow) => boolean,
  timeoutMs = OUTCOME_MS,
): Promise<DeliveryRow> {
  const probe = async () => (await deliveriesOfEvent(clientId, eventId))[0];
  const what = `the delivery of event ${eventId} to satisfy ${done.toString()}`;
  return (await waitUntil(probe, (row) => row !== undefined && done(row), timeoutMs, what)) as DeliveryRow;
}

/** Travels to the scheduled retry of `eventId`: it becomes due now and the alarm runs. */
export async function makeDueNow(clientId: string, eventId: string): Promise<void> {
  const stub = ledgerStub(clientId);
  const now = Date.now();
  await setDelivery(clientId, eventId, { dueAt: now });
  await addTask(clientId, 'dispatch-webhooks', 'all', now);
  await runInDurableObject(stub, (_instance, state) => state.storage.setAlarm(now));
  await runDurableObjectAlarm(stub);
}

/**
 * The webhook events of one transaction (or of all, without `aggregateId`), in order: those still in
 * the outbox with their payload (`data`), and those adopted by a delivery from its row, with the
 * payload it holds until it ends DELIVERED or UNDELIVERABLE, then without it.
 */
export async function outboxEvents(clientId: string, aggregateId?: string) {
  const rows = await inLedger(clientId, (l) => {
    const events = allOutbox(l.db).filter((e) => e.channel === 'webhook');
    const inOutbox = new Set(allOutbox(l.db).map((e) => e.seq));
    const ended = allDeliveries(l.db).filter((d) => !inOutbox.has(d.seq));
    return [
      ...events.map((e) => ({
        seq: e.seq,
        eventId: e.eventId,
        aggregateId: e.aggregateId,
        eventType: e.eventType,
        data: e.data,
      })),
      ...ended.map((d) => ({
        seq: d.seq,
        eventId: d.eventId,
        aggregateId: d.aggregateId,
        eventType: d.eventType,
        data: d.payload ?? undefined,
      })),
    ];
  });
  return rows
    .filter((r) => aggregateId === undefined || r.aggregateId === aggregateId)
    .sort((a, b) => a.seq - b.seq)
    .map((r) => ({
      eventId: r.eventId,
      aggregateId: r.aggregateId,
      eventType: r.eventType,
      data: r.data as any,
    }));
}

/**
 * A Cash-In whose first event (CASHIN_REQUESTED) the client's sink answered with `plan` until its
 * delivery was FAILED: the sink, the Cash-In and that event's id.
 */
export async function failedFirstEvent(api: Integrator, plan: number[] = [500]) {
  const sink = newSink();
  await setPlan(sink, plan);
  const cashIn = await createCashIn(api, { webhookUrl: sink.url });
  const [requested] = await outboxEvents(api.client.clientId, cashIn.transactionId);
  const eventId = requested!.eventId;
  await waitForDelivery(api.client.clientId, eventId, (r) => r.status === 'FAILED');
  return { sink, cashIn, eventId };
}

/**
 * Drives each event through failed attempts, each next one made due now, until `stop` holds for its
 * row (FAILED or GIVEN_UP): through the schedule's hours without waiting for them.
 */
export async function failUntil(
  clientId: string,
  eventIds: readonly string[],
  stop: (row: DeliveryRow) => boolean,
): Promise<void> {
  // A 5 s retry may fire on its own while another event is being driven: each step waits for the
  // attempt after the one it saw.
  for (const eventId of eventIds)
    for (;;) {
      const row = await waitForDelivery(clientId, eventId, (r) => ['FAILED', 'GIVEN_UP'].includes(r.status));
      if (stop(row)) break;
      await makeDueNow(clientId, eventId);
      await waitForDelivery(clientId, eventId, (r) => r.attempts > row.attempts && r.status !== 'IN_FLIGHT');
    }
}

/**
 * The operator's delivery lists at `paths`, and page by page (limit 2, cursors followed) for each
 * of `paged` (a query suffix, '' for none): each answer's status and bytes by its path.
 */
export async function deliveryLists(
  api: Integrator,
  paths: readonly string[],
  paged: readonly string[],
): Promise<Map<string, string>> {
  const base = `/admin/clients/${api.client.clientId}/webhook-deliveries`;
  const out = new Map<string, string>();
  for (const path of paths) {
    const res = await admin(path);
    out.set(path, `${res.status} ${await res.text()}`);
  }
  for (const filter of paged)
    for (let cursor: string | undefined, i = 0; i === 0 || cursor; i++) {
      const path = `${base}?limit=2${filter}${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await admin(path);
      out.set(path, `${res.status} ${await res.clone().text()}`);
      cursor = ((await res.json()) as { nextCursor?: string }).nextCursor;
    }
  return out;
}
