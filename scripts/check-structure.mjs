/**
 * `npm run check:structure` (part of `npm run check`): the structure map, measured on the import
 * graph of src/ and durable-objects/ (every `import`/`export … from`, type-only ones included).
 * Fails on an import that runs up a layer or sideways between directories of one layer, on any
 * circle of imports, on a source file over 400 lines, on a line over 160 characters in src/,
 * durable-objects/ or scripts/ (long texts are split or live in docs), on a staging-only module
 * reachable from the production entry (src/index.ts), on a ClientLedger table named outside its store
 * (the table ownership rule below; docs/architecture.md, Stores), and on a test file running raw SQL
 * off its list (docs/architecture.md, Tests read through the stores). Layers, lowest first; a module may import
 * its own directory and anything in a lower layer:
 *
 *   0 security                  Web Crypto helpers
 *   1 domain                    pure rules: money, documents, BR Code, transaction state, error codes
 *   2 health, infra, config     the pure PIX health engine; logging; configuration checks
 *   3 db                        D1 stores (drizzle)
 *   4 partners, webhooks        settlement partner adapters; webhook signing and sending
 *   5 schemas, contract         valibot request schemas; the HTTP answer of each error code
 *   6 durable-objects           ClientLedger, HealthAnalyzer and their stores
 *   7 cron                      scheduled jobs: the ledger sweep, partner Pix, unapplied, reconciliation
 *   8 openapi                   the document, built from the schemas
 *   9 http, console, queues     the edges: HTTP plumbing, operator console, queue consumers
 *  10 api                       one file per operation; the route table, router and document built from it
 *  11 index                     the production Worker's entry points
 *  12 staging                   the staging Worker's entry: production's plus staging-only machinery
 *
 * A resource module (src/api/<resource>/) is a vertical slice: each file sits in the layer of its
 * role, so the slice's files still only import down: `schemas*.ts` with request schemas code below
 * the API reuses (5), `shared.ts` with what several operations share (views, examples) and
 * `openapi*.ts` with operations declared as one list (8), `handlers*.ts` with their HTTP handlers
 * (9), and an operation's own file (schemas, OpenAPI operation and handler together) and
 * `routes.ts` listing the resource's routes (10).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run check:structure

Checks the import graph of src/ and durable-objects/: no import up a layer or sideways, no cycle,
no source file over 400 lines, no code line over 160 characters in src/, durable-objects/ and scripts/
(the layers are listed at the top of scripts/check-structure.mjs), each ClientLedger table named only
in its store, the schema and the migrations, and raw SQL in at most 10 test files, each listed with
its reason.
`);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_LINES = 400;
const MAX_LINE_CHARS = 160;
const LAYERS = [
  ['src/security'],
  ['src/domain'],
  ['src/health', 'src/infra', 'src/config.ts'],
  ['src/db'],
  ['src/partners', 'src/webhooks'],
  ['src/schemas', 'src/contract'],
  ['durable-objects'],
  ['src/cron'],
  ['src/openapi'],
  ['src/http', 'src/console', 'src/queues'],
  ['src/api'],
  ['src/index.ts'],
  ['src/staging'],
];

/** The layer part a resource module's file belongs to by its role (see the header). */
const ROLES = [
  [/^schemas[\w-]*\.ts$/, 'src/schemas'],
  [/^openapi[\w-]*\.ts$/, 'src/openapi'],
  [/^handlers[\w-]*\.ts$/, 'src/http'],
  [/^shared\.ts$/, 'src/openapi'],
];

function sources(dir) {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sources(rel);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** The directory (or root file) of the layer table a module belongs to. */
function home(file) {
  const slice = /^src\/api\/[^/]+\/([^/]+)$/.exec(file);
  const role = slice && ROLES.find(([pattern]) => pattern.test(slice[1]));
  if (role) file = `${role[1]}/${slice[1]}`;
  for (const [level, layer] of LAYERS.entries()) {
    for (const part of layer) if (file === part || file.startsWith(`${part}/`)) return { level, part };
  }
  return undefined;
}

function resolve(from, spec) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
    try {
      if (statSync(path.join(ROOT, candidate)).isFile()) return candidate;
    } catch {}
  }
  return undefined;
}

