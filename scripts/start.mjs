#!/usr/bin/env node
// `npm start`: the API on http://127.0.0.1:8787 (PORT overrides), fully local under wrangler dev
// (workerd with local D1, Durable Objects, Queues and alarms), migrations applied,
// ENVIRONMENT=staging. Creates .dev.vars with fresh secrets when it is missing.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureDevVars } from './dev-vars.mjs';

const root = path.resolve(import.meta.dirname, '..');
const wrangler = path.join(root, 'node_modules', '.bin', 'wrangler');

ensureDevVars(root);

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
