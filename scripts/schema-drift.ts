/**
 * `npm run db:drift`: do the migrations build the schema the code declares? For each database (D1,
 * the ClientLedger's and the HealthAnalyzer's SQLite), every migration is applied in order to a
 * fresh in-memory SQLite (Node's built-in `node:sqlite`, the engine D1 and Durable Objects run), and
 * what it holds is compared, fact by fact, with drizzle's schema of the same database: each column's
 * type, NOT NULL and default, each primary key, each index's columns, uniqueness and WHERE. A column
 * added to schema.ts without a migration, or a migration that forgot an index, shows here before
 * a deployed database meets it. Exits 1 on drift. test/node/schema-drift.test.ts runs the same.
 *
 * What drizzle's SQLite schema cannot say is listed in EXPECTED, each with its reason; an expected
 * difference that no longer occurs is reported too, so the list cannot outlive its reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { generateSQLiteDrizzleJson } from 'drizzle-kit/api';
import { exitWithUsageIfAsked } from './usage.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Database {
  name: string;
  schema: string;
  migrations: string;
  /** Facts only the migrations have, keyed as in `facts`, with the reason drizzle cannot hold them. */
  expected: Record<string, string>;
}

const WITHOUT_ROWID = 'drizzle cannot declare WITHOUT ROWID; the migration writes it by hand';

export const DATABASES: Database[] = [
  { name: 'D1', schema: 'src/db/schema.ts', migrations: 'migrations', expected: {} },
  {
    name: 'ClientLedger',
    schema: 'durable-objects/ledger/schema.ts',
    migrations: 'durable-objects/ledger/migrations',
    expected: {
      'archive_index.hash': 'archive_index is read and written as raw SQL only (archive-index-store.ts)',
      'archive_index.segment': 'archive_index is read and written as raw SQL only (archive-index-store.ts)',
      'archive_index primary key':
        'archive_index is read and written as raw SQL only (archive-index-store.ts)',
      'archive_index without rowid': WITHOUT_ROWID,
      'archive_delivery_index without rowid': WITHOUT_ROWID,
      'archive_delivery_queue without rowid': WITHOUT_ROWID,
      'archive_stale without rowid': WITHOUT_ROWID,
      'archive_totals without rowid': WITHOUT_ROWID,
      'cash_out_batches without rowid': WITHOUT_ROWID,
      'archive_reference_pending without rowid': WITHOUT_ROWID,
      'archive_runs without rowid': WITHOUT_ROWID,
      'webhook_parked without rowid': WITHOUT_ROWID,
    },
  },
  {
    name: 'HealthAnalyzer',
    schema: 'durable-objects/health/schema.ts',
    migrations: 'durable-objects/health/migrations',
    expected: {},
  },
];

