/**
 * The go-live checklist of docs/operating.md works as written: ten steps in the order an operator
 * takes them, each with a command; the queues, bucket and secrets it creates are exactly those
 * wrangler.toml's production environment declares; the dry run (step 8) runs as written; and the
 * smoke test (step 10) creates and cancels a charge against a local gateway. Steps that need a
 * Cloudflare account (1-7, 9) are checked against the configuration, not run.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { START_HOOK_MS } from '../support/processes';
import { startTestRuntime } from './support/runtime';

const run = promisify(execFile);
const env = {
  ...process.env,
  PATH: `${path.join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`,
  CI: 'true',
  WRANGLER_SEND_METRICS: 'false',
};
const doc = readFileSync(path.join(ROOT, 'docs', 'operating.md'), 'utf8');
const section = doc.slice(
  doc.indexOf('## Go-live checklist'),
  doc.indexOf('\n## ', doc.indexOf('## Go-live checklist') + 5),
);
const wrangler = readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8');
const production = wrangler.slice(wrangler.indexOf('\n[env.production]\n'));

/** Step n's title and its shell block (the indentation of the list item removed). */
function step(n: number): { title: string; sh: string } {
  const title = new RegExp(`^${n}\\. \\*\\*([^*]+)\\*\\*`, 'm').exec(section)?.[1] ?? '';
  const block =
    new RegExp(`<!-- go-live ${n} -->\\n\\s*\`\`\`sh\\n([\\s\\S]*?)\\n\\s*\`\`\``).exec(section)?.[1] ?? '';
  const indent = /^\s*/.exec(block)?.[0].length ?? 0;
  return {
    title,
    sh: block
      .split('\n')
      .map((l) => l.slice(indent))
      .join('\n'),
  };
}

let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-go-live-'));
beforeAll(async () => {
  runtime = await startTestRuntime(work);
}, START_HOOK_MS);
afterAll(async () => {
  await runtime?.dispose();
  rmSync(work, { recursive: true, force: true });
});

it('lists the ten steps in order, each with a command', () => {
  const titles = Array.from({ length: 10 }, (_, i) => step(i + 1).title);
  const expected = [
    /API token/,
    /D1/,
    /Queues and R2/,
    /Secrets/,
    /Partner declaration/,
    /mTLS certificate and callback/,
    /Alert URL/,
    /Dry run/,
    /First deploy/,
    /Smoke test/,
  ];
  for (const [i, pattern] of expected.entries()) expect(titles[i], `step ${i + 1}`).toMatch(pattern);
  for (let n = 1; n <= 10; n++) expect(step(n).sh.trim(), `step ${n}`).not.toBe('');
  expect(step(1).sh).toContain('CLOUDFLARE_API_TOKEN');
});

it('creates exactly the database, queues, bucket and secrets production declares', () => {
  const declared = (key: string) =>
    [...production.matchAll(new RegExp(`${key} = "([^"]+)"`, 'g'))].map((m) => m[1] as string);
  expect(step(2).sh).toContain(`d1 create ${declared('database_name')[0]}`);
  const queues = new Set([...declared('queue'), ...declared('dead_letter_queue')]);
  const created = new Set(step(3).sh.match(/connectpsp-[\w-]+-production(-dlq)?/g));
  for (const q of queues) expect(created, q).toContain(q);
  expect(step(3).sh).toContain(`r2 bucket create ${declared('bucket_name')[0]}`);
  const required = /secrets = \{ required = \[([^\]]+)\]/.exec(production)?.[1]?.match(/[A-Z_]+/g) ?? [];
  expect(required.length).toBeGreaterThan(3);
  const put = /for s in ([A-Z_ ]+); do/.exec(step(4).sh)?.[1]?.trim().split(/\s+/) ?? [];
  expect(put.sort()).toEqual([...required].sort());
});

it('step 8, the dry run, runs as written', async () => {
  const { stdout, stderr } = await run(
    'bash',
    ['-euo', 'pipefail', '-c', step(8).sh.replace('dist/production', path.join(work, 'dry'))],
    {
      cwd: ROOT,
      env,
      timeout: 120_000,
    },
  );
  expect(`${stdout}${stderr}`).toMatch(/--dry-run: exiting now/);
}, 150_000);

it('step 10, the smoke test, creates and cancels a charge', async () => {
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', step(10).sh], {
    env: { ...env, BASE: runtime.url, ADMIN_TOKEN: 'dev-admin-token' },
    timeout: 120_000,
  });
  expect(stdout).toMatch(/^smoke: cash-in AWAITING_PAYMENT 000201$/m);
  expect(stdout).toMatch(/^smoke: cash-in CANCELLED$/m);
}, 150_000);
