/**
 * How many bytes a transaction keeps in its client's object (issue 16): 1,500 paid Cash-Ins through
 * the HTTP API of the real runtime, measured in used SQLite pages of the object's own database file
 * (page_count − freelist_count, not the file size; read with node:sqlite while the runtime is down),
 * once the outbox has drained, a day later (observations and idempotency keys gone, deliveries still
 * inside their 7 days) and once every transient row's window has passed (time moved by back-dating
 * rows in the file while the runtime is down; the ledger's pruning then runs from cron sweeps).
 * Prints the figures and each table's share (dbstat: the table with its indexes).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, it } from 'vitest';
import { startTestRuntime } from './support/runtime';

const N = 1_500;
const DAY = 86_400_000;
const ADMIN = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' };
const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-footprint-'));
const state = path.join(work, 'state');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const start = () => startTestRuntime(work);

/** The one ClientLedger database of this runtime (one client is onboarded). */
function ledgerFile(): string {
  const root = path.join(state, 'v3', 'do');
  const dir = readdirSync(root).find((d) => d.endsWith('-ClientLedger')) as string;
  const file = readdirSync(path.join(root, dir)).find((f) => f.endsWith('.sqlite')) as string;
  return path.join(root, dir, file);
}

function inspect(edit?: (db: DatabaseSync) => void) {
  const db = new DatabaseSync(ledgerFile());
  try {
    edit?.(db);
    const one = (q: string) => Number(Object.values(db.prepare(q).get() as object)[0]);
    return {
      bytes: (one('PRAGMA page_count') - one('PRAGMA freelist_count')) * one('PRAGMA page_size'),
      // What grew with the transactions: used pages of tables and indexes beyond the one root page
      // each has however empty it is (the schema's own pages are fixed too).
      grown:
        (one("SELECT count(*) FROM dbstat WHERE name != 'sqlite_schema'") -
          one('SELECT count(*) FROM sqlite_schema WHERE rootpage > 0')) *
        one('PRAGMA page_size'),
      outbox: one('SELECT count(*) FROM outbox'),
      unpublished: one("SELECT count(*) FROM outbox WHERE channel = 'health' AND published_at IS NULL"),
      deliveries: one('SELECT count(*) FROM webhook_deliveries'),
      keys: one('SELECT count(*) FROM idempotency_keys'),
      cashIns: one("SELECT count(*) FROM cash_ins WHERE status = 'PAID'"),
      tables: Object.fromEntries(
        (
          db
            .prepare(
              `SELECT coalesce(m.tbl_name, d.name) AS t, sum(d.pgsize) AS b FROM dbstat d
               LEFT JOIN sqlite_schema m ON m.name = d.name GROUP BY t ORDER BY b DESC`,
            )
            .all() as { t: string; b: number }[]
        ).map((r) => [r.t, Math.round(r.b / N)]),
      ),
    };
  } finally {
    db.close();
  }
}

