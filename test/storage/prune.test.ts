/**
 * Transient rows leave when their job is done (issue 16, durable-objects/ledger/prune.ts), from the
 * ledger's own housekeeping after its tasks: ended webhook deliveries 7 days after they ended, with
 * their outbox events; health observations as the queue takes them; idempotency keys after
 * the 24 h replay window. What still has work to do stays, and each step is bounded. Time is moved
 * by back-dating rows (the object's clock cannot be moved), then the housekeeping runs (sweep).
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { storedKey } from '../../durable-objects/ledger/ledger/idempotency-codec';
import { PRUNE_STEP_ROWS, pruneFull, pruneOnce } from '../../durable-objects/ledger/prune';
import { parkWebhooks, readBackDue } from '../../durable-objects/ledger/webhooks/delivery-parking';
import { parkingSizes } from '../../durable-objects/ledger/webhooks/parking-store';
import { registryPairsOf } from '../support/archive-registry';
import { createCashIn, payCashIn, waitFor } from '../support/cash-in';
import { cashOutBody, deposit, settled } from '../support/cash-out';
import { admin, cashInBody, Integrator } from '../support/harness';
import { ledgerContextOf, ledgerStub, sqlRows } from '../support/ledger';
import { deliveries } from '../support/ledger-reads';
import { recordObservations } from '../support/observations';
import { newSink, outboxEvents, setPlan, waitForDelivery, waitUntil } from '../support/webhooks';

const DAY = 86_400_000;

async function count(clientId: string, query: string, ...binds: unknown[]): Promise<number> {
  return (await sqlRows<{ n: number }>(clientId, `SELECT count(*) AS n FROM (${query})`, ...binds))[0]!.n;
}

async function sweep(clientId: string): Promise<void> {
  await (ledgerStub(clientId) as unknown as { sweep(): Promise<void> }).sweep();
}

describe('pruning transient rows', () => {
  it('drops ended deliveries after 7 days with their events, keeps FAILED ones and anything younger', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const good = newSink();
    const bad = newSink();
    await setPlan(bad, [500]);
    const delivered = await createCashIn(api, { webhookUrl: good.url });
    const failing = await createCashIn(api, { webhookUrl: bad.url });
    const silent = await createCashIn(api);
    const [deliveredEvent] = await outboxEvents(clientId, delivered.transactionId);
    const [failingEvent] = await outboxEvents(clientId, failing.transactionId);
    const [silentEvent] = await outboxEvents(clientId, silent.transactionId);
    await waitForDelivery(clientId, deliveredEvent!.eventId, (r) => r.status === 'DELIVERED');
    await waitForDelivery(clientId, failingEvent!.eventId, (r) => r.status === 'FAILED');
    await waitForDelivery(clientId, silentEvent!.eventId, (r) => r.status === 'UNDELIVERABLE');

    // Six days on, nothing goes; eight days on, the ended ones go with their events.
    await runInDurableObject(ledgerStub(clientId), (_i, state) => {
      state.storage.sql.exec('UPDATE webhook_deliveries SET updated_at = updated_at - ?', 6 * DAY);
    });
    await sweep(clientId);
    expect(await count(clientId, 'SELECT 1 FROM webhook_deliveries')).toBe(3);
    await runInDurableObject(ledgerStub(clientId), (_i, state) => {
      state.storage.sql.exec('UPDATE webhook_deliveries SET updated_at = updated_at - ?', 2 * DAY);
    });
    await sweep(clientId);
    const left = await sqlRows<{ event_id: string; status: string }>(
      clientId,
      'SELECT event_id, status FROM webhook_deliveries',
    );
    expect(left).toEqual([{ event_id: failingEvent!.eventId, status: 'FAILED' }]);
    const events = await sqlRows<{ event_id: string }>(
      clientId,
      "SELECT event_id FROM outbox WHERE channel = 'webhook'",
    );
    expect(events.map((e) => e.event_id)).toEqual([failingEvent!.eventId]);
    // The transactions themselves and the money are untouched.
    expect((await api.get(`/cash-in/${delivered.internalCode}`)).status).toBe(200);
    expect((await api.get(`/cash-in/${silent.internalCode}`)).status).toBe(200);
  });

  it('drops health observations as the queue takes them, and payloads as their delivery ends', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const sink = newSink();
    const sent = await recordObservations(clientId);
    const cashIn = await createCashIn(api, { webhookUrl: sink.url });
    await payCashIn(api, cashIn.internalCode);
    // The queue took both observations (created, settled): none is left behind in the outbox.
    await waitUntil(
      async () => sent.map((o) => o.event),
      (events) => events.length === 2,
    );
    expect(sent.map((o) => o.event)).toEqual(['CREATED', 'SETTLED']);
    expect(await count(clientId, "SELECT 1 FROM outbox WHERE channel = 'health'")).toBe(0);
    // Both webhooks DELIVERED: their payloads are gone, their delivery rows stay (the operator list).
    await waitUntil(
      () => count(clientId, "SELECT 1 FROM webhook_deliveries WHERE status = 'DELIVERED'"),
      (n) => n === 2,
    );
    expect(await count(clientId, "SELECT 1 FROM outbox WHERE channel = 'webhook'")).toBe(0);
    // One not yet handed to the queue stays, however old (a flush that failed sends it again).
    await runInDurableObject(ledgerStub(clientId), (_i, state) => {
      state.storage.sql.exec(
        `INSERT INTO outbox (event_id, aggregate_id, channel, event_type, data, occurred_at)
         VALUES ('obs_unpublished', 'x', 'health', 'OBSERVATION', '{}', 0)`,
      );
    });
    await sweep(clientId);
    expect(await count(clientId, "SELECT 1 FROM outbox WHERE event_id = 'obs_unpublished'")).toBe(1);
  });

  it('forgets an idempotency key after 24 h: the key then starts a new request', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const key = crypto.randomUUID();
    const first = await api.post(
      '/cash-in',
      { amount: 10, externalReference: `idem-${key}`, payer: { name: 'Maria', document: '12345678909' } },
      { 'x-idempotency-key': key },
    );
    expect(first.status).toBe(201);
    const replay = await api.post(
      '/cash-in',
      { amount: 10, externalReference: `idem-${key}`, payer: { name: 'Maria', document: '12345678909' } },
      { 'x-idempotency-key': key },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await runInDurableObject(ledgerStub(clientId), (_i, state) => {
      state.storage.sql.exec(
        'UPDATE idempotency_keys SET created_at = created_at - ? WHERE key = ?',
        DAY + 1,
        storedKey(key),
      );
    });
    await sweep(clientId);
    expect(await count(clientId, 'SELECT 1 FROM idempotency_keys WHERE key = ?', storedKey(key))).toBe(0);
    const fresh = await api.post(
      '/cash-in',
      { amount: 11, externalReference: `idem2-${key}`, payer: { name: 'Maria', document: '12345678909' } },
      { 'x-idempotency-key': key },
    );
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  });

  it('deletes at most a batch per step, by index, and asks for another step when a batch was full', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const result = await runInDurableObject(ledgerStub(clientId), (instance, state) => {
      const old = Date.now() - 2 * DAY;
      for (let i = 0; i < PRUNE_STEP_ROWS + 20; i++)
        state.storage.sql.exec(
          "INSERT INTO idempotency_keys (key, request_hash, status, body, created_at) VALUES (?, 'h', 201, '{}', ?)",
          `old-${i}`,
          old,
        );
      const plan = state.storage.sql
        .exec<{ detail: string }>(
          'EXPLAIN QUERY PLAN SELECT key FROM idempotency_keys WHERE created_at < ? ORDER BY created_at LIMIT 5',
          Date.now(),
        )
        .toArray()
        .map((r) => r.detail)
        .join(' | ');
      const db = (instance as unknown as { db: Parameters<typeof pruneOnce>[0] }).db;
      const first = pruneOnce(db, Date.now());
      const second = pruneOnce(db, Date.now());
      return { plan, first, second };
    });
    expect(result.plan).toContain('idempotency_created_idx');
    expect(result.first.idempotencyKeys).toBe(PRUNE_STEP_ROWS);
    expect(pruneFull(result.first)).toBe(true);
    expect(result.second.idempotencyKeys).toBe(20);
    expect(pruneFull(result.second)).toBe(false);
  });
});

/**
 * What a transaction's webhook deliveries cost while they are kept, its events delivered to a URL: the
 * database's live bytes with them, less without. docs/storage-schema.md (Idempotency keys and delivery
 * lists) quotes the figures.
 */
