/**
 * A client's endpoint down for days (docs/storage-schema.md, Idempotency keys and delivery lists):
 * every event is tried on the whole schedule and GIVEN_UP at its end, in order per transaction;
 * GIVEN_UP deliveries then leave the object with their transaction, payload and all, and every
 * operator list answers the same bytes; an operator retry reads an archived one back and delivers
 * the first attempt's body, signed, under the same webhook-id. The schedule's hours are travelled by
 * making each retry due now (makeDueNow).
 */
import { runInDurableObject } from 'cloudflare:test';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { runArchiveTask } from '../../durable-objects/ledger/archive/archive';
import { MAX_ATTEMPTS } from '../../src/webhooks/retry-schedule';
import { createCashIn, payCashIn } from '../support/cash-in';
import { createCashOut, deposit, settled } from '../support/cash-out';
import { armCrash, crashedAt } from '../support/crash';
import { admin, Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { ledgerContextOf, ledgerStub } from '../support/ledger';
import { cashIns, deliveries } from '../support/ledger-reads';
import {
  deliveryLists,
  deliveryOf,
  envelopeOf,
  failUntil,
  newSink,
  outboxEvents,
  received,
  type Sink,
  setPlan,
  waitForDelivery,
} from '../support/webhooks';

/** Drives each event through its whole schedule to GIVEN_UP, the retries made due now. */
async function giveUp(clientId: string, eventIds: string[]) {
  await failUntil(clientId, eventIds, (row) => row.status === 'GIVEN_UP');
  for (const eventId of eventIds) expect((await deliveryOf(clientId, eventId)).attempts).toBe(MAX_ATTEMPTS);
}

/** Two paid Cash-Ins and a completed Cash-Out whose endpoint answers 503, each event given up. */
async function outage(api: Integrator, sink: Sink) {
  const { clientId } = api.client;
  await setPlan(sink, [503]);
  await deposit(api, 100);
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const cashIn = await createCashIn(api, { webhookUrl: sink.url });
    await payCashIn(api, cashIn.internalCode as string);
    ids.push(cashIn.transactionId);
  }
  const cashOut = await createCashOut(api, { amount: 1, webhookUrl: sink.url });
  expect((await settled(api, cashOut.transactionId)).status).toBe('COMPLETED');
  ids.push(cashOut.transactionId);
  // Events of one transaction in order: the second starts its schedule once the first is given up.
  const events = (await outboxEvents(clientId)).filter((e) => ids.includes(e.aggregateId));
  expect(events).toHaveLength(6);
  await giveUp(
    clientId,
    events.map((e) => e.eventId),
  );
  // The money is as the partner has it, before the archive moves anything (the books read hot rows).
  await assertBooks(api);
  return { ids, eventIds: events.map((e) => e.eventId) };
}

/** Every operator list an operator reads these by: all, by status, by transaction, page by page. */
function lists(api: Integrator, ids: string[]): Promise<Map<string, string>> {
  const base = `/admin/clients/${api.client.clientId}/webhook-deliveries`;
  const paths = [base, `${base}?status=GIVEN_UP`, `${base}?status=DELIVERED`, `${base}?status=FAILED`];
  for (const id of ids) paths.push(`${base}?aggregateId=${id}`, `${base}?aggregateId=${id}&status=GIVEN_UP`);
  return deliveryLists(api, paths, ['', '&status=GIVEN_UP']);
}

const archive = (api: Integrator) =>
  admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
    before: new Date(Date.now() + 1).toISOString(),
  });

