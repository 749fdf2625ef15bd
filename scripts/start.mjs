#!/usr/bin/env node
// `npm start`: the API on http://127.0.0.1:8787 (PORT overrides), fully local under wrangler dev
// (workerd with local D1, Durable Objects, Queues and alarms), migrations applied,
// ENVIRONMENT=staging. Creates .dev.vars with fresh secrets when it is missing.
//
// Everything time-driven happens by itself (docs/contract.md, Running it): wrangler dev does not fire cron
// triggers locally, so this process fires each one on the minute, as Cloudflare does in
// production. It also runs offline: no fetch of the Request.cf template, no telemetry.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { unstable_readConfig } from 'wrangler';
import { applyLocalD1Migrations } from '../runtime/local-runtime.mjs';
import { ensureDevVars } from './dev-vars.mjs';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm start [-- <wrangler dev options>]

The API on http://127.0.0.1:8787 (PORT overrides; PORT=0 takes a free one, named on the Ready line)
under wrangler dev, ENVIRONMENT=staging: local D1 (migrations applied first), Durable Objects,
Queues, R2, the cron trigger fired every minute.
Creates .dev.vars with fresh secrets (ADMIN_TOKEN=dev-admin-token) when it is missing.

Arguments after -- go to wrangler dev, e.g.
  npm start -- --persist-to /tmp/state           # state elsewhere (migrations applied there too)
  npm start -- --var 'PARTNERS:[…]'              # declare a partner (see npm run mock:psp)
`);

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
const persistTo = persistAt >= 0 ? extra[persistAt + 1] : path.join(root, '.wrangler', 'state');

// Applied in this process (runtime/local-runtime.mjs), in wrangler's own d1_migrations table, so
// `wrangler d1 migrations list DB --local` agrees; one line instead of wrangler's table per migration.
try {
  const applied = await applyLocalD1Migrations({ persistTo });
  console.log(
    applied.length > 0
      ? `[start] D1: applied ${applied.length} migration(s), ${applied[0]} … ${applied.at(-1)}`
      : '[start] D1: migrations up to date',
  );
} catch (error) {
  console.error('[start] D1: the migrations could not be applied:', error);
  process.exit(1);
}

// PORT=0 lets wrangler pick a free port (a test's gateway: no port chosen early that another
// process could take meanwhile); the "Ready on" line names the address it listens on.
const port = process.env.PORT || '8787';
let base = `http://127.0.0.1:${port}`;
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
  { cwd: root, stdio: ['inherit', 'pipe', 'inherit'], env },
);
// wrangler dev lists the bindings again once its local server connects: the second list is dropped.
let bindingLists = 0;
let skipping = false;
createInterface({ input: dev.stdout }).on('line', (line) => {
  if (line.includes('Your Worker has access to the following bindings')) {
    bindingLists += 1;
    skipping = bindingLists > 1;
  } else if (skipping && line.trim() === '') {
    skipping = false;
    return;
  }
  if (!skipping) process.stdout.write(`${line}\n`);
  const ready = /Ready on (http:\/\/\S+)/.exec(line);
  if (ready) {
    base = new URL(ready[1]).origin;
    console.log(`[start] API documentation: ${base}/docs`);
    console.log(
      `[start] Operator console:    ${base}/admin/console (sign in with ADMIN_TOKEN from .dev.vars)`,
    );
  }
});
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
