/**
 * How many bytes a transaction keeps in its client's object (issue 16): 1,500 paid Cash-Ins through
 * the HTTP API of the real runtime, measured in used SQLite pages of the object's own database file
 * (page_count − freelist_count, not the file size; read with node:sqlite while the runtime is down),
 * once the outbox has drained (observations and payloads gone as their job ended), a day later
 * (idempotency keys gone, deliveries still inside their 7 days) and once every transient row's window has passed (time moved by back-dating
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
/**
 * Issue 16's target: ≤ 64 B per archived transaction once its keys and deliveries are gone. The index
 * held 3 ids of a paid Cash-In (internalCode, externalReference, endToEndId; a TxId with a random
 * code carries it and is found through it) as 47-bit hashes, ~14 B each with their cell pointer.
 */
const INDEX_BOUND = 64;
/**
 * Issue 41's target: at most 1 B kept in the object per archived transaction. The ids of archived
 * transactions are in the client's archive registry (other objects, durable-objects/
 * archive-registry.ts); what grows in the object is the manifest, one row per 200.
 */
const ARCHIVED_BOUND = 1;
/**
 * The externalReference filter at this N: 33 − log2(1,500) + 1.5 ≈ 24 bits (3 B) per reference,
 * in two ranges of ~2.2 KB, one leaf page each (4,096 B): 5.5 B measured, ≤ 6 B (8 at 34 bits). Per reference it
 * falls as n grows (≈ 0.28 B at ten years of 1,000,000 a day, 0.19 B per transaction with the
 * Cash-Outs, which keep none; test/domain/hash-set-codec.test.ts measures it at that density). One
 * key per Cash-In: internal codes are unique by construction and kept in no filter (the internalCode
 * filter an older version kept beside it doubled this).
 */
const FILTER_BOUND = 6;
const FILTERED_KEYS = 1;
const DAY = 86_400_000;
const ADMIN = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' };
const works: string[] = [];
afterAll(() => {
  for (const w of works) rmSync(w, { recursive: true, force: true });
});
function newWork(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'connectpsp-footprint-'));
  works.push(dir);
  return dir;
}
let work = newWork();

const start = () => startTestRuntime(work);