/** Facts are compared as text: quotes, table prefixes, spaces and case do not matter. */
const norm = (sql: string) =>
  sql
    .replace(/[`"\s]/g, '')
    .replace(/\b\w+\.(?=\w)/g, '')
    .toLowerCase();

type Row = Record<string, unknown>;
type Facts = Map<string, string>;

/** Everything one database holds after its migrations, as facts. */
export function migratedFacts(dir: string): Facts {
  const db = new DatabaseSync(':memory:');
  for (const file of readdirSync(path.resolve(ROOT, dir))
    .filter((name) => name.endsWith('.sql'))
    .sort())
    for (const statement of readFileSync(path.resolve(ROOT, dir, file), 'utf8').split(
      '--> statement-breakpoint',
    ))
      if (statement.trim()) db.exec(statement);
  const all = (sql: string, ...args: string[]) => db.prepare(sql).all(...args) as Row[];
  const facts: Facts = new Map();
  const tables = all(
    `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
       AND name NOT IN ('d1_migrations', '__drizzle_migrations')`,
  );
  for (const table of tables) {
    const name = String(table.name);
    const columns = all(`SELECT * FROM pragma_table_xinfo(?)`, name);
    for (const c of columns)
      facts.set(
        `${name}.${c.name}`,
        `${String(c.type).toLowerCase()} notnull=${Boolean(c.notnull)} default=${c.dflt_value === null ? '-' : norm(String(c.dflt_value))}`,
      );
    const key = columns.filter((c) => Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk));
    facts.set(`${name} primary key`, key.map((c) => c.name).join(','));
    if (/WITHOUT\s+ROWID\s*$/i.test(String(table.sql))) facts.set(`${name} without rowid`, 'yes');
    for (const index of all(`SELECT * FROM pragma_index_list(?)`, name)) {
      if (index.origin === 'pk') continue;
      const sql = String(
        all(`SELECT sql FROM sqlite_master WHERE name = ?`, String(index.name))[0]?.sql ?? '',
      );
      const on =
        /\bON\s+\S+\s*\(([\s\S]*?)\)\s*(?:WHERE\b|$)/i.exec(sql)?.[1] ??
        all(`SELECT name FROM pragma_index_info(?)`, String(index.name))
          .map((c) => c.name)
          .join(',');
      const where = /\bWHERE\b([\s\S]*)$/i.exec(sql)?.[1] ?? '';
      const label = index.origin === 'u' ? `unique(${norm(on)})` : `index ${index.name}`;
      facts.set(`${name} ${label}`, `${norm(on)} unique=${Boolean(index.unique)} where=${norm(where)}`);
    }
  }
  return facts;
}

interface DrizzleColumn {
  name: string;
  type: string;
  primaryKey: boolean;
  notNull: boolean;
  default?: unknown;
}
interface DrizzleTable {
  name: string;
  columns: Record<string, DrizzleColumn>;
  indexes: Record<string, { name: string; columns: string[]; isUnique: boolean; where?: string }>;
  compositePrimaryKeys: Record<string, { columns: string[] }>;
  uniqueConstraints: Record<string, { columns: string[] }>;
}

/** What drizzle's schema module declares, as the same facts. */
export async function declaredFacts(schemaFile: string): Promise<Facts> {
  const schema = (await import(path.resolve(ROOT, schemaFile))) as Record<string, unknown>;
  const json = (await generateSQLiteDrizzleJson(schema)) as unknown as {
    tables: Record<string, DrizzleTable>;
  };
  const facts: Facts = new Map();
  for (const table of Object.values(json.tables)) {
    for (const c of Object.values(table.columns))
      facts.set(
        `${table.name}.${c.name}`,
        `${c.type.toLowerCase()} notnull=${c.notNull || c.primaryKey} default=${c.default === undefined ? '-' : norm(String(c.default))}`,
      );
    const composite = Object.values(table.compositePrimaryKeys ?? {})[0];
    const single = Object.values(table.columns).filter((c) => c.primaryKey);
    facts.set(`${table.name} primary key`, (composite?.columns ?? single.map((c) => c.name)).join(','));
    for (const i of Object.values(table.indexes))
      facts.set(
        `${table.name} index ${i.name}`,
        `${norm(i.columns.join(','))} unique=${i.isUnique} where=${norm(i.where ?? '')}`,
      );
    for (const u of Object.values(table.uniqueConstraints ?? {}))
      facts.set(
        `${table.name} unique(${norm(u.columns.join(','))})`,
        `${norm(u.columns.join(','))} unique=true where=`,
      );
  }
  return facts;
}

/** Every difference between migrations and schema that EXPECTED does not explain, and every stale entry. */
export async function drift(database: Database): Promise<{ facts: number; problems: string[] }> {
  const [migrated, declared] = [migratedFacts(database.migrations), await declaredFacts(database.schema)];
  const keys = [...new Set([...migrated.keys(), ...declared.keys()])].sort();
  const problems: string[] = [];
  for (const key of keys) {
    const [ours, theirs] = [migrated.get(key), declared.get(key)];
    const differs = ours !== theirs;
    if (differs && !(key in database.expected))
      problems.push(`${database.name} ${key}: migrations ${ours ?? '(none)'}, schema ${theirs ?? '(none)'}`);
  }
  for (const key of Object.keys(database.expected))
    if (migrated.get(key) === declared.get(key))
      problems.push(`${database.name} ${key}: listed as expected drift, but migrations and schema agree`);
  return { facts: keys.length, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  exitWithUsageIfAsked(`Usage: npm run db:drift

Applies every D1 and Durable Object migration to a fresh in-memory SQLite database and compares
the result with drizzle's schema modules, fact by fact (columns, keys, indexes). Exits 1 on drift.`);
  let failed = false;
  for (const database of DATABASES) {
    const { facts, problems } = await drift(database);
    const expected = Object.keys(database.expected).length;
    console.log(
      `${database.name}: ${facts} facts, ${problems.length} drift` +
        (expected > 0
          ? ` (${expected} expected: ${[...new Set(Object.values(database.expected))].join('; ')})`
          : ''),
    );
    for (const problem of problems) console.log(`  ${problem}`);
    failed ||= problems.length > 0;
  }
  process.exit(failed ? 1 : 0);
}
