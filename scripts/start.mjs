#!/usr/bin/env node
// `npm start`: the API on http://127.0.0.1:8787 (PORT overrides), fully local under wrangler dev
// (workerd with local D1, Durable Objects, Queues and alarms), migrations applied,
// ENVIRONMENT=staging. Creates .dev.vars with fresh secrets when it is missing.
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const devVars = path.join(root, '.dev.vars');
const wrangler = path.join(root, 'node_modules', '.bin', 'wrangler');

if (!existsSync(devVars)) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
  writeFileSync(
    devVars,
    [
      '# Local secrets for `npm start` (git-ignored). Delete this file to get fresh ones.',
      'ADMIN_TOKEN=dev-admin-token',
      `JWT_SECRET=${randomBytes(32).toString('base64')}`,
      `DATA_ENCRYPTION_KEY=${randomBytes(32).toString('base64')}`,
      `PIX_SIGNING_KEY='${jwk}'`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  console.log('Created .dev.vars with ADMIN_TOKEN=dev-admin-token and fresh random secrets.');
}

const migrate = spawnSync(wrangler, ['d1', 'migrations', 'apply', 'DB', '--local'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CI: 'true' },
});
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const port = process.env.PORT || '8787';
const dev = spawn(
  wrangler,
  ['dev', '--ip', '127.0.0.1', '--port', port, '--show-interactive-dev-session=false'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => dev.kill(signal));
dev.on('exit', (code) => process.exit(code ?? 0));
