/**
 * `npm run serve -- --env production` as docs/operating.md shows it: secrets from the process
 * environment (or --vars-file), never from .dev.vars, even when a .dev.vars is there; without them
 * a one-line message naming the missing ones, not a miniflare stack trace.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { writeDevVars } from '../../scripts/dev-vars.mjs';
import { START_HOOK_MS, spawnNode, type Watched, waitForOutput } from '../support/processes';

const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-serve-prod-'));
const runs: Watched[] = [];
// A developer's .dev.vars (ADMIN_TOKEN=dev-admin-token) sits in the checkout, as after `npm start`.
const devVars = path.join(ROOT, '.dev.vars');
const hadDevVars = existsSync(devVars);
if (!hadDevVars) writeDevVars(devVars);

afterAll(async () => {
  for (const run of runs) await run.stop();
  if (!hadDevVars) rmSync(devVars, { force: true });
  rmSync(work, { recursive: true, force: true });
});

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
  const run = spawnNode([path.join(ROOT, 'scripts/serve.mjs'), ...args], { env: { ...clean, ...env } });
  runs.push(run);
  return run;
}

it('without the production secrets it names them in one message and exits 1', async () => {
  const run = serve(['--env', 'production', '--port', '0', '--persist-to', path.join(work, 'a')], {});
  expect(await run.exited).toBe(1);
  expect(run.output()).toMatch(/production needs these secrets.*PIX_LOCATION_HOST/);
  expect(run.output()).not.toMatch(/\n\s+at /); // no stack trace
}, 180_000);

it(
  'starts with secrets from the environment, sandbox off, and never uses .dev.vars',
  async () => {
    const secrets = parseEnv(readFileSync(writeDevVars(path.join(work, 'vars')), 'utf8')) as Record<
      string,
      string
    >;
    const admin = 'prod-admin-token-from-env';
    const run = serve(
      ['--env', 'production', '--port', '0', '--persist-to', path.join(work, 'b'), '--no-cron'],
      {
        ...secrets,
        ADMIN_TOKEN: admin,
        PIX_LOCATION_HOST: 'pix.example.com.br',
      },
    );
    const base = (
      await waitForOutput(run, 'the production runtime', /ConnectPSP \(production\) on (http:\/\/[\d.:]+)/)
    )[1];
    expect(run.output()).not.toMatch(/\.dev\.vars/);
    const list = (token: string) =>
      fetch(`${base}/admin/health/analyzer`, { headers: { authorization: `Bearer ${token}` } });
    expect((await list(admin)).status).toBe(200);
    expect((await list('dev-admin-token')).status).toBe(401);
    expect((await fetch(`${base}/sandbox/accounts/1/deposit`, { method: 'POST' })).status).toBe(404);
    await run.stop();
  },
  START_HOOK_MS,
);
