/**
 * `npm run serve -- --env production` as docs/operating.md shows it: secrets from the process
 * environment (or --vars-file), never from .dev.vars, even when a .dev.vars is there; without them
 * a one-line message naming the missing ones, not a miniflare stack trace.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { writeDevVars } from '../../scripts/dev-vars.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-serve-prod-'));
const children: ChildProcess[] = [];
// A developer's .dev.vars (ADMIN_TOKEN=dev-admin-token) sits in the checkout, as after `npm start`.
const devVars = path.join(ROOT, '.dev.vars');
const hadDevVars = existsSync(devVars);
if (!hadDevVars) writeDevVars(devVars);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  if (!hadDevVars) rmSync(devVars, { force: true });
  rmSync(work, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `node scripts/serve.mjs` with `env` replacing the declared secrets of this process. */
function serve(args: string[], env: Record<string, string>) {
  const clean = { ...process.env };
  for (const name of [
    'ADMIN_TOKEN',
    'JWT_SECRET',
    'DATA_ENCRYPTION_KEY',
    'PIX_SIGNING_KEY',
    'PIX_LOCATION_HOST',
  ])
    delete clean[name];
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), ...args], {
    cwd: ROOT,
    env: { ...clean, ...env },
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, output: () => output, exited };
}

it('without the production secrets it names them in one message and exits 1', async () => {
  const run = serve(['--env', 'production', '--port', '0', '--persist-to', path.join(work, 'a')], {});
  expect(await run.exited).toBe(1);
  expect(run.output()).toMatch(/production needs these secrets.*PIX_LOCATION_HOST/);
  expect(run.output()).not.toMatch(/\n\s+at /); // no stack trace
}, 60_000);

it('starts with secrets from the environment, sandbox off, and never uses .dev.vars', async () => {
  const secrets = parseEnv(readFileSync(writeDevVars(path.join(work, 'vars')), 'utf8')) as Record<
    string,
    string
  >;
  const admin = 'prod-admin-token-from-env';
  const port = await freePort();
  const run = serve(
    ['--env', 'production', '--port', String(port), '--persist-to', path.join(work, 'b'), '--no-cron'],
    {
      ...secrets,
      ADMIN_TOKEN: admin,
      PIX_LOCATION_HOST: 'pix.example.com.br',
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  while (!/ConnectPSP \(production\) on/.test(run.output())) {
    if (run.child.exitCode !== null || Date.now() > deadline) throw new Error(run.output());
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(run.output()).not.toMatch(/\.dev\.vars/);
  const list = (token: string) =>
    fetch(`${base}/admin/health/analyzer`, { headers: { authorization: `Bearer ${token}` } });
  expect((await list(admin)).status).toBe(200);
  expect((await list('dev-admin-token')).status).toBe(401);
  expect((await fetch(`${base}/sandbox/accounts/1/deposit`, { method: 'POST' })).status).toBe(404);
  run.child.kill('SIGTERM');
  await run.exited;
}, 180_000);