it(`keeps at most 1,800 live bytes per paid Cash-In from the day after, deliveries still listed (${N} over HTTP)`, async () => {
  let runtime = await start();
  const api = (p: string, init: RequestInit = {}) => fetch(`${runtime.url}${p}`, init);
  const client = (await (
    await api('/admin/clients', { method: 'POST', headers: ADMIN, body: '{"name":"Loja Medida Ltda"}' })
  ).json()) as { clientId: string; clientSecret: string; applicationToken: string };
  const login = await api('/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const headers = {
    authorization: `Bearer ${accessToken}`,
    applicationtoken: client.applicationToken,
    'content-type': 'application/json',
  };
  for (let i = 0; i < N; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, N - i) }, async (_, j) => {
        const created = await api('/cash-in', {
          method: 'POST',
          headers: { ...headers, 'x-idempotency-key': crypto.randomUUID() },
          body: JSON.stringify({
            amount: 10 + ((i + j) % 90),
            externalReference: `medida-${i + j}`,
            payer: { name: 'Maria da Silva', document: '12345678909' },
            includeQrCodeImage: false,
          }),
        });
        expect(created.status).toBe(201);
        const { internalCode } = (await created.json()) as { internalCode: string };
        expect((await api(`/sandbox/cash-in/${internalCode}/pay`, { method: 'POST', headers })).status).toBe(
          200,
        );
      }),
    );
  }
  // Drained: the analyzer took every observation (created + settled of each).
  const deadline = Date.now() + 90_000;
  for (;;) {
    const analyzer = (await (await api('/admin/health/analyzer', { headers: ADMIN })).json()) as {
      accepted: number;
    };
    if (analyzer.accepted >= 2 * N) break;
    if (Date.now() > deadline) throw new Error(`outbox not drained: ${analyzer.accepted}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  await new Promise((r) => setTimeout(r, 2_000));
  await runtime.dispose();

  const drained = inspect();
  expect(drained).toMatchObject({ unpublished: 0, cashIns: N });

  /** Time moves on (rows back-dated while the runtime is down), then cron sweeps prune. */
  async function later(backdate: (db: DatabaseSync) => void) {
    inspect(backdate);
    runtime = await start();
    // Cron sweeps run each ledger's tasks and pruning; a full step schedules the next one itself.
    for (let i = 0; i < 8; i++) {
      expect(await runtime.scheduled()).toEqual(['ok']);
      await new Promise((r) => setTimeout(r, 1_500));
    }
    await runtime.dispose();
    return inspect();
  }
  // A day on: observations (1 h), sent payloads (1 h) and idempotency keys (24 h) are gone; the
  // deliveries stay their 7 days.
  const day = await later((db) => {
    db.exec(`UPDATE outbox SET published_at = published_at - ${DAY}`);
    db.exec(`UPDATE webhook_deliveries SET updated_at = updated_at - ${DAY}`);
    db.exec(`UPDATE idempotency_keys SET created_at = created_at - ${DAY + 60_000}`);
  });
  expect(day).toMatchObject({ outbox: 0, keys: 0, deliveries: drained.deliveries, cashIns: N });
  // Eight days on: the ended deliveries are gone too.
  const pruned = await later((db) => {
    db.exec(`UPDATE webhook_deliveries SET updated_at = updated_at - ${7 * DAY}`);
  });
  expect(pruned).toMatchObject({ outbox: 0, deliveries: 0, keys: 0, cashIns: N });
  const perTx = (bytes: number) => Math.round(bytes / N);
  console.log(
    `footprint: ${N} paid Cash-Ins, live bytes each: ${perTx(drained.bytes)} once drained ` +
      `(outbox ${drained.outbox}, deliveries ${drained.deliveries}, keys ${drained.keys}), ` +
      `${perTx(day.bytes)} a day later, ${perTx(pruned.bytes)} once pruned\n` +
      `  by table, drained: ${JSON.stringify(drained.tables)}\n` +
      `  by table, a day later: ${JSON.stringify(day.tables)}\n` +
      `  by table, pruned: ${JSON.stringify(pruned.tables)}`,
  );
  // The bound holds from the day after, while the deliveries are still listed.
  expect(perTx(day.bytes)).toBeLessThanOrEqual(1_800);
  expect(perTx(pruned.bytes)).toBeLessThanOrEqual(1_100);

  // Archived (POST …/archive, before = now): the Cash-Ins leave for R2, their index stays.
  runtime = await start();
  const archivedRes = await api(`/admin/clients/${client.clientId}/archive`, {
    method: 'POST',
    headers: ADMIN,
    body: JSON.stringify({ before: new Date().toISOString() }),
  });
  expect(archivedRes.status).toBe(200);
  expect(await archivedRes.json()).toEqual({ archivedTransactions: N });
  await runtime.dispose();
  const archived = inspect();
  expect(archived.cashIns).toBe(0);
  const index = archived.tables.archive_index ?? 0;
  console.log(
    `footprint archived: ${perTx(archived.bytes)} live bytes each, ${perTx(archived.grown)} beyond every ` +
      `table's and index's root page (index ${index}); by table: ${JSON.stringify(archived.tables)}`,
  );
  // Cash-Ins and their ledger entries are in R2: what stays per transaction is its index entries
  // (4 ids, 47-bit keys) and its share of a manifest row; the rest are fixed pages (one root page per
  // table and index).
  expect(archived.tables.ledger_entries ?? 0).toBeLessThanOrEqual(10); // its 3 root pages only
  expect(index).toBeLessThanOrEqual(64);
  expect(perTx(archived.grown)).toBeLessThanOrEqual(64);
  expect(perTx(archived.bytes)).toBeLessThanOrEqual(240);
}, 600_000);
