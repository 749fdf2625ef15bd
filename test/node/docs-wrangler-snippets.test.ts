/**
 * Every wrangler.toml snippet in the docs applies to the shipped wrangler.toml as written: an
 * operator adds the snippet's keys under a table the file already has (`[env.production.vars]`)
 * and appends the rest (`[[env.production.mtls_certificates]]`), then `wrangler deploy --dry-run
 * --env production` succeeds and binds what the snippet declared. The snippets once told operators
 * to add a second `[env.production.vars]` header, which wrangler refuses ("redefine an already
 * defined table").
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-snippets-'));
const written: string[] = [];
afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
  rmSync(work, { recursive: true, force: true });
});

const DOCS = [
  path.join(ROOT, 'README.md'),
  ...readdirSync(path.join(ROOT, 'docs')).map((f) => path.join(ROOT, 'docs', f)),
];

/** Every ```toml block of the docs, with where it is. */
function snippets(): { where: string; text: string }[] {
  return DOCS.filter((f) => f.endsWith('.md')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/```toml\n([\s\S]*?)```/g)].map((m) => ({
      where: `${path.relative(ROOT, file)}:${readFileSync(file, 'utf8').slice(0, m.index).split('\n').length}`,
      text: m[1] as string,
    })),
  );
}

/**
 * The snippet applied as an operator does: keys under a `[table]` header the file already has go
 * right under that header; every other part (a new table, an array of tables) is appended.
 */
function apply(config: string, snippet: string): string {
  const parts = snippet.split(/^(?=\[)/m).filter((p) => p.trim());
  let result = config;
  for (const part of parts) {
    const header = part.split('\n')[0]!.trim();
    const body = part.slice(part.indexOf('\n') + 1);
    const at = header.startsWith('[[') ? -1 : result.split('\n').findIndex((l) => l.trim() === header);
    if (at < 0) {
      result = `${result.trimEnd()}\n\n${part.trimEnd()}\n`;
    } else {
      const lines = result.split('\n');
      lines.splice(at + 1, 0, body.trimEnd());
      result = lines.join('\n');
    }
  }
  return result;
}

function dryRun(config: string): { status: number | null; output: string } {
  const result = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js'),
      'deploy',
      '--dry-run',
      '--env',
      'production',
      '--config',
      config,
      '--outdir',
      path.join(work, path.basename(config)),
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0' },
    },
  );
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

it('the docs carry wrangler.toml snippets for the partner declaration and the alert URL', () => {
  const all = snippets().map((s) => s.text);
  expect(all.some((t) => t.includes('PARTNERS ='))).toBe(true);
  expect(all.some((t) => t.includes('OPERATOR_ALERT_URL ='))).toBe(true);
});

it('each snippet applies to the shipped wrangler.toml and production dry-runs with what it declares', () => {
  const shipped = readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8');
  snippets().forEach((snippet, i) => {
    const config = path.join(ROOT, `wrangler.snippet-${process.pid}-${i}.toml`);
    written.push(config);
    writeFileSync(config, apply(shipped, snippet.text));
    const { status, output } = dryRun(config);
    expect(status, `${snippet.where}\n${output}`).toBe(0);
    expect(output).not.toMatch(/redefine/);
    for (const key of snippet.text.matchAll(/^([A-Z][A-Z0-9_]+) =/gm)) {
      expect(output, `${snippet.where}: ${key[1]}`).toContain(`env.${key[1]}`);
    }
    // The production vars the file ships are still there.
    expect(output).toMatch(/env\.ENVIRONMENT \("production"\)/);
  });
}, 300_000);
