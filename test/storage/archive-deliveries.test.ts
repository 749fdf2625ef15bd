/**
 * Ended webhook deliveries follow their transaction to the archive (issue 16, kind `delivery`,
 * durable-objects/ledger/archive/archive-delivery-queue.ts and archive-deliveries.ts): the operator list by
 * aggregateId answers the same bytes after POST /admin/clients/{id}/archive, their outbox events go
 * with them, retryable ones stay hot, a crash between the segment put and the deletion loses and
 * doubles nothing, a rehydrated Cash-In keeps them listed, and they leave once the 7-day operator
 * window is over.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  expireDeliveries,
  listDeliveriesAnywhere,
} from '../../durable-objects/ledger/archive/archive-deliveries';
import { deliveriesId, idHash, unregisterIds } from '../../durable-objects/ledger/archive/archive-index';
import { readSegment } from '../../durable-objects/ledger/archive/archive-reads';
import { insertIndexEntries } from '../../durable-objects/ledger/archive/archive-store';
import type { LedgerDb } from '../../durable-objects/ledger/db';
import { aggregateIs } from '../../durable-objects/ledger/webhooks/outbox-store';
import { registryPairsOf } from '../support/archive-registry';
import { createCashIn, payCashIn } from '../support/cash-in';
import { armCrash, crashedAt } from '../support/crash';
import { admin, Integrator } from '../support/harness';
import { ledgerContextOf, ledgerStub } from '../support/ledger';
import { archiveSegments, archiveSizesOf, cashIns, deliveries, outboxRows } from '../support/ledger-reads';
import { ageSegments } from '../support/ledger-writes';
import { newSink, outboxEvents, setPlan, waitForDelivery, waitUntil } from '../support/webhooks';

const DAY = 86_400_000;

const archive = (api: Integrator) =>
  admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
    before: new Date(Date.now() + 1).toISOString(),
  });

const segmentsOf = async (api: Integrator, kind: string) =>
  (await archiveSegments(api.client.clientId)).filter((s) => s.kind === kind);

/** Three paid Cash-Ins: both deliveries DELIVERED, both UNDELIVERABLE (no URL), one FAILED + one waiting. */
async function history(api: Integrator) {
  const { clientId } = api.client;
  const good = newSink();
  const bad = newSink();
  await setPlan(bad, [500, 500, 500, 500]);
  const delivered = await createCashIn(api, { webhookUrl: good.url });
  const undeliverable = await createCashIn(api);
  const failing = await createCashIn(api, { webhookUrl: bad.url });
  for (const c of [delivered, undeliverable, failing]) await payCashIn(api, c.internalCode as string);
  const events = async (id: string) => outboxEvents(clientId, id);
  for (const e of await events(delivered.transactionId))
    await waitForDelivery(clientId, e.eventId, (r) => r.status === 'DELIVERED');
  for (const e of await events(undeliverable.transactionId))
    await waitForDelivery(clientId, e.eventId, (r) => r.status === 'UNDELIVERABLE');
  const [failed] = await events(failing.transactionId);
  await waitForDelivery(clientId, failed!.eventId, (r) => r.status === 'FAILED');
  return [delivered.transactionId, undeliverable.transactionId, failing.transactionId] as string[];
}