const IMPORT = /^(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'|^import\s+'(\.[^']+)'/gms;
const files = [...sources('src'), ...sources('durable-objects')];
const graph = new Map();
const problems = [];
for (const file of files) {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const lines = text.split('\n').length;
  if (lines > MAX_LINES) problems.push(`${file}: ${lines} lines (at most ${MAX_LINES})`);
  const targets = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    const target = resolve(file, spec);
    if (!target) continue; // text assets (.sql, .css) and the like
    if (target.endsWith('.ts')) targets.push(target);
  }
  graph.set(file, targets);
  const from = home(file);
  for (const target of targets) {
    const to = home(target);
    if (!from || !to) {
      problems.push(`${file} -> ${target}: not in the layer table`);
      continue;
    }
    if (to.level > from.level)
      problems.push(`${file} -> ${target}: imports up (layer ${from.level} -> ${to.level})`);
    else if (to.level === from.level && to.part !== from.part)
      problems.push(`${file} -> ${target}: imports sideways within layer ${from.level}`);
  }
}

// Honest sizes: a file kept under MAX_LINES by packing text onto a few very long lines is not small.
function codeFiles(dir) {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (name === 'node_modules') return [];
    if (statSync(path.join(ROOT, rel)).isDirectory()) return codeFiles(rel);
    return /\.(ts|mts|js|mjs|cjs)$/.test(name) ? [rel] : [];
  });
}
for (const file of ['src', 'durable-objects', 'scripts'].flatMap(codeFiles)) {
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.length <= MAX_LINE_CHARS) continue;
    problems.push(`${file}:${i + 1}: ${line.length} characters (at most ${MAX_LINE_CHARS})`);
  }
}

// Circles: Tarjan's strongly connected components of more than one module (or a self-import).
let index = 0;
const stack = [];
const state = new Map();
function connect(v) {
  state.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!state.has(w)) {
      connect(w);
      state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
    } else if (state.get(w).onStack) state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
  }
  if (state.get(v).low === state.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v))
      problems.push(`circle of imports: ${component.sort().join(', ')}`);
  }
}
for (const file of graph.keys()) if (!state.has(file)) connect(file);

// The production entry reaches no staging-only module, not even for a type: everything it imports,
// directly or not, is production code (the bundle itself is checked by `npm run check:bundle`).
const STAGING_ONLY = [
  /^src\/staging\//,
  /^durable-objects\/staging\//,
  /^src\/api\/[^/]+\/(?:routes-staging|handlers-faults|handlers-open-finance)\.ts$/,
  /^src\/api\/sandbox\/(?:handlers|routes)\.ts$/,
  /^src\/partners\/(?:sandbox|faults)\.ts$/,
  /^src\/db\/(?:sandbox-transfers|partner-faults)\.ts$/,
];
const reached = new Set(['src/index.ts']);
for (const file of reached) for (const target of graph.get(file) ?? []) reached.add(target);
const stagingReached = [...reached].filter((file) => STAGING_ONLY.some((pattern) => pattern.test(file)));
for (const file of stagingReached.sort()) problems.push(`src/index.ts reaches the staging-only ${file}`);
if (!files.some((file) => STAGING_ONLY.some((pattern) => pattern.test(file))))
  problems.push('no staging-only module matched: is the STAGING_ONLY list out of date?');

