/**
 * Parking (docs/storage-schema.md, Idempotency keys and delivery lists): over its size budget, an
 * object whose client's endpoint is down moves the open deliveries of transactions whose next attempt
 * is 10 min or more away to R2, and reads them back a minute before they are due. The operator
 * sees the same lists byte for byte, events of one transaction still go out in order (a new event of
 * a parked one waits), a retry reads its delivery back, and a crash or a change during the put loses
 * and doubles nothing. The retries' hours are travelled with makeDueNow, as in delivery-outage.
 */
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { LedgerContext } from '../../durable-objects/ledger/ledger-context';
import { runTask } from '../../durable-objects/ledger/tasks';
import {
  PARK_MIN_WAIT_MS,
  parkWebhooks,
  READ_BACK_LEAD_MS,
  readBackDue,
} from '../../durable-objects/ledger/webhooks/delivery-parking';
import { updateDelivery } from '../../durable-objects/ledger/webhooks/outbox-store';
import {
  earliestParkedDue,
  parkingSizes,
  writingSegments,
} from '../../durable-objects/ledger/webhooks/parking-store';
import { createCashIn, payCashIn } from '../support/cash-in';
import { admin, Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { ledgerContextOf, ledgerStub } from '../support/ledger';
import { deliveries } from '../support/ledger-reads';
import {
  deliveryLists,
  deliveryOf,
  envelopeOf,
  failUntil,
  makeDueNow,
  newSink,
  outboxEvents,
  type ReceivedRequest,
  received,
  type Sink,
  setPlan,
  waitForDelivery,
} from '../support/webhooks';

/** Attempts after which the next wait is 30 min (retry-schedule.ts: 5 s, 5 min, then 30 min). */
const LONG_WAIT_AFTER = 3;

/** The object as the alarm's tasks see it, over a budget it is always past (or under the default). */
async function inObject<T>(
  clientId: string,
  run: (ctx: LedgerContext) => Promise<T>,
  overBudget = true,
): Promise<T> {
  return runInDurableObject(ledgerStub(clientId), async (instance) => {
    const ledger = ledgerContextOf(instance);
    const env = overBudget ? ({ ...ledger.env, ARCHIVE_HOT_BUDGET_BYTES: '65536' } as Env) : ledger.env;
    return run({ ...ledger, env });
  });
}

/** Drives each event's failures until its next attempt is 30 min away. */
async function failUntilLongWait(clientId: string, eventIds: string[]) {
  await failUntil(clientId, eventIds, (row) => row.status === 'FAILED' && row.attempts >= LONG_WAIT_AFTER);
  for (const eventId of eventIds)
    expect((await deliveryOf(clientId, eventId)).due_at! - Date.now()).toBeGreaterThan(
      3 * PARK_MIN_WAIT_MS - 60_000,
    );
}

/** Paid Cash-Ins whose endpoint answers 503, and one waiting for payment: each head waiting 30 min. */
async function outage(api: Integrator, sink: Sink) {
  const { clientId } = api.client;
  await setPlan(sink, [503]);
  const paid: string[] = [];
  for (let i = 0; i < 2; i++) {
    const cashIn = await createCashIn(api, { webhookUrl: sink.url });
    await payCashIn(api, cashIn.internalCode as string);
    paid.push(cashIn.transactionId);
  }
  const waiting = await createCashIn(api, { webhookUrl: sink.url });
  const ids = [...paid, waiting.transactionId];
  const events = (await outboxEvents(clientId)).filter((e) => ids.includes(e.aggregateId));
  expect(events).toHaveLength(5);
  const heads = ids.map((id) => events.find((e) => e.aggregateId === id)!.eventId);
  await failUntilLongWait(clientId, heads);
  return { ids, heads, waiting, eventIds: events.map((e) => e.eventId) };
}

/**
 * Every operator list these are read by: by transaction and, unless `byTransaction`, all and by
 * status, page by page.
 */
function lists(api: Integrator, ids: string[], byTransaction = false): Promise<Map<string, string>> {
  const base = `/admin/clients/${api.client.clientId}/webhook-deliveries`;
  const paths = byTransaction
    ? []
    : [base, `${base}?status=FAILED`, `${base}?status=PENDING`, `${base}?status=IN_FLIGHT`];
  for (const id of ids) paths.push(`${base}?aggregateId=${id}`, `${base}?aggregateId=${id}&status=PENDING`);
  return deliveryLists(api, paths, byTransaction ? [] : ['', '&status=FAILED']);
}

/** What an attempt sent, less its time: the event's type and data. */
const sent = (r: ReceivedRequest) => {
  const { eventType, data } = envelopeOf(r);
  return JSON.stringify({ eventType, data });
};

const parkedObjects = async (clientId: string) =>
  (await env.ARCHIVE.list({ prefix: `${clientId}/parked/` })).objects.map((o) => o.key);

const hotOf = async (clientId: string, ids: string[]) =>
  (await deliveries(clientId)).filter((d) => ids.includes(d.aggregateId));

describe('open webhook deliveries parked in R2 during an endpoint outage', () => {
  it('leave the object, list the same bytes, keep each transaction in order, and come back to be delivered', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    const { ids, heads, waiting, eventIds } = await outage(api, sink);
    const hotBefore = await hotOf(clientId, ids);
    const payloads = new Map((await outboxEvents(clientId)).map((e) => [e.eventId, e.data]));
    const listedHot = await lists(api, ids);

    // Under the default budget the task leaves them hot, as they always were.
    const task = {
      id: 'park-webhooks:all',
      kind: 'park-webhooks' as const,
      ref: 'all',
      dueAt: 0,
      attempts: 0,
    };
    await inObject(clientId, (ctx) => runTask(ctx, task, async () => new Set()), false);
    expect(await hotOf(clientId, ids)).toEqual(hotBefore);

    // Over it, the task parks every transaction: rows and payloads leave, one mark each stays.
    await inObject(clientId, (ctx) => runTask(ctx, task, async () => new Set()));
    expect(await hotOf(clientId, ids)).toEqual([]);
    expect((await outboxEvents(clientId)).filter((e) => ids.includes(e.aggregateId))).toEqual([]);
    expect(await inObject(clientId, async (ctx) => parkingSizes(ctx.storage.sql))).toEqual({
      segments: 1,
      marks: 3,
    });
    expect(await parkedObjects(clientId)).toHaveLength(1);
    expect(await lists(api, ids)).toEqual(listedHot);

    // The waiting Cash-In is paid while parked: its new event waits for its first, never overtaking it.
    await payCashIn(api, waiting.internalCode as string);
    const [paidEvent] = (await outboxEvents(clientId, waiting.transactionId)).map((e) => e.eventId);
    await makeDueNow(clientId, paidEvent!);
    const deferred = await waitForDelivery(
      clientId,
      paidEvent!,
      (r) => r.due_at! > Date.now() + PARK_MIN_WAIT_MS,
    );
    expect([deferred.status, deferred.attempts]).toEqual(['PENDING', 0]);
    expect((await received(sink)).filter((r) => r.headers['webhook-id'] === paidEvent)).toEqual([]);
    // Listed where it would be hot: the five parked rows and the new one, newest first.
    const all = (await (await admin(`/admin/clients/${clientId}/webhook-deliveries`)).json()) as {
      items: { eventId: string; status: string }[];
    };
    expect(
      all.items.filter((i) => [...eventIds, paidEvent!].includes(i.eventId)).map((i) => i.eventId),
    ).toEqual([...eventIds, paidEvent!].sort((a, b) => Number(b.split('_')[1]) - Number(a.split('_')[1])));
    // (The new event's next attempt is its head's until the read-back: compared by the others' lists.)
    const listedParked = await lists(api, ids.slice(0, 2), true);

    // A minute before the earliest is due, the dispatcher reads the segment back exactly as parked.
    const due = (await inObject(clientId, async (ctx) => earliestParkedDue(ctx.storage.sql)))!;
    expect(due).toBe(Math.min(...hotBefore.filter((d) => d.status === 'FAILED').map((d) => d.dueAt!)));
    await inObject(clientId, (ctx) => readBackDue(ctx, due - READ_BACK_LEAD_MS - 1));
    expect((await hotOf(clientId, ids)).map((d) => d.eventId)).toEqual([paidEvent]);
    await inObject(clientId, (ctx) => readBackDue(ctx, due - READ_BACK_LEAD_MS));
    const back = (await hotOf(clientId, ids)).filter((d) => d.eventId !== paidEvent);
    expect(back).toEqual(hotBefore.map((d) => ({ ...d, payload: d.payload ?? payloads.get(d.eventId) })));
    expect(await inObject(clientId, async (ctx) => parkingSizes(ctx.storage.sql))).toEqual({
      segments: 0,
      marks: 0,
    });
    expect(await parkedObjects(clientId)).toEqual([]);
    expect(await lists(api, ids.slice(0, 2), true)).toEqual(listedParked);
    // The new event waits behind its head from now, as it did before its head was parked.
    expect((await deliveryOf(clientId, paidEvent!)).due_at!).toBeLessThanOrEqual(Date.now());

    // The endpoint is back: every event is delivered once, in order per transaction, as first sent.
    await setPlan(sink, [200]);
    for (const eventId of heads) await makeDueNow(clientId, eventId);
    for (const eventId of [...eventIds, paidEvent!])
      await waitForDelivery(clientId, eventId, (r) => r.status === 'DELIVERED');
    const got = await received(sink);
    for (const id of ids) {
      const mine = (await outboxEvents(clientId, id)).map((e) => e.eventId);
      const delivered = got
        .filter((r) => mine.includes(r.headers['webhook-id']!))
        .map((r) => r.headers['webhook-id']);
      // Each transaction's events: every attempt of the first before any of the second.
      expect(delivered.lastIndexOf(mine[0]!)).toBeLessThan(delivered.indexOf(mine[1]!));
    }
    // Every attempt of a parked event carries the data of its first (eventAt is the attempt's).
    for (const head of heads) {
      const bodies = new Set(got.filter((r) => r.headers['webhook-id'] === head).map(sent));
      expect([...bodies]).toHaveLength(1);
    }
    await assertBooks(api);
  }, 240_000);

  it('a crash between the put and the trim, or a change during the put, loses and doubles nothing', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    const { ids } = await outage(api, sink);
    const hotBefore = await hotOf(clientId, ids);

    await expect(
      inObject(clientId, (ctx) =>
        parkWebhooks(
          {
            ...ctx,
            crashes: {
              reach: async (point) => {
                if (point === 'webhooks.parked-written') throw new Error(`crashed at ${point}`);
              },
            },
          },
          Date.now(),
        ),
      ),
    ).rejects.toThrow('crashed at webhooks.parked-written');
    // Written, not trimmed: every delivery hot, the reservation never read.
    expect(await hotOf(clientId, ids)).toEqual(hotBefore);
    expect(await inObject(clientId, async (ctx) => writingSegments(ctx.storage.sql))).toHaveLength(1);
    expect(await parkedObjects(clientId)).toHaveLength(1);

    // A change to one of them during the put (an operator's retry, a report) drops the segment.
    const changed = hotBefore[0]!;
    const more = await inObject(clientId, (ctx) =>
      parkWebhooks(
        {
          ...ctx,
          crashes: {
            reach: async () => {
              updateDelivery(ctx.db, changed.seq, { updatedAt: changed.updatedAt + 1 });
            },
          },
        },
        Date.now(),
      ),
    );
    expect(more).toBe(true);
    expect((await hotOf(clientId, ids)).length).toBe(hotBefore.length);
    expect(await inObject(clientId, async (ctx) => parkingSizes(ctx.storage.sql))).toEqual({
      segments: 0,
      marks: 0,
    });
    expect(await inObject(clientId, async (ctx) => writingSegments(ctx.storage.sql))).toEqual([]);
    expect(await parkedObjects(clientId)).toEqual([]);

    // The next step parks them once; the read-back brings each back once.
    expect(await inObject(clientId, (ctx) => parkWebhooks(ctx, Date.now()))).toBe(false);
    expect(await hotOf(clientId, ids)).toEqual([]);
    expect(await parkedObjects(clientId)).toHaveLength(1);
    await inObject(clientId, (ctx) => readBackDue(ctx, Date.now() + 11 * 3_600_000));
    const back = await hotOf(clientId, ids);
    const fields = ({ payload: _p, updatedAt, ...row }: (typeof back)[number]) => ({ ...row, updatedAt });
    expect(back.map(fields)).toEqual(
      hotBefore.map((d) => fields({ ...d, updatedAt: d.updatedAt + (d.seq === changed.seq ? 1 : 0) })),
    );
    expect(await parkedObjects(clientId)).toEqual([]);
  }, 240_000);

  it("an operator's retry of a parked delivery reads its segment back and answers as for a hot one", async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    const { ids, heads } = await outage(api, sink);
    const base = `/admin/clients/${clientId}/webhook-deliveries`;
    const item = (
      (await (await admin(`${base}?aggregateId=${ids[0]}&status=FAILED`)).json()) as { items: unknown[] }
    ).items[0] as Record<string, unknown>;
    const first = (await received(sink)).find((r) => r.headers['webhook-id'] === heads[0])!;
    await inObject(clientId, (ctx) => parkWebhooks(ctx, Date.now()));
    expect(await hotOf(clientId, ids)).toEqual([]);

    await setPlan(sink, [200]);
    const retried = await admin(`${base}/${heads[0]}/retry`, 'POST');
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({
      ...item,
      status: 'PENDING',
      attempts: 0,
      nextAttemptAt: expect.any(String),
    });
    // Its whole segment is hot again; the others go on with their own schedule.
    expect(await hotOf(clientId, ids)).toHaveLength(5);
    expect(await inObject(clientId, async (ctx) => parkingSizes(ctx.storage.sql))).toEqual({
      segments: 0,
      marks: 0,
    });
    await waitForDelivery(clientId, heads[0]!, (r) => r.status === 'DELIVERED');
    const last = (await received(sink)).filter((r) => r.headers['webhook-id'] === heads[0]).at(-1)!;
    expect(sent(last)).toBe(sent(first));
    expect((await deliveryOf(clientId, heads[1]!)).status).toBe('FAILED');
    // An unknown event still answers 404 with things parked.
    await inObject(clientId, (ctx) => parkWebhooks(ctx, Date.now()));
    expect((await inObject(clientId, async (ctx) => parkingSizes(ctx.storage.sql))).segments).toBe(1);
    expect((await admin(`${base}/evt_999999_AAAAAAAAAAAAAA/retry`, 'POST')).status).toBe(404);
  }, 240_000);

  it("an operator's retry of a given-up event goes at once, ahead of its transaction's later event parked meanwhile", async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    await setPlan(sink, [503]);
    const cashIn = await createCashIn(api, { webhookUrl: sink.url });
    await payCashIn(api, cashIn.internalCode as string);
    const [requested, paid] = (await outboxEvents(clientId, cashIn.transactionId)).map((e) => e.eventId);
    await failUntil(clientId, [requested!], (row) => row.status === 'GIVEN_UP');
    await failUntilLongWait(clientId, [paid!]);
    await inObject(clientId, (ctx) => parkWebhooks(ctx, Date.now()));
    expect((await hotOf(clientId, [cashIn.transactionId])).map((d) => [d.eventId, d.status])).toEqual([
      [requested, 'GIVEN_UP'],
    ]);

    await setPlan(sink, [200]);
    const base = `/admin/clients/${clientId}/webhook-deliveries`;
    expect((await admin(`${base}/${requested}/retry`, 'POST')).status).toBe(200);
    await waitForDelivery(clientId, requested!, (r) => r.status === 'DELIVERED');
    // Its later event came back with it and follows on its own schedule.
    expect(await inObject(clientId, async (ctx) => parkingSizes(ctx.storage.sql))).toEqual({
      segments: 0,
      marks: 0,
    });
    expect((await deliveryOf(clientId, paid!)).status).toBe('FAILED');
  }, 240_000);
});