/** Every operator list page of each transaction (whole, one by one with cursors, by status). */
async function lists(api: Integrator, ids: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const base = `/admin/clients/${api.client.clientId}/webhook-deliveries`;
  for (const id of ids) {
    const paths = [`${base}?aggregateId=${id}`, `${base}?aggregateId=${id}&status=DELIVERED`];
    for (let cursor: string | undefined, i = 0; i === 0 || cursor; i++) {
      const path = `${base}?aggregateId=${id}&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await admin(path);
      out.set(path, `${res.status} ${await res.clone().text()}`);
      cursor = ((await res.json()) as { nextCursor?: string }).nextCursor;
    }
    for (const path of paths) {
      const res = await admin(path);
      out.set(path, `${res.status} ${await res.text()}`);
    }
  }
  return out;
}

const hotDeliveries = async (api: Integrator) => (await deliveries(api.client.clientId)).length;

describe('webhook deliveries across the archive', () => {
  it('ended ones move with their transaction and the list by aggregateId answers the same bytes', async () => {
    const api = await Integrator.create();
    const ids = await history(api);
    const before = await lists(api, ids);
    expect([...before.values()].every((v) => v.startsWith('200 '))).toBe(true);
    expect(await hotDeliveries(api)).toBe(6);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 3 });
    // The FAILED one and the one waiting behind it stay hot (retryable); the 4 ended ones left
    // with their outbox events, and the queue is empty.
    const hot = await deliveries(api.client.clientId);
    expect(hot.map((r) => r.aggregateId)).toEqual([ids[2], ids[2]]);
    expect(hot.map((r) => r.status).sort()).toEqual(['FAILED', 'PENDING']);
    expect(
      (await outboxRows(api.client.clientId, 'webhook')).filter((e) =>
        [ids[0], ids[1]].includes(e.aggregateId),
      ).length,
    ).toBe(0);
    expect((await archiveSizesOf(api.client.clientId)).queuedAggregates).toBe(0);
    expect(
      (await segmentsOf(api, 'delivery'))
        .filter((s) => s.state === 'DONE')
        .reduce((n, s) => n + (s.count ?? 0), 0),
    ).toBe(4);
    expect(await lists(api, ids)).toEqual(before);
  });

  it('a crash between the segment put and the deletion loses and doubles nothing', async () => {
    const api = await Integrator.create();
    const ids = await history(api);
    const before = await lists(api, ids);
    await armCrash(api, 'archive.deliveries-written');
    const crashed = await archive(api).catch(() => undefined);
    expect(crashed?.status ?? 500).toBe(500);
    expect(await crashedAt(api, 'archive.deliveries-written')).toBeDefined();
    const writing = (await archiveSegments(api.client.clientId)).filter((s) => s.state === 'WRITING');
    expect(writing.map((w) => w.kind)).toEqual(['delivery']);
    // The segment is in R2 but only reserved: the deliveries are hot and listed once.
    expect(await hotDeliveries(api)).toBe(6);
    expect(await lists(api, ids)).toEqual(before);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 0 });
    expect(await hotDeliveries(api)).toBe(2);
    const done = (await segmentsOf(api, 'delivery')).map(({ key, count }) => ({ key, count }));
    expect(done).toEqual([{ key: writing[0]!.key, count: 4 }]);
    const keys = (await env.ARCHIVE.list({ prefix: `${api.client.clientId}/delivery/` })).objects;
    expect(keys.map((o) => o.key)).toEqual([writing[0]!.key]);
    expect(await lists(api, ids)).toEqual(before);
  });

  it('a rehydrated (refunded) Cash-In keeps its archived deliveries listed beside its new ones', async () => {
    const api = await Integrator.create();
    const [delivered] = await history(api);
    const base = `/admin/clients/${api.client.clientId}/webhook-deliveries?aggregateId=${delivered}`;
    const old = ((await (await admin(base)).json()) as { items: { eventId: string }[] }).items;
    await archive(api);
    const refund = await api.signedPost(`/cash-in/${delivered}/refund`, { reason: 'FRAUD' });
    expect(refund.status).toBe(202);
    expect((await cashIns(api.client.clientId)).filter((c) => c.transactionId === delivered).length).toBe(1);
    // The refund settles from its poll task: CASHIN_REFUNDED is then its one new event.
    const events = await waitUntil(
      () => outboxEvents(api.client.clientId, delivered!),
      (e) => e.length > 0,
    );
    expect(events.map((e) => e.eventType)).toEqual(['CASHIN_REFUNDED']);
    for (const e of events) await waitForDelivery(api.client.clientId, e.eventId, () => true);
    const now = ((await (await admin(base)).json()) as { items: { eventId: string }[] }).items;
    // Newest first: the refund's events, then the two archived ones exactly as before.
    expect(now.slice(-2)).toEqual(old);
    expect(now.slice(0, -2).map((i) => i.eventId)).toEqual(events.map((e) => e.eventId).reverse());
  });

  it('leaves the list, the index, the manifest and R2 once the 7-day operator window is over', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const ids = await history(api);
    await archive(api);
    const segment = (await segmentsOf(api, 'delivery'))[0]!;
    const listedAt = (now: number, aggregateId: string) =>
      runInDurableObject(ledgerStub(clientId), (instance) =>
        listDeliveriesAnywhere(ledgerContextOf(instance), { aggregateId, limit: 50 }, now),
      );
    // The list keeps the hot rule: ended more than 7 days ago is not listed.
    expect((await listedAt(Date.now() + 6 * DAY, ids[0]!)).items).toHaveLength(2);
    expect((await listedAt(Date.now() + 8 * DAY, ids[0]!)).items).toHaveLength(0);
    // Its transactions' pairs in the archive registry (one each), none in the object's own index.
    const indexed = async () =>
      (await registryPairsOf(clientId, segment.id)) +
      (await archiveSizesOf(clientId, segment.id).then((s) => s.deliveryIndexEntries));
    expect(await indexed()).toBe(2);
    expect(await archiveSizesOf(clientId, segment.id).then((s) => s.deliveryIndexEntries)).toBe(0);
    // 8 days on (the manifest's times moved back): the object's own alarm drops the segment.
    await ageSegments(clientId, 'delivery', 8 * DAY);
    // No task is moved: the alarm's own arming pulls `archive:all` to the segment's expiry.
    for (let i = 0; i < 8 && (await indexed()) > 0; i++) {
      await runInDurableObject(ledgerStub(clientId), (_i, state) => state.storage.setAlarm(Date.now()));
      await runDurableObjectAlarm(ledgerStub(clientId));
      await new Promise((r) => setTimeout(r, 1_100));
    }
    expect(await indexed()).toBe(0);
    expect((await segmentsOf(api, 'delivery')).length).toBe(0);
    expect(await env.ARCHIVE.head(segment.key)).toBeNull();
    const res = await admin(`/admin/clients/${clientId}/webhook-deliveries?aggregateId=${ids[0]}`);
    expect(await res.json()).toEqual({ items: [] });
    // The Cash-Ins themselves stay archived and findable.
    expect((await api.get(`/cash-in/${ids[0]}`)).status).toBe(200);
  });

  it('a segment an older version indexed in the object itself is still listed, and expires as before', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const ids = await history(api);
    const before = await lists(api, ids);
    await archive(api);
    const segment = (await segmentsOf(api, 'delivery'))[0]!;
    // As an older version left it: the transactions' hashes in the object's own index, none in the registry.
    await runInDurableObject(ledgerStub(clientId), async (instance) => {
      const ledger = ledgerContextOf(instance);
      const held = [
        ...new Set((await readSegment(ledger.env, segment.key)).map((r) => r.aggregateId as string)),
      ];
      await unregisterIds(ledger, [[segment.id, held.map((id) => deliveriesId(id))]]);
      ledger.storage.transactionSync(() =>
        insertIndexEntries(
          ledger.storage.sql,
          'deliveries',
          segment.id,
          held.map((id) => idHash(id)),
        ),
      );
    });
    expect(await registryPairsOf(clientId, segment.id)).toBe(0);
    const legacy = () => archiveSizesOf(clientId, segment.id).then((s) => s.deliveryIndexEntries);
    expect(await legacy()).toBe(2);
    expect(await lists(api, ids)).toEqual(before);
    // Past the window the segment, its object and the object's entries leave.
    await ageSegments(clientId, 'delivery', 8 * DAY);
    expect(
      await runInDurableObject(ledgerStub(clientId), (i) => expireDeliveries(ledgerContextOf(i), Date.now())),
    ).toBe(1);
    expect(await legacy()).toBe(0);
    expect(await env.ARCHIVE.head(segment.key)).toBeNull();
  });

  it("finds a transaction's deliveries through webhook_deliveries_aggregate_idx, never a table scan", async () => {
    const api = await Integrator.create();
    const [id] = await history(api);
    const plans = await runInDurableObject(ledgerStub(api.client.clientId), (instance) => {
      const db = (instance as unknown as { db: LedgerDb }).db;
      const plan = (where: SQL, order: SQL) =>
        db
          .all<{ detail: string }>(
            sql`EXPLAIN QUERY PLAN SELECT * FROM webhook_deliveries WHERE ${where} ORDER BY ${order} LIMIT 51`,
          )
          .map((r) => r.detail)
          .join(' | ');
      return [
        // The operator list by aggregateId (with a cursor) and a step's ended deliveries of one.
        plan(sql`${aggregateIs(id!)} AND seq < 1000000`, sql`seq DESC`),
        plan(sql`${aggregateIs(id!)} AND status IN ('DELIVERED', 'UNDELIVERABLE')`, sql`seq`),
        plan(sql`status = 'DELIVERED' AND ${aggregateIs(id!)}`, sql`seq DESC`),
      ];
    });
    for (const p of plans) expect(p).toMatch(/USING INDEX webhook_deliveries_aggregate_idx \(<expr>=\?/);
  });
});