// Table ownership: a ClientLedger table is named (as SQL text after a statement keyword, as a quoted
// name, or as its drizzle object imported from the schema) only by the store that owns it, the
// schema (schema*.ts) and the migrations. Changing a column then touches one store.
const LEDGER = 'durable-objects/ledger/';
const STORES = {
  'cash-in/cash-in-store.ts': { cash_ins: 'cashIns', archived_disputes: 'archivedDisputes' },
  'cash-out/cash-out-store.ts': { cash_outs: 'cashOuts' },
  'cash-out/cash-out-batch-store.ts': { cash_out_batches: 'cashOutBatches' },
  'ledger/ledger-store.ts': { ledger_entries: 'ledgerEntries', accounts: 'accounts', holds: 'holds' },
  'cash-out/limit-totals.ts': { limit_totals: 'limitTotals' },
  'webhooks/outbox-store.ts': { outbox: 'outbox', webhook_deliveries: 'webhookDeliveries' },
  'webhooks/parking-store.ts': {
    webhook_parked_segments: 'webhookParkedSegments',
    webhook_parked: 'webhookParked',
  },
  'archive/archive-store.ts': {
    archive_segments: 'archiveSegments',
  },
  'archive/archive-totals-store.ts': { archive_totals: 'archiveTotals' },
  'archive/archive-runs-store.ts': { archive_runs: 'archiveRuns' },
  'archive/archive-stale-store.ts': { archive_stale: 'archiveStale' },
  'archive/archive-queue-store.ts': { archive_delivery_queue: 'archiveDeliveryQueue' },
  'archive/archive-index-store.ts': {
    archive_delivery_index: 'archiveDeliveryIndex',
    // Created by its migration only (no drizzle object): its SQL name is checked all the same.
    archive_index: 'archiveIndex',
  },
  'archive/reference-filter.ts': {
    archive_reference_filters: 'archiveReferenceFilters',
    archive_reference_pending: 'archiveReferencePending',
  },
  'archive/given-up-store.ts': { archive_given_up: 'archiveGivenUp' },
  'ledger/idempotency.ts': { idempotency_keys: 'idempotencyKeys' },
  'scheduler.ts': { tasks: 'tasks' },
  'cash-in/unapplied-store.ts': {
    unapplied_receipts: 'unappliedReceipts',
    suspense_entries: 'suspenseEntries',
  },
  'settings-store.ts': { settings: 'settings' },
  'internal-codes.ts': { code_counter: 'codeCounter', cycle_codes: 'cycleCodes' },
  'audit-outbox-store.ts': { audit_outbox: 'auditOutbox' },
  'recurrence/recurrence-store.ts': { recurrences: 'recurrences', recurrence_charges: 'recurrenceCharges' },
};
const SCHEMA_IMPORT = /import\s*\{([^}]*)\}\s*from\s*'[./]*(?:ledger\/)?schema(?:-[a-z]+)?(?:\.ts)?'/g;
const tableNames = [];
for (const [store, tables] of Object.entries(STORES)) {
  for (const [sqlName, drizzleName] of Object.entries(tables)) {
    tableNames.push({ store: LEDGER + store, sqlName, drizzleName });
  }
}
for (const file of files) {
  if (!file.startsWith('durable-objects/')) continue;
  if (/\/schema(?:-[a-z]+)?\.ts$/.test(file) || file.includes('/migrations/')) continue;
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const imported = new Set();
  for (const match of text.matchAll(SCHEMA_IMPORT)) {
    if (/^import\s+type\b/.test(match[0])) continue;
    for (const name of match[1].split(','))
      imported.add(
        name
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0],
      );
  }
  const namespace = /import\s+\*\s+as\s+(\w+)\s+from\s*'[./]*(?:ledger\/)?schema(?:\.ts)?'/.exec(text)?.[1];
  for (const { store, sqlName, drizzleName } of tableNames) {
    if (file === store) continue;
    if (namespace && new RegExp(`\\b${namespace}\\.${drizzleName}\\b`).test(text)) imported.add(drizzleName);
    const sqlText = new RegExp(
      `\\b(?:FROM|JOIN|INTO|UPDATE|TABLE|ON)\\s+${sqlName}\\b|['"\`]${sqlName}['"\`]`,
    );
    const named = sqlText.test(text)
      ? 'its SQL name'
      : imported.has(drizzleName)
        ? `its drizzle object ${drizzleName}`
        : null;
    if (!named) continue;
    problems.push(`${file} names the table ${sqlName} (${named}) outside its store ${store}`);
  }
}