/** The one ClientLedger database of this runtime (one client is onboarded). */
function ledgerFile(): string {
  const root = path.join(work, 'state', 'v3', 'do');
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
      // The externalReference filter's pages beyond its root pages (table and primary key): it costs
      // 33 − log2 n + 1.5 bits per archived reference (docs/storage-schema.md), so is bounded apart.
      filterGrown:
        (one(
          "SELECT count(*) FROM dbstat d JOIN sqlite_schema m ON m.name = d.name WHERE m.tbl_name = 'archive_reference_filters'",
        ) -
          one(
            "SELECT count(*) FROM sqlite_schema WHERE tbl_name = 'archive_reference_filters' AND rootpage > 0",
          )) *
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

type Runtime = Awaited<ReturnType<typeof start>>;
type Inspected = ReturnType<typeof inspect>;

interface Client {
  clientId: string;
  clientSecret: string;
  applicationToken: string;
}

/** Onboards one client on a running runtime; returns it and its API headers. */
async function onboard(runtime: Runtime) {
  const res = await fetch(`${runtime.url}/admin/clients`, {
    method: 'POST',
    headers: ADMIN,
    body: '{"name":"Loja Medida Ltda"}',
  });
  const client = (await res.json()) as Client;
  return { client, headers: await login(runtime, client) };
}

/** The client's API headers (a fresh token: one does not outlive a restart). */
async function login(runtime: Runtime, client: Client) {
  const res = await fetch(`${runtime.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret }),
  });
  const { accessToken } = (await res.json()) as { accessToken: string };
  return {
    authorization: `Bearer ${accessToken}`,
    applicationtoken: client.applicationToken,
    'content-type': 'application/json',
  };
}

/** N paid Cash-Ins over HTTP, 25 at a time. */
async function payMany(runtime: Runtime, headers: Record<string, string>) {
  const api = (p: string, init: RequestInit = {}) => fetch(`${runtime.url}${p}`, init);
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
}

/** Drained: the analyzer took every observation (created + settled of each). */
async function drain(runtime: Runtime) {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const res = await fetch(`${runtime.url}/admin/health/analyzer`, { headers: ADMIN });
    const analyzer = (await res.json()) as { accepted: number };
    if (analyzer.accepted >= 2 * N) break;
    if (Date.now() > deadline) throw new Error(`outbox not drained: ${analyzer.accepted}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Cron sweeps run each ledger's tasks and pruning; a full step schedules the next one itself. */
async function sweeps(runtime: Runtime, times = 8) {
  for (let i = 0; i < times; i++) {
    expect(await runtime.scheduled()).toEqual(['ok']);
    await new Promise((r) => setTimeout(r, 1_500));
  }
}

/** Runs of the runtime `rerunUntil` allows before it calls the work stuck rather than slow. */
const RERUNS = 10;

/**
 * The file once `done` holds for it: read while the runtime is down, and between reads the runtime
 * run again with its cron sweeps (the ledger's tasks, pruning, outbox flushes), at least once when
 * `runFirst`. A busy machine takes more runs, never another outcome; no run is timed.
 */
async function rerunUntil(what: string, done: (file: Inspected) => boolean, runFirst: boolean) {
  for (let run = 0; ; run++) {
    if (run > 0 || runFirst) {
      const runtime = await start();
      await sweeps(runtime);
      await runtime.dispose();
    }
    const file = inspect();
    if (done(file)) return file;
    if (run >= RERUNS) {
      const { outbox, unpublished, deliveries, keys, cashIns } = file;
      const counts = JSON.stringify({ outbox, unpublished, deliveries, keys, cashIns });
      throw new Error(`${what}: not after ${run} runs of the runtime; the file has ${counts}`);
    }
  }
}

it(`keeps at most 2,100 live bytes per paid Cash-In once the outbox has drained, keys and deliveries still kept (${N} over HTTP)`, async () => {
  let runtime = await start();
  const { client, headers } = await onboard(runtime);
  const api = (p: string, init: RequestInit = {}) => fetch(`${runtime.url}${p}`, init);
  await payMany(runtime, headers);
  await drain(runtime);
  await runtime.dispose();

  // Drained: observations left as the queue took them, payloads as their deliveries ended (no URL:
  // UNDELIVERABLE at once); the deliveries (7 days) and idempotency keys (24 h) are still there.
  const drained = await rerunUntil('the outbox drained', (f) => f.outbox === 0, false);
  expect(drained).toMatchObject({ outbox: 0, deliveries: 2 * N, keys: N, cashIns: N });
  // A Cash-In's idempotency key with its indexes: 177 B measured (2026-11-29), 347 while its answer was
  // stored whole (docs/storage-schema.md, Idempotency keys and delivery lists).
  expect(drained.tables.idempotency_keys).toBeLessThanOrEqual(200);

  /** Time moves on (rows back-dated while the runtime is down), then cron sweeps prune. */
  async function later(what: string, backdate: (db: DatabaseSync) => void, done: (f: Inspected) => boolean) {
    inspect(backdate);
    return rerunUntil(what, done, true);
  }
  // A day on: the idempotency keys (24 h) are gone; the deliveries stay their 7 days.
  const day = await later(
    'the idempotency keys pruned a day on',
    (db) => {
      db.exec(`UPDATE webhook_deliveries SET updated_at = updated_at - ${DAY}`);
      db.exec(`UPDATE idempotency_keys SET created_at = created_at - ${DAY + 60_000}`);
    },
    (f) => f.keys === 0,
  );
  expect(day).toMatchObject({ outbox: 0, keys: 0, deliveries: drained.deliveries, cashIns: N });
  // Eight days on: the ended deliveries are gone too.
  const pruned = await later(
    'the ended deliveries pruned eight days on',
    (db) => {
      db.exec(`UPDATE webhook_deliveries SET updated_at = updated_at - ${7 * DAY}`);
    },
    (f) => f.deliveries === 0,
  );
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
  // At most 2,100 once the outbox has drained, keys and deliveries still kept, and 1,350 once pruned.
  // Re-based from 1,800 / 1,100 (measured 1,756 / ~1,100) when each paid Cash-In began to keep who
  // paid (`paidBy`, docs/contract.md "Who paid": name, document and bank data, ~190 B here, and in
  // its events' payloads) and what banks returned of it: measured 2,029 / 1,303. docs/operating.md.
  expect(perTx(drained.bytes)).toBeLessThanOrEqual(2_100);
  expect(day.bytes).toBeLessThan(drained.bytes);
  expect(perTx(pruned.bytes)).toBeLessThanOrEqual(1_350);

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
      `table's and index's root page (${(archived.grown / N).toFixed(2)} unrounded; index ${index}); by table: ${JSON.stringify(archived.tables)}`,
  );
  // Cash-Ins and their ledger entries are in R2, their ids in the archive registry: what stays per
  // transaction is its share of a manifest row; the rest are fixed pages (one root page per table
  // and index).
  // Its 4 root pages only (4 KiB each, shared by N): the table, its primary key, the account-time
  // index and the devolutions' end-to-end index the daily reconciliation reads.
  expect(archived.tables.ledger_entries ?? 0).toBeLessThanOrEqual(Math.ceil((4 * 4096) / N));
  expect(index).toBeLessThanOrEqual(Math.ceil(4096 / N)); // its root page only
  expect(perTx(archived.grown)).toBeLessThanOrEqual(INDEX_BOUND);
  expect((archived.grown - archived.filterGrown) / N).toBeLessThanOrEqual(ARCHIVED_BOUND);
  expect(archived.filterGrown / (FILTERED_KEYS * N)).toBeLessThanOrEqual(FILTER_BOUND);
  // 248 before the tables added for the audit outbox, recurrences and archived disputes: their root
  // pages are fixed (~20 B each at this N); per-transaction growth is held by the line above. 275
  // before the externalReference filter (archive_reference_filters: its root page and ~25 bits per
  // reference at this N, 33 − log2 N + 1.5 (34 then), which fall as N grows; docs/storage-schema.md).
  expect(perTx(archived.bytes)).toBeLessThanOrEqual(290);
}, 600_000);

it(`archived at once (before = now): at most 800 live bytes per paid Cash-In 2 h later, 64 once keys and deliveries ended (${N} over HTTP)`, async () => {
  work = newWork();
  let runtime = await start();
  await onboard(runtime);
  await runtime.dispose();
  // An empty object: a client onboarded, nothing else (its own runtime: secrets are fresh per start,
  // so a client's credentials do not outlive a restart).
  const empty = inspect();
  work = newWork();
  runtime = await start();
  const { client, headers } = await onboard(runtime);
  await payMany(runtime, headers);
  // Right away: every Cash-In is closed; its deliveries follow as they are adopted and end.
  const res = await fetch(`${runtime.url}/admin/clients/${client.clientId}/archive`, {
    method: 'POST',
    headers: ADMIN,
    body: JSON.stringify({ before: new Date().toISOString() }),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ archivedTransactions: N });
  await drain(runtime);
  await sweeps(runtime, 3);
  await runtime.dispose();
  const archived = await rerunUntil('the outbox drained after the archive', (f) => f.outbox === 0, false);

  /** Time moves on by `ms` (every stored time back-dated while the runtime is down), then sweeps. */
  async function later(ms: number, what: string, done: (f: Inspected) => boolean) {
    inspect((db) => {
      db.exec(`UPDATE outbox SET occurred_at = occurred_at - ${ms}, published_at = published_at - ${ms}`);
      db.exec(
        `UPDATE webhook_deliveries SET created_at = created_at - ${ms}, updated_at = updated_at - ${ms}`,
      );
      db.exec(`UPDATE idempotency_keys SET created_at = created_at - ${ms}`);
      db.exec(`UPDATE archive_segments SET first_time = first_time - ${ms}, last_time = last_time - ${ms}
               WHERE kind = 'delivery'`);
      db.exec(`UPDATE tasks SET due_at = due_at - ${ms}`);
    });
    return rerunUntil(what, done, true);
  }
  const twoHours = await later(
    2 * 3_600_000,
    'the archived Cash-Ins’ deliveries gone two hours on',
    (f) => f.deliveries === 0 && f.outbox === 0,
  );
  expect(twoHours).toMatchObject({ cashIns: 0, deliveries: 0, keys: N, outbox: 0 });
  // 24 h (the keys) and 7 days (the deliveries' operator window) on.
  const gone = await later(8 * DAY, 'the idempotency keys gone eight days on', (f) => f.keys === 0);
  expect(gone).toMatchObject({ cashIns: 0, deliveries: 0, keys: 0, outbox: 0 });
  const perTx = (bytes: number) => Math.round(bytes / N);
  const growth = (x: { bytes: number }) => perTx(x.bytes - empty.bytes);
  const perTable = (x: { tables: Record<string, number> }) => JSON.stringify(x.tables);
  console.log(
    `footprint archived at once: empty object ${empty.bytes} bytes; live bytes each: ` +
      `${perTx(archived.bytes)} just after, ${perTx(twoHours.bytes)} 2 h later (keys ${twoHours.keys}), ` +
      `${perTx(gone.bytes)} after 8 days (growth beyond the empty object ${growth(gone)}, ` +
      `beyond root pages ${perTx(gone.grown)})\n` +
      `  by table, just after: ${perTable(archived)}\n` +
      `  by table, 2 h later: ${perTable(twoHours)}\n` +
      `  by table, 8 days later: ${perTable(gone)}`,
  );
  expect(perTx(twoHours.bytes)).toBeLessThanOrEqual(800);
  expect(growth(gone)).toBeLessThanOrEqual(INDEX_BOUND);
  expect((gone.grown - gone.filterGrown) / N).toBeLessThanOrEqual(ARCHIVED_BOUND);
  expect(gone.filterGrown / (FILTERED_KEYS * N)).toBeLessThanOrEqual(FILTER_BOUND);
}, 600_000);
