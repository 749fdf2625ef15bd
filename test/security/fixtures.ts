/**
 * A client with some history (money, Cash-Ins and Cash-Outs in every state the rejected requests
 * of these tests aim at, a settled Cash-Out batch), and everything that client owns read straight from storage, so a test
 * can prove a request changed nothing.
 */
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { createCashIn, getCashIn, payCashIn, waitFor } from '../support/cash-in';
import { createCashOut, deposit, magicKey, settled } from '../support/cash-out';
import { batchItems, batchSettled, createBatch } from '../support/cash-out-batch';
import { Integrator } from '../support/harness';
import { sqlRows } from '../support/ledger';
import { recurrenceBody } from '../support/recurrence';
import { OUTCOME_MS } from '../support/wait';

type Row = Record<string, any>;

export interface History {
  api: Integrator;
  awaiting: Row;
  paid: Row;
  /** Only when asked for: a Cash-In refunded by the client (it has a refund endToEndId). */
  refunded?: Row;
  completed: Row;
  cancelled: Row;
  /** A Cash-Out batch of two items, both settled: what GET /cash-out/batch/{batchId} reads. */
  batch: { batchId: string };
  /** An approved Pix Automático recurrence (GET /recurrences/{id} by either id). */
  recurrence: { recurrenceId: string; externalReference: string };
}

export async function clientWithHistory({ refunded = false } = {}): Promise<History> {
  const api = await Integrator.create();
  await deposit(api, 500);
  const awaiting = await getCashIn(api, (await createCashIn(api, { amount: 10 })).internalCode);
  const paid = await payCashIn(api, (await createCashIn(api, { amount: 20 })).internalCode);
  let refundedCashIn: Row | undefined;
  if (refunded) {
    const source = await payCashIn(api, (await createCashIn(api, { amount: 30 })).internalCode);
    const res = await api.signedPost(`/cash-in/${source.internalCode}/refund`, { reason: 'FRAUD' });
    expect(res.status).toBe(202);
    refundedCashIn = await waitFor(
      () => getCashIn(api, source.internalCode as string),
      (c) => c.status === 'REFUNDED',
    );
    expect(refundedCashIn.status).toBe('REFUNDED');
  }
  const completed = await settled(api, (await createCashOut(api, { amount: 5 })).transactionId);
  expect(completed.status).toBe('COMPLETED');
  const cancelled = await settled(
    api,
    (await createCashOut(api, { amount: 5, payee: { ...payee, destination: magicKey('PIX_KEY_NOT_FOUND') } }))
      .transactionId,
  );
  expect(cancelled.status).toBe('CANCELLED');
  const created = await api.post('/recurrences', recurrenceBody());
  expect(created.status).toBe(201);
  const { recurrenceId, externalReference } = (await created.json()) as History['recurrence'];
  expect((await api.post(`/sandbox/recurrences/${recurrenceId}/approve`, {})).status).toBe(200);
  const { batchId } = await createBatch(api, batchItems(2));
  // Settled, so the client goes quiet before the tests take its state.
  expect((await batchSettled(api, batchId)).byStatus.COMPLETED).toBe(2);
  return {
    api,
    awaiting,
    paid,
    completed,
    cancelled,
    batch: { batchId },
    recurrence: { recurrenceId, externalReference },
    ...(refundedCashIn && { refunded: refundedCashIn }),
  };
}

const payee = { name: 'Ana Beneficiária', document: '12345678909' };

/**
 * The ids a transaction can be looked up by (spec §4.5, §4.10), named by kind; on a refunded
 * Cash-In `endToEndId` is the refund's and `originalEndToEndId` the payment's.
 */
export function idsOf(resource: Row): Record<string, string> {
  const kinds = ['internalCode', 'transactionId', 'endToEndId', 'originalEndToEndId', 'externalReference'];
  const out: Record<string, string> = {};
  for (const kind of kinds) if (typeof resource[kind] === 'string') out[kind] = resource[kind] as string;
  return out;
}

/** Every table of the client's Durable Object, its D1 client row (secrets hashed) and its accounts. */
export async function clientState(clientId: string): Promise<Record<string, Row[]>> {
  const tables = await sqlRows<{ name: string; sql: string }>(
    clientId,
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND substr(name, 1, 4) <> '_cf_' ORDER BY name",
  );
  const state: Record<string, Row[]> = {};
  // A WITHOUT ROWID table (the archive index) has no rowid: its primary key orders it.
  for (const { name, sql } of tables)
    state[name] = await sqlRows(
      clientId,
      `SELECT * FROM "${name}" ORDER BY ${/WITHOUT ROWID/i.test(sql) ? '1' : 'rowid'}`,
    );
  state['d1.clients'] = (
    await env.DB.prepare('SELECT * FROM clients WHERE id = ?').bind(clientId).all()
  ).results;
  state['d1.accounts'] = (
    await env.DB.prepare('SELECT * FROM accounts WHERE client_id = ? ORDER BY number').bind(clientId).all()
  ).results;
  return state;
}

/**
 * The client's state once its background work (event publication, webhook dispatch, Cash-Out
 * steps) is done: two reads in a row agree and nothing waits in the outbox.
 */
export async function quietState(clientId: string): Promise<Record<string, Row[]>> {
  let previous = JSON.stringify(await clientState(clientId));
  for (const deadline = Date.now() + OUTCOME_MS; Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 200));
    const state = await clientState(clientId);
    const text = JSON.stringify(state);
    const pending = state.outbox?.some((row) => row.published_at === null);
    if (text === previous && !pending) return state;
    previous = text;
  }
  throw new Error(`client ${clientId} did not go quiet within ${OUTCOME_MS / 1000} s`);
}
