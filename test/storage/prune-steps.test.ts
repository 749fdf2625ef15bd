/**
 * Pruning as the object runs it (issue 16, durable-objects/ledger/prune.ts): each rule deletes at
 * most a batch per step through its index and keeps what still has work to do; the object's own
 * alarm brings the next step when the oldest kept row ages out, so an idle client sheds its rows
 * without traffic or cron; replays inside 24 h still replay. The clock is moved by shifting every
 * stored time of the object back (rows and tasks alike), then its alarm runs.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REPLAY_WINDOW_MS } from '../../durable-objects/ledger/ledger/idempotency';
import { storedKey } from '../../durable-objects/ledger/ledger/idempotency-codec';
import {
  FINISHED_DELIVERY_KEEP_MS,
  nextPruneAt,
  PRUNE_AGAIN_MS,
  PRUNE_STEP_ROWS,
  prunable,
  pruneFull,
  pruneOnce,
} from '../../durable-objects/ledger/prune';
import { payCashIn } from '../support/cash-in';
import { admin, cashInBody, Integrator } from '../support/harness';
import { ledgerStub, sqlRows } from '../support/ledger';
import { newSink, outboxEvents, setPlan, waitForDelivery, waitUntil } from '../support/webhooks';

const DAY = 86_400_000;
type Db = Parameters<typeof pruneOnce>[0];

async function count(clientId: string, query: string, ...binds: unknown[]): Promise<number> {
  return (await sqlRows<{ n: number }>(clientId, `SELECT count(*) AS n FROM (${query})`, ...binds))[0]!.n;
}

async function pruneTask(clientId: string): Promise<number | undefined> {
  return (await sqlRows<{ due_at: number }>(clientId, "SELECT due_at FROM tasks WHERE id = 'prune:all'"))[0]
    ?.due_at;
}

/** The clock moves `ms` ahead for this object: every stored time goes `ms` back, its alarm too. */
async function travel(clientId: string, ms: number): Promise<void> {
  await runInDurableObject(ledgerStub(clientId), async (_i, state) => {
    const store = state.storage.sql;
    store.exec('UPDATE outbox SET occurred_at = occurred_at - ?1, published_at = published_at - ?1', ms);
    store.exec(
      `UPDATE webhook_deliveries SET created_at = created_at - ?1, updated_at = updated_at - ?1,
         due_at = due_at - ?1, last_attempt_at = last_attempt_at - ?1, delivered_at = delivered_at - ?1`,
      ms,
    );
    store.exec('UPDATE idempotency_keys SET created_at = created_at - ?', ms);
    store.exec('UPDATE tasks SET due_at = due_at - ?', ms);
    const next = store.exec<{ at: number | null }>('SELECT min(due_at) AS at FROM tasks').one().at;
    if (next !== null) await state.storage.setAlarm(next);
  });
}