describe('webhook deliveries: bytes per row', () => {
  const N = 200;
  it(`a webhook delivery row, and a transaction's deliveries (${N / 2} paid Cash-Ins, ${N / 2} completed Cash-Outs)`, async () => {
    const api = await Integrator.create();
    await deposit(api, 1_000);
    const sink = newSink();
    const ids: string[] = [];
    for (let i = 0; i < N / 2; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const cashIn = await api.post(
            '/cash-in',
            cashInBody({ includeQrCodeImage: false, webhookUrl: sink.url }),
          );
          const { internalCode } = (await cashIn.json()) as { internalCode: string };
          await payCashIn(api, internalCode);
          const cashOut = await api.signedPost('/cash-out', cashOutBody({ amount: 1, webhookUrl: sink.url }));
          ids.push(((await cashOut.json()) as { transactionId: string }).transactionId);
        }),
      );
    }
    for (const id of ids) expect((await settled(api, id)).status).toBe('COMPLETED');
    const open = async () => (await deliveries(api.client.clientId)).filter((d) => d.dueAt !== null).length;
    expect(await waitFor(open, (n) => n === 0, 60_000)).toBe(0);
    const figures = await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
      const sql = state.storage.sql;
      const rows = sql
        .exec<{ n: number; delivered: number }>(
          "SELECT count(*) AS n, sum(status = 'DELIVERED') AS delivered FROM webhook_deliveries",
        )
        .one();
      const bytes = sql.databaseSize;
      sql.exec('DELETE FROM webhook_deliveries');
      return { ...rows, perRow: Math.round((bytes - sql.databaseSize) / rows.n) };
    });
    const perTransaction = Math.round((figures.perRow * figures.n) / N);
    console.log(
      `webhook deliveries: ${figures.n} for ${N} transactions (${figures.delivered} DELIVERED), ` +
        `${figures.perRow} B per row with its indexes, ${perTransaction} B per transaction`,
    );
    expect(figures).toMatchObject({ n: 2 * N, delivered: 2 * N });
    // Measured 307 (2026-11-29): a URL, the last answer's status and its times on every row.
    expect(figures.perRow).toBeLessThanOrEqual(340);
  });
});