// Tests read a ledger through typed helpers over the stores (test/support/ledger-reads.ts) and stage
// moments through ledger-writes.ts, so a renamed column touches its store, not the tests. Raw SQL
// (sqlRows, storage.sql.exec, a D1 prepare) stays only where a test corrupts or inspects storage on
// purpose, in at most MAX_RAW_SQL files named below; PENDING_RAW_SQL only shrinks.
const MAX_RAW_SQL = 10;
const RAW_SQL =
  /\bsqlRows\s*[<(]|\bqueryPlan\s*\([^,]+,\s*['"`]|\bsql\.exec\b|storage\.sql(?!\s*[,)])|\b(?:DB|db)\.(?:prepare|exec)\s*\(/;
const RAW_SQL_ON_PURPOSE = [
  'test/api/account/happy-wallet.test.ts', // a trigger fails a transfer's second leg
  'test/api/operators/happy-audit.test.ts', // D1's append-only triggers refuse changes
  'test/api/operators/happy-change-audit.test.ts', // a trigger refuses the audit record
  'test/node/footprint.test.ts', // measures the object's pages (dbstat) in its SQLite file
  'test/partners/daily-reconciliation.test.ts', // books made to differ from the partner's
  'test/security/fixtures.ts', // every table of a client, before and after a refused request
  'test/storage/idempotency-codec.test.ts', // how a key's answer is stored, a legacy one, and its bytes
  'test/storage/prune-steps.test.ts', // each pruning step's plan and rows made old
  'test/storage/prune.test.ts', // rows made old, legacy keys written as is, the pruning plan, a delivery's bytes
  'test/support/invariants.test.ts', // each invariant shown failing on damaged books
];
// Files left to move onto the helpers (none now; a file arriving with raw SQL waits here, never longer).
const PENDING_RAW_SQL = [];
// The tools: sqlRows and queryPlan; a table renamed away on purpose (storage-faults.ts); and this
// check's own test, whose fixtures are what the check refuses.
const RAW_SQL_TOOLS = [
  'test/support/ledger.ts',
  'test/support/storage-faults.ts',
  'test/node/check-structure.test.ts',
];
const rawSqlFiles = sources('test').filter(
  (file) => !RAW_SQL_TOOLS.includes(file) && RAW_SQL.test(readFileSync(path.join(ROOT, file), 'utf8')),
);
const allowedRaw = new Set([...RAW_SQL_ON_PURPOSE, ...PENDING_RAW_SQL]);
for (const file of rawSqlFiles)
  if (!allowedRaw.has(file))
    problems.push(
      `${file} runs raw SQL: read through test/support/ledger-reads.ts, stage through ledger-writes.ts`,
    );
for (const file of allowedRaw)
  if (!rawSqlFiles.includes(file))
    problems.push(`${file} no longer runs raw SQL: take it off the list in scripts/check-structure.mjs`);
if (RAW_SQL_ON_PURPOSE.length > MAX_RAW_SQL)
  problems.push(`${RAW_SQL_ON_PURPOSE.length} test files run raw SQL on purpose (at most ${MAX_RAW_SQL})`);

const edges = [...graph.values()].reduce((n, t) => n + t.length, 0);
if (problems.length > 0) {
  for (const p of problems) console.error(`structure: ${p}`);
  console.error(`structure: ${problems.length} problem(s) in ${files.length} modules, ${edges} imports`);
  process.exit(1);
}
console.log(
  `structure: ${files.length} modules, ${edges} imports, 0 up, 0 sideways, 0 circles, none over ${MAX_LINES} lines, ` +
    `no line over ${MAX_LINE_CHARS} characters; ` +
    `src/index.ts reaches ${reached.size} modules, none staging-only`,
);
console.log(`tables: ${tableNames.length} of ${tableNames.length} tables named only in their store`);
console.log(
  `tests: ${RAW_SQL_ON_PURPOSE.length} files run raw SQL on purpose (at most ${MAX_RAW_SQL}), ` +
    `${PENDING_RAW_SQL.length} still to move: ${PENDING_RAW_SQL.join(', ') || 'none'}`,
);
