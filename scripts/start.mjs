#!/usr/bin/env node
// `npm start`: the API on http://127.0.0.1:8787 (PORT overrides), fully local under wrangler dev
// (workerd with local D1, Durable Objects, Queues and alarms), migrations applied,
// ENVIRONMENT=staging. Creates .dev.vars with fresh secrets when it is missing.
//
// Everything time-driven happens by itself (docs/contract.md, Running it): wrangler dev does not fire cron
// triggers locally, so this process fires each one on the minute, as Cloudflare does in
// production. It also runs offline: no fetch of the Request.cf template, no telemetry.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { unstable_readConfig } from 'wrangler';
import { ensureDevVars } from './dev-vars.mjs';

const root = path.resolve(import.meta.dirname, '..');
const wrangler = path.join(root, 'node_modules', '.bin', 'wrangler');
const env = {
  ...process.env,
  // request.cf gets miniflare's placeholder instead of a download (offline: ENOTFOUND noise).
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
};

ensureDevVars(root);

// Arguments after `npm start --` go to wrangler dev (e.g. `--var 'PARTNERS:[…]'` to declare a
// partner, see `npm run mock:psp`); a `--persist-to <dir>` among them is the migrations' state too.
const extra = process.argv.slice(2);
const persistAt = extra.indexOf('--persist-to');
const persist = persistAt >= 0 ? ['--persist-to', extra[persistAt + 1]] : [];

const migrate = spawnSync(wrangler, ['d1', 'migrations', 'apply', 'DB', '--local', ...persist], {
  cwd: root,
  stdio: 'inherit',
  env: { ...env, CI: 'true' },
});
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const port = process.env.PORT || '8787';
const base = `http://127.0.0.1:${port}`;
// --test-scheduled: the crons are fired below, so wrangler's "not triggered automatically" hint
// does not apply.
const dev = spawn(
  wrangler,
  [
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    port,
    '--show-interactive-dev-session=false',
    '--test-scheduled',
    // miniflare builds request.cf from a client's MF-CF-Blob header here: never trust it as the
    // edge's (a forged partner certificate; src/partners/inbound-auth.ts).
    '--var',
    'REQUEST_CF:untrusted',
    ...extra,
  ],
  { cwd: root, stdio: 'inherit', env },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => dev.kill(signal));
dev.on('exit', (code) => process.exit(code ?? 0));

const crons = unstable_readConfig({ config: path.join(root, 'wrangler.toml') }).triggers?.crons ?? [];
const untilNextMinute = () => 60_000 - (Date.now() % 60_000);
async function fireCrons() {
  setTimeout(fireCrons, untilNextMinute()).unref();
  for (const cron of crons) {
    const url = `${base}/cdn-cgi/local/scheduled?${new URLSearchParams({ cron, time: String(Date.now()) })}`;
    try {
      const res = await fetch(url);
      if (!res.ok) console.error(`[start] cron "${cron}" answered ${res.status}`);
    } catch (error) {
      console.error(`[start] cron "${cron}" could not be fired: ${error.cause?.code ?? error}`);
    }
  }
}
if (crons.length > 0) {
  console.log(`[start] cron ${crons.map((c) => `"${c}"`).join(', ')} fires every minute from this process.`);
  setTimeout(fireCrons, untilNextMinute()).unref();
}