describe('pruning steps', () => {
  it('an idle object prunes from its own alarm as each window ends; replays inside 24 h still replay', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const body = cashInBody({ includeQrCodeImage: false });
    const key = crypto.randomUUID();
    const created = await api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(created.status).toBe(201);
    const original = await created.json();
    await payCashIn(api, (original as { internalCode: string }).internalCode);
    // Idle: observations handed to the queue, deliveries ended (no webhookUrl), only pruning left.
    await waitUntil(
      () => sqlRows<{ id: string }>(clientId, "SELECT id FROM tasks WHERE id != 'archive:all'"),
      (rows) => rows.length === 1 && rows[0]!.id === 'prune:all',
    );
    const heads = (
      await sqlRows<{ keyAt: number; ended: number; deliveries: number }>(
        clientId,
        `SELECT (SELECT created_at FROM idempotency_keys WHERE key = ?) AS keyAt,
                (SELECT min(updated_at) FROM webhook_deliveries WHERE status = 'UNDELIVERABLE') AS ended,
                (SELECT count(*) FROM webhook_deliveries WHERE status = 'UNDELIVERABLE') AS deliveries`,
        storedKey(key),
      )
    )[0]!;
    expect(heads.deliveries).toBeGreaterThanOrEqual(1);
    // Nothing waits in the outbox: observations left as the queue took them, the payloads of events
    // with no URL as their deliveries ended; the deliveries stay (the operator list).
    expect(await count(clientId, 'SELECT 1 FROM outbox')).toBe(0);
    const listed = await admin(`/admin/clients/${clientId}/webhook-deliveries`);
    expect(((await listed.json()) as { items: unknown[] }).items).toHaveLength(heads.deliveries);
    // The object's alarm is set for the first row to age out: the key, 24 h on.
    const keyGoes = heads.keyAt + REPLAY_WINDOW_MS + 1;
    expect(await pruneTask(clientId)).toBe(keyGoes);
    expect(await runInDurableObject(ledgerStub(clientId), (_i, state) => state.storage.getAlarm())).toBe(
      keyGoes,
    );
    // Inside the 24 h: the same request replays the original answer.
    const replay = await api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(original);

    // 24 h on: the key goes. The same key is then a new request (spec §4.1: the replay window is
    // 24 h), which its externalReference refuses; the Cash-In itself stays.
    const shifted = keyGoes - Date.now() + 1;
    await travel(clientId, shifted);
    expect(await runDurableObjectAlarm(ledgerStub(clientId))).toBe(true);
    expect(await count(clientId, 'SELECT 1 FROM idempotency_keys')).toBe(0);
    const again = await api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('DUPLICATED_EXTERNAL_REFERENCE');
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const dueAt = heads.ended! - shifted + FINISHED_DELIVERY_KEEP_MS + 1;
    expect(await pruneTask(clientId)).toBe(dueAt);

    // 7 days after they ended: the deliveries go with their events; nothing is left to wake for.
    await travel(clientId, dueAt - Date.now() + 1);
    expect(await runDurableObjectAlarm(ledgerStub(clientId))).toBe(true);
    expect(await count(clientId, 'SELECT 1 FROM webhook_deliveries')).toBe(0);
    // Only archiving is left: the paid Cash-In goes to R2 when its 35 days end (archive.ts).
    const left = await sqlRows<{ id: string; due_at: number }>(clientId, 'SELECT id, due_at FROM tasks');
    expect(left.map((t) => t.id)).toEqual(['archive:all']);
    expect(await runInDurableObject(ledgerStub(clientId), (_i, state) => state.storage.getAlarm())).toBe(
      left[0]!.due_at,
    );
    // The transaction and its money are untouched.
    const id = (original as { transactionId: string }).transactionId;
    expect(((await (await api.get(`/cash-in/${id}`)).json()) as { status: string }).status).toBe('PAID');
    expect(await count(clientId, 'SELECT 1 FROM ledger_entries WHERE ref = ?', `cash-in:${id}`)).toBe(1);
  });

  it('each rule deletes at most a batch per step, through its index, and keeps what has work left', async () => {
    const api = await Integrator.create();
    const result = await runInDurableObject(ledgerStub(api.client.clientId), (instance, state) => {
      const store = state.storage.sql;
      const now = Date.now();
      const extra = 20;
      const event = (id: string, channel: string, publishedAt: number | null) =>
        store.exec(
          `INSERT INTO outbox (event_id, aggregate_id, channel, event_type, data, occurred_at, published_at)
           VALUES (?, 'agg', ?, 'T', '{}', 0, ?)`,
          id,
          channel,
          publishedAt,
        );
      const delivery = (id: string, status: string, dueAt: number | null) => {
        event(id, 'webhook', 0);
        store.exec(
          `INSERT INTO webhook_deliveries (event_id, seq, aggregate_id, event_type, status, due_at, created_at, updated_at)
           SELECT event_id, seq, 'agg', 'T', ?, ?, 0, 0 FROM outbox WHERE event_id = ?`,
          status,
          dueAt,
          id,
        );
      };
      for (let i = 0; i < PRUNE_STEP_ROWS + extra; i++) {
        delivery(`done-${i}`, ['DELIVERED', 'GIVEN_UP', 'UNDELIVERABLE'][i % 3]!, null);
        store.exec(
          "INSERT INTO idempotency_keys (key, request_hash, status, body, created_at) VALUES (?, 'h', 201, '{}', ?)",
          `old-${i}`,
          now - 2 * DAY,
        );
      }
      // Still at work, however old: unsent observations, events no delivery adopted yet, open deliveries.
      event('obs-unsent', 'health', null);
      event('evt-unadopted', 'webhook', null);
      delivery('open-pending', 'PENDING', now);
      delivery('open-in-flight', 'IN_FLIGHT', now);
      delivery('open-failed', 'FAILED', now);
      // Young: inside their windows.
      store.exec(
        "INSERT INTO idempotency_keys (key, request_hash, status, body, created_at) VALUES ('young', 'h', 201, '{}', ?)",
        now - REPLAY_WINDOW_MS + 60_000,
      );
      delivery('done-young', 'GIVEN_UP', null);
      store.exec("UPDATE webhook_deliveries SET updated_at = ? WHERE event_id = 'done-young'", now - DAY);
      delivery('sent-young', 'DELIVERED', null);
      store.exec(
        "UPDATE webhook_deliveries SET updated_at = ? WHERE event_id = 'sent-young'",
        now - 30 * 60_000,
      );

      const db = (instance as unknown as { db: Db }).db;
      // The plans of the deletes a step runs, on the statements prune.ts builds.
      const plan = (statement: SQL) =>
        db
          .all<{ detail: string }>(sql`EXPLAIN QUERY PLAN ${statement}`)
          .map((r) => r.detail)
          .join(' | ');
      const plans = [
        plan(
          sql`DELETE FROM outbox WHERE seq IN (${prunable.deliveries('DELIVERED', now, PRUNE_STEP_ROWS)})`,
        ),
        plan(
          sql`DELETE FROM webhook_deliveries WHERE seq IN (${prunable.deliveries('GIVEN_UP', now, PRUNE_STEP_ROWS)})`,
        ),
        plan(sql`DELETE FROM idempotency_keys WHERE key IN (${prunable.keys(now, PRUNE_STEP_ROWS)})`),
      ];
      const steps = [pruneOnce(db, now), pruneOnce(db, now), pruneOnce(db, now)];
      const after = nextPruneAt(db, now, steps[2]!);
      const left = (table: string, column: string) =>
        store
          .exec<{ id: string }>(`SELECT ${column} AS id FROM ${table} ORDER BY ${column}`)
          .toArray()
          .map((r) => r.id);
      return {
        plans,
        steps,
        full: steps.map((s) => pruneFull(s)),
        againAfterFull: (nextPruneAt(db, now, steps[0]!) as number) - now,
        after: after === null ? null : after - now,
        outbox: left('outbox', 'event_id'),
        deliveries: left('webhook_deliveries', 'event_id'),
        keys: left('idempotency_keys', 'key'),
      };
    });
    expect(result.plans[0]).toContain('webhook_deliveries_finished_idx');
    expect(result.plans[1]).toContain('webhook_deliveries_finished_idx');
    expect(result.plans[2]).toContain('idempotency_created_idx');
    for (const plan of result.plans) expect(plan).not.toMatch(/SCAN|TEMP B-TREE/);
    expect(result.steps).toEqual([
      { deliveries: PRUNE_STEP_ROWS, idempotencyKeys: PRUNE_STEP_ROWS },
      { deliveries: 20, idempotencyKeys: 20 },
      { deliveries: 0, idempotencyKeys: 0 },
    ]);
    expect(result.full).toEqual([true, false, false]);
    expect(result.againAfterFull).toBe(PRUNE_AGAIN_MS);
    // Next: the young key's 24 h end first (a minute from now).
    expect(result.after).toBe(60_000 + 1);
    expect(result.outbox).toEqual([
      'done-young',
      'evt-unadopted',
      'obs-unsent',
      'open-failed',
      'open-in-flight',
      'open-pending',
      'sent-young',
    ]);
    expect(result.deliveries).toEqual([
      'done-young',
      'open-failed',
      'open-in-flight',
      'open-pending',
      'sent-young',
    ]);
    expect(result.keys).toEqual(['young']);
  });

  it('a GIVEN_UP delivery can be retried until its 7 days end; then it is gone (404), a FAILED one never', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    await setPlan(sink, [500, 500, 500, 500]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/cash-in', cashInBody({ includeQrCodeImage: false, webhookUrl: sink.url }));
      expect(res.status).toBe(201);
      const [event] = await outboxEvents(
        clientId,
        ((await res.json()) as { transactionId: string }).transactionId,
      );
      ids.push(event!.eventId);
    }
    for (const id of ids) await waitForDelivery(clientId, id, (r) => r.status === 'FAILED');
    const [young, old, failed] = ids as [string, string, string];
    // Two ran out of attempts (given up 6 and 8 days ago); one keeps failing for 30 days.
    await runInDurableObject(ledgerStub(clientId), (_i, state) => {
      const store = state.storage.sql;
      const giveUp = (id: string, ago: number) =>
        store.exec(
          "UPDATE webhook_deliveries SET status = 'GIVEN_UP', due_at = NULL, updated_at = ? WHERE event_id = ?",
          Date.now() - ago,
          id,
        );
      giveUp(young, 6 * DAY);
      giveUp(old, 8 * DAY);
      store.exec(
        'UPDATE webhook_deliveries SET updated_at = ? WHERE event_id = ?',
        Date.now() - 30 * DAY,
        failed,
      );
    });
    await (ledgerStub(clientId) as unknown as { sweep(): Promise<void> }).sweep();
    const base = `/admin/clients/${clientId}/webhook-deliveries`;
    const listed = ((await (await admin(base)).json()) as { items: { eventId: string }[] }).items;
    expect(listed.map((d) => d.eventId).sort()).toEqual([young, failed].sort());
    expect((await admin(`${base}/${old}/retry`, 'POST')).status).toBe(404);
    const retried = await admin(`${base}/${young}/retry`, 'POST');
    expect(retried.status).toBe(200);
    expect(((await retried.json()) as { status: string }).status).toBe('PENDING');
    expect((await admin(`${base}/${failed}/retry`, 'POST')).status).toBe(200);
  });
});