describe('a webhook endpoint down for days', () => {
  it('gives every event up on schedule; GIVEN_UP ones leave the object and are listed and retried as before', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    const { ids, eventIds } = await outage(api, sink);
    const first = (await received(sink)).filter((r) => r.headers['webhook-id'] === eventIds[0])[0]!;
    const before = await lists(api, ids);
    const givenUp = JSON.parse(
      before.get(`/admin/clients/${clientId}/webhook-deliveries?status=GIVEN_UP`)!.slice(4),
    );
    expect(givenUp.items.map((i: { eventId: string }) => i.eventId)).toEqual([...eventIds].reverse());

    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 3 });
    // Nothing of them is left hot: rows and payloads went to R2.
    expect((await deliveries(clientId)).filter((d) => ids.includes(d.aggregateId))).toEqual([]);
    expect((await outboxEvents(clientId)).filter((e) => ids.includes(e.aggregateId))).toEqual([]);
    expect(await lists(api, ids)).toEqual(before);

    // The operator retries the first event: it answers as a hot retry does, then delivers the same body.
    await setPlan(sink, [200]);
    const retried = await admin(`/admin/clients/${clientId}/webhook-deliveries/${eventIds[0]}/retry`, 'POST');
    expect(retried.status).toBe(200);
    const item = givenUp.items.at(-1);
    const body = (await retried.json()) as Record<string, unknown>;
    expect(body).toEqual({ ...item, status: 'PENDING', attempts: 0, nextAttemptAt: expect.any(String) });
    await waitForDelivery(clientId, eventIds[0]!, (r) => r.status === 'DELIVERED');
    const last = (await received(sink)).at(-1)!;
    expect(last.headers['webhook-id']).toBe(eventIds[0]);
    expect(JSON.stringify(envelopeOf(last).data)).toBe(JSON.stringify(envelopeOf(first).data));
    expect(envelopeOf(last).eventType).toBe(envelopeOf(first).eventType);
    new Webhook(api.client.webhookSecret).verify(last.body, last.headers);
    // Listed once, DELIVERED, and no longer among the GIVEN_UP ones; a second retry is refused as for any DELIVERED.
    const base = `/admin/clients/${clientId}/webhook-deliveries`;
    const mine = (await (await admin(`${base}?aggregateId=${ids[0]}`)).json()) as {
      items: { eventId: string; status: string }[];
    };
    expect(mine.items.map((i) => [i.eventId, i.status])).toEqual([
      [eventIds[1], 'GIVEN_UP'],
      [eventIds[0], 'DELIVERED'],
    ]);
    const still = (await (await admin(`${base}?status=GIVEN_UP`)).json()) as { items: { eventId: string }[] };
    expect(still.items.map((i) => i.eventId)).toEqual([...eventIds].slice(1).reverse());
    expect((await admin(`${base}/${eventIds[0]}/retry`, 'POST')).status).toBe(422);
    expect((await admin(`${base}/evt_999999_AAAAAAAAAAAAAA/retry`, 'POST')).status).toBe(404);
  }, 180_000);

  it('a crash between writing the delivery segment and trimming the object loses and doubles nothing', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    const { ids, eventIds } = await outage(api, sink);
    const before = await lists(api, ids);
    // The transactions first, then their deliveries: the crash is on the delivery segment.
    await armCrash(api, 'archive.deliveries-written');
    const crashed = await archive(api).catch(() => undefined);
    expect(crashed?.status ?? 500).toBe(500);
    expect(await crashedAt(api, 'archive.deliveries-written')).toBeDefined();
    // Reserved and written, not trimmed: every delivery is hot and listed once.
    expect((await deliveries(clientId)).filter((d) => ids.includes(d.aggregateId))).toHaveLength(6);
    expect(await lists(api, ids)).toEqual(before);
    await archive(api);
    expect((await deliveries(clientId)).filter((d) => ids.includes(d.aggregateId))).toEqual([]);
    expect(await lists(api, ids)).toEqual(before);
    // Read back once from the one segment that holds it.
    await setPlan(sink, [200]);
    const base = `/admin/clients/${clientId}/webhook-deliveries`;
    expect((await admin(`${base}/${eventIds[5]}/retry`, 'POST')).status).toBe(200);
    await waitForDelivery(clientId, eventIds[5]!, (r) => r.status === 'DELIVERED');
    const ofIt = (await received(sink)).filter((r) => r.headers['webhook-id'] === eventIds[5]);
    expect(ofIt.length).toBeGreaterThanOrEqual(MAX_ATTEMPTS + 1);
    expect(new Set(ofIt.map((r) => JSON.stringify(envelopeOf(r).data)))).toHaveProperty('size', 1);
  }, 180_000);

  it('over the hot budget a GIVEN_UP delivery leaves though its transaction stays hot, and comes back for a retry', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    await setPlan(sink, [503]);
    // Waiting for payment: open work, never archived.
    const open = await createCashIn(api, { webhookUrl: sink.url });
    const [requested] = (await outboxEvents(clientId, open.transactionId)).map((e) => e.eventId);
    await giveUp(clientId, [requested!]);
    const first = (await received(sink))[0]!;
    const before = await lists(api, [open.transactionId]);
    // The archive's task as the alarm runs it, over a budget the object is always past.
    await runInDurableObject(ledgerStub(clientId), async (instance) => {
      const ledger = ledgerContextOf(instance);
      const env = { ...ledger.env, ARCHIVE_HOT_BUDGET_BYTES: '65536' } as Env;
      for (let i = 0; i < 5; i++) await runArchiveTask({ ...ledger, env });
    });
    expect((await cashIns(clientId)).map((c) => [c.transactionId, c.status])).toEqual([
      [open.transactionId, 'AWAITING_PAYMENT'],
    ]);
    expect(await deliveries(clientId)).toEqual([]);
    expect(await lists(api, [open.transactionId])).toEqual(before);
    await setPlan(sink, [200]);
    const base = `/admin/clients/${clientId}/webhook-deliveries`;
    expect((await admin(`${base}/${requested}/retry`, 'POST')).status).toBe(200);
    await waitForDelivery(clientId, requested!, (r) => r.status === 'DELIVERED');
    const last = (await received(sink)).at(-1)!;
    expect([last.headers['webhook-id'], last.body.includes('"status":"AWAITING_PAYMENT"')]).toEqual([
      requested,
      true,
    ]);
    expect(JSON.stringify(envelopeOf(last).data)).toBe(JSON.stringify(envelopeOf(first).data));
  }, 120_000);
});