/**
 * What a client's dead endpoint leaves in its object (docs/storage-schema.md, Idempotency keys and
 * delivery lists): each delivery open (its row, and its event's payload in the outbox), then GIVEN_UP
 * (the payload on its row), then once archived: what the object keeps of it (the index by
 * transaction, the note of its segment, the manifest row), per delivery. Each figure is the live
 * bytes with the rows less without them, measured in a transaction rolled back.
 */
describe('webhook deliveries of a dead endpoint: bytes per delivery', () => {
  const N = 100;
  const DEAD = 'http://127.0.0.1:9/hooks/dead';
  type Sql = SqlStorage;
  const without = (state: DurableObjectState, statements: string[]): number => {
    const sql = state.storage.sql;
    const before = sql.databaseSize;
    let after = before;
    try {
      state.storage.transactionSync(() => {
        for (const s of statements) sql.exec(s);
        after = sql.databaseSize;
        throw new Error('roll back');
      });
    } catch {}
    return before - after;
  };
  const DELIVERIES = ['DELETE FROM webhook_deliveries', "DELETE FROM outbox WHERE channel = 'webhook'"];

  it(`${N / 2} paid Cash-Ins and ${N / 2} completed Cash-Outs: open, GIVEN_UP, archived`, async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    await deposit(api, 1_000);
    const ids: string[] = [];
    for (let i = 0; i < N / 2; i += 10)
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const cashIn = await api.post(
            '/cash-in',
            cashInBody({ includeQrCodeImage: false, webhookUrl: DEAD }),
          );
          const { internalCode } = (await cashIn.json()) as { internalCode: string };
          await payCashIn(api, internalCode);
          const cashOut = await api.signedPost('/cash-out', cashOutBody({ amount: 1, webhookUrl: DEAD }));
          ids.push(((await cashOut.json()) as { transactionId: string }).transactionId);
        }),
      );
    for (const id of ids) expect((await settled(api, id)).status).toBe('COMPLETED');
    // Every event adopted (2 per transaction), each transaction's first one failed, the second waiting.
    const states = async () => {
      const rows = await deliveries(clientId);
      return { rows: rows.length, failed: rows.filter((d) => d.status === 'FAILED').length };
    };
    expect(await waitFor(states, (s) => s.rows === 2 * N && s.failed === N, 60_000)).toEqual({
      rows: 2 * N,
      failed: N,
    });
    const open = await runInDurableObject(ledgerStub(clientId), (_i, state) => without(state, DELIVERIES));

    // Parked (webhooks/delivery-parking.ts): each first event failed a third time by the real code
    // (its next attempt 30 min away), then the parking step over a budget the object is past. What
    // stays is a mark per transaction and a row per segment; the read-back brings every row back.
    const stub = ledgerStub(clientId) as unknown as {
      recordWebhookAttempt(id: string, dispatch: number, outcome: unknown): Promise<void>;
    };
    const third = await runInDurableObject(ledgerStub(clientId), (_i, state) =>
      (state.storage.sql as Sql)
        .exec<{ event_id: string; dispatches: number }>(
          `UPDATE webhook_deliveries SET status = 'IN_FLIGHT', attempts = 2, dispatches = dispatches + 1
           WHERE status = 'FAILED' RETURNING event_id, dispatches`,
        )
        .toArray(),
    );
    expect(third).toHaveLength(N);
    for (const row of third)
      await stub.recordWebhookAttempt(row.event_id, row.dispatches, {
        kind: 'failed',
        status: 503,
        error: 'HTTP 503',
      });
    const parking = await runInDurableObject(ledgerStub(clientId), async (instance, state) => {
      const ledger = ledgerContextOf(instance);
      const ctx = { ...ledger, env: { ...ledger.env, ARCHIVE_HOT_BUDGET_BYTES: '65536' } as Env };
      await parkWebhooks(ctx, Date.now());
      const hot = state.storage.sql.exec('SELECT count(*) AS n FROM webhook_deliveries').one().n;
      const sizes = parkingSizes(state.storage.sql);
      // A mark's bytes at scale: 20,000 more, on pages of their own, measured and rolled back.
      const before = state.storage.sql.databaseSize;
      let grown = 0;
      try {
        state.storage.transactionSync(() => {
          state.storage.sql.exec(
            `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
             INSERT INTO webhook_parked (hash, segment) SELECT abs(random()) % 140737488355328, 1000 + i / 200 FROM c`,
          );
          grown = state.storage.sql.databaseSize - before;
          throw new Error('roll back');
        });
      } catch {}
      const bytes = grown / 20_000;
      await readBackDue(ctx, Date.now() + 3_600_000);
      return {
        hot,
        sizes,
        bytes,
        back: state.storage.sql.exec('SELECT count(*) AS n FROM webhook_deliveries').one().n,
      };
    });
    expect(parking).toMatchObject({ hot: 0, sizes: { segments: 1, marks: N }, back: 2 * N });

    // Every delivery given up by the real code: its eighth failure reported for its live dispatch.
    const leased = await runInDurableObject(ledgerStub(clientId), (_i, state) =>
      (state.storage.sql as Sql)
        .exec<{ event_id: string; dispatches: number }>(
          `UPDATE webhook_deliveries SET status = 'IN_FLIGHT', attempts = 7, dispatches = dispatches + 1,
           due_at = ? WHERE due_at IS NOT NULL RETURNING event_id, dispatches`,
          Date.now() + 3_600_000,
        )
        .toArray(),
    );
    expect(leased).toHaveLength(2 * N);
    for (const row of leased)
      await stub.recordWebhookAttempt(row.event_id, row.dispatches, {
        kind: 'failed',
        status: 503,
        error: 'HTTP 503',
      });
    const given = await deliveries(clientId);
    expect(given.filter((d) => d.status === 'GIVEN_UP' && d.payload !== null)).toHaveLength(2 * N);
    expect(await count(clientId, "SELECT 1 FROM outbox WHERE channel = 'webhook'")).toBe(0);
    const givenUp = await runInDurableObject(ledgerStub(clientId), (_i, state) => without(state, DELIVERIES));

    const archived = await admin(`/admin/clients/${clientId}/archive`, 'POST', {
      before: new Date(Date.now() + 1).toISOString(),
    });
    expect(await archived.json()).toEqual({ archivedTransactions: N });
    expect(await deliveries(clientId)).toEqual([]);
    const left = await runInDurableObject(ledgerStub(clientId), (_i, state) => {
      const n = (q: string) =>
        state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${q}`).one().n;
      const rows = {
        indexed: n('archive_delivery_index'),
        notes: n('archive_given_up'),
        segments: n("archive_segments WHERE kind = 'delivery'"),
      };
      const bytes = without(state, [
        'DELETE FROM archive_delivery_index',
        'DELETE FROM archive_given_up',
        "DELETE FROM archive_segments WHERE kind = 'delivery'",
      ]);
      return { rows, bytes };
    });
    const deliverySegment = await runInDurableObject(
      ledgerStub(clientId),
      (_i, state) =>
        state.storage.sql
          .exec<{ id: number }>("SELECT id FROM archive_segments WHERE kind = 'delivery'")
          .one().id,
    );
    const registered = await registryPairsOf(clientId, deliverySegment);
    const per = (bytes: number) => Math.round(bytes / (2 * N));
    console.log(
      `dead endpoint, ${2 * N} deliveries: ${per(open)} B each open (row + payload in the outbox), ` +
        `${per(givenUp)} B GIVEN_UP hot (payload on the row); archived, the object keeps ${JSON.stringify(left.rows)}: ` +
        `${per(left.bytes)} B each (pages); parked, ${parking.bytes.toFixed(1)} B per transaction (its mark; a segment row per 200)`,
    );
    // Measured 2026-11-29: a mark ≈ 15 B, like an index entry (two integers, WITHOUT ROWID).
    expect(parking.bytes).toBeLessThanOrEqual(20);
    // Measured 2026-11-29: 1,331 open, 840 GIVEN_UP hot; archived, one note and manifest row per segment
    // of up to 200: 0 new pages here. A transaction's deliveries are found through the archive registry
    // (one pair per transaction there); the object's own index (≈ 15 B a transaction before) gets none.
    expect([left.rows.indexed, registered]).toEqual([0, N]);
    expect(left.rows.notes).toBe(left.rows.segments);
    expect(left.rows.segments).toBeLessThanOrEqual(Math.ceil((2 * N) / 200) + 1);
    expect(per(left.bytes)).toBeLessThanOrEqual(20);
    expect(per(givenUp)).toBeLessThan(per(open));
  }, 120_000);
});
