/**
 * Webhook test helpers: sinks on the real HTTP receiver of test/setup/webhook-receiver.ts, the
 * delivery rows of a client's ledger, and a way to make a scheduled retry due now.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { expect, inject } from 'vitest';
import type { ReceivedRequest } from '../setup/webhook-receiver';
import { ledgerStub, sqlRows } from './ledger';

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

export async function waitUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function waitForRequests(sink: Sink, count: number, timeoutMs = 30_000) {
  return waitUntil(
    () => received(sink),
    (list) => list.length >= count,
    timeoutMs,
  );
}

/**
 * The first `count` webhooks a sink received, as an integrator reads them (type and data), in the
 * order they arrived: one transaction's events arrive in order.
 */
export async function sinkEvents(sink: Sink, count: number, timeoutMs = 30_000) {
  const requests = await waitForRequests(sink, count, timeoutMs);
  return requests.slice(0, count).map((r) => {
    const envelope = JSON.parse(r.body) as { eventType: string; data: any };
    return { type: envelope.eventType, data: envelope.data };
  });
}

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

export function deliveryRows(clientId: string, aggregateId?: string): Promise<DeliveryRow[]> {
  return aggregateId === undefined
    ? sqlRows<DeliveryRow>(clientId, 'SELECT * FROM webhook_deliveries ORDER BY seq')
    : sqlRows<DeliveryRow>(
        clientId,
        'SELECT * FROM webhook_deliveries WHERE aggregate_id = ? ORDER BY seq',
        aggregateId,
      );
}

export async function deliveryOf(clientId: string, eventId: string): Promise<DeliveryRow> {
  const rows = await sqlRows<DeliveryRow>(
    clientId,
    'SELECT * FROM webhook_deliveries WHERE event_id = ?',
    eventId,
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

export async function waitForDelivery(
  clientId: string,
  eventId: string,
  done: (row: DeliveryRow) => boolean,
  timeoutMs = 30_000,
): Promise<DeliveryRow> {
  const probe = async () =>
    (await sqlRows<DeliveryRow>(clientId, 'SELECT * FROM webhook_deliveries WHERE event_id = ?', eventId))[0];
  return (await waitUntil(probe, (row) => row !== undefined && done(row), timeoutMs)) as DeliveryRow;
}

/** Travels to the scheduled retry of `eventId`: it becomes due now and the alarm runs. */
export async function makeDueNow(clientId: string, eventId: string): Promise<void> {
  const stub = ledgerStub(clientId);
  await runInDurableObject(stub, async (_instance, state) => {
    const now = Date.now();
    state.storage.sql.exec('UPDATE webhook_deliveries SET due_at = ? WHERE event_id = ?', now, eventId);
    state.storage.sql.exec(
      `INSERT INTO tasks (id, kind, ref, due_at, attempts) VALUES ('dispatch-webhooks:all', 'dispatch-webhooks', 'all', ?, 0)
       ON CONFLICT (id) DO UPDATE SET due_at = excluded.due_at`,
      now,
    );
    await state.storage.setAlarm(now);
  });
  await runDurableObjectAlarm(stub);
}

/**
 * The webhook events of one transaction (or of all, without `aggregateId`), in order: those still in
 * the outbox with their payload (`data`), and those whose payload left when their delivery ended
 * (DELIVERED, UNDELIVERABLE) from their delivery row, without it.
 */
export async function outboxEvents(clientId: string, aggregateId?: string) {
  const mine = aggregateId === undefined ? '' : 'AND aggregate_id = ?1';
  const rows = await sqlRows<{
    event_id: string;
    aggregate_id: string;
    event_type: string;
    data: string | null;
  }>(
    clientId,
    `SELECT seq, event_id, aggregate_id, event_type, data FROM outbox WHERE channel = 'webhook' ${mine}
     UNION ALL
     SELECT seq, event_id, aggregate_id, event_type, NULL FROM webhook_deliveries d
     WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.seq = d.seq) ${mine}
     ORDER BY seq`,
    ...(aggregateId === undefined ? [] : [aggregateId]),
  );
  return rows.map((r) => ({
    eventId: r.event_id,
    aggregateId: r.aggregate_id,
    eventType: r.event_type,
    data: r.data === null ? undefined : JSON.parse(r.data),
  }));
}
