/**
 * `npm run check:structure`'s table-ownership rule (docs/architecture.md, Stores): the tree as it
 * is passes with every ledger table named only in its store; a copy of the tree where one module
 * outside a store names a table — as SQL text, as a quoted name or as its drizzle object — fails,
 * naming the module, the table and its store. No pending list, no exception: a staging module and
 * an archive module fail like any other. Its raw-SQL rule for tests: a test file off its list that runs
 * raw SQL fails, and so does a listed one that no longer does. Its line-length rule: a line over 160
 * characters in src/, durable-objects/ or scripts/ fails, named by file and line.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';

function check(root: string) {
  const run = spawnSync(process.execPath, [path.join(root, 'scripts/check-structure.mjs')], {
    encoding: 'utf8',
  });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

/** A copy of the tree the check reads, made before the describe's tests, removed after them. */
function treeCopy(prefix: string): { dir: string } {
  const tree = { dir: '' };
  beforeAll(() => {
    tree.dir = mkdtempSync(path.join(tmpdir(), prefix));
    for (const dir of ['src', 'durable-objects', 'scripts', 'test'])
      cpSync(path.join(ROOT, dir), path.join(tree.dir, dir), { recursive: true });
  });
  afterAll(() => rmSync(tree.dir, { recursive: true, force: true }));
  return tree;
}

describe('check:structure, table ownership', () => {
  const tree = treeCopy('structure-');

  it('passes on the tree: every table named only in its store', () => {
    const { status, out } = check(ROOT);
    expect(status, out).toBe(0);
    expect(out).toMatch(/tables: (\d+) of \1 tables named only in their store\n/);
    expect(out).not.toMatch(/pending|not moved/);
  });

  it.each([
    [
      'durable-objects/staging/bench-seed.ts',
      "export const probe = (s: SqlStorage) => s.exec('SELECT count(*) FROM ledger_entries');",
      /bench-seed\.ts names the table ledger_entries \(its SQL name\) outside its store durable-objects\/ledger\/ledger\/ledger-store\.ts/,
    ],
    [
      'durable-objects/ledger/archive/archive.ts',
      "export const probe = 'archive_segments';",
      /archive\.ts names the table archive_segments \(its SQL name\) outside its store durable-objects\/ledger\/archive\/archive-store\.ts/,
    ],
    [
      'durable-objects/ledger/reads/view-sql.ts',
      "import { cashIns } from '../schema';\nexport const probe = cashIns;",
      /view-sql\.ts names the table cash_ins \(its drizzle object cashIns\) outside its store durable-objects\/ledger\/cash-in\/cash-in-store\.ts/,
    ],
  ])('fails when %s names a table outside its store', (file, line, message) => {
    const target = path.join(tree.dir, file);
    cpSync(path.join(ROOT, file), target);
    appendFileSync(target, `\n${line}\n`);
    try {
      const { status, out } = check(tree.dir);
      expect(status, out).toBe(1);
      expect(out).toMatch(message);
    } finally {
      cpSync(path.join(ROOT, file), target);
    }
  });

  it.each([
    ['src/api/cash-out-batch/create-cash-out-batch.ts', `export const probe = '${'x'.repeat(140)}';`],
    ['scripts/serve.mjs', `// ${'x'.repeat(158)}`],
  ])('fails on a line over 160 characters in %s, naming the file and line', (file, line) => {
    const target = path.join(tree.dir, file);
    cpSync(path.join(ROOT, file), target);
    appendFileSync(target, `\n${line}\n`);
    try {
      const { status, out } = check(tree.dir);
      expect(status, out).toBe(1);
      expect(out).toContain(`${file}:`);
      expect(out).toContain(`: ${line.length} characters (at most 160)`);
    } finally {
      cpSync(path.join(ROOT, file), target);
    }
  });
});

describe('check:structure, raw SQL in tests', () => {
  const tree = treeCopy('structure-raw-');

  it('passes on the tree: at most 10 test files run raw SQL, each named on purpose', () => {
    const { status, out } = check(ROOT);
    expect(status, out).toBe(0);
    const [, onPurpose] = /tests: (\d+) files run raw SQL on purpose \(at most 10\)/.exec(out) ?? [];
    expect(Number(onPurpose)).toBeLessThanOrEqual(10);
  });

  it.each([
    ["await sqlRows(id, 'SELECT count(*) AS n FROM cash_ins');", 'sqlRows'],
    ["state.storage.sql.exec('DELETE FROM tasks');", 'storage.sql.exec'],
    ["await env.DB.prepare('SELECT 1 FROM clients').all();", 'a D1 prepare'],
  ])('fails when a test file not on the list runs raw SQL (%s)', (line) => {
    const file = 'test/api/cash-in/happy-lists.test.ts';
    const target = path.join(tree.dir, file);
    appendFileSync(target, `\n${line}\n`);
    try {
      const { status, out } = check(tree.dir);
      expect(status, out).toBe(1);
      expect(out).toMatch(/happy-lists\.test\.ts runs raw SQL: read through test\/support\/ledger-reads\.ts/);
    } finally {
      cpSync(path.join(ROOT, file), target);
    }
  });

  it('fails when a listed file no longer runs raw SQL, so the list cannot rot', () => {
    const file = 'test/storage/idempotency-codec.test.ts';
    const target = path.join(tree.dir, file);
    writeFileSync(target, '// moved onto the helpers\n');
    try {
      const { status, out } = check(tree.dir);
      expect(status, out).toBe(1);
      expect(out).toMatch(/idempotency-codec\.test\.ts no longer runs raw SQL: take it off the list/);
    } finally {
      cpSync(path.join(ROOT, file), target);
    }
  });
});
