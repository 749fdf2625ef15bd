#!/usr/bin/env node
// `npm run serve`: the self-hosting path. The same worker `npm run deploy` ships, bundled by
// `wrangler deploy --dry-run`, served by workerd through miniflare's API (no wrangler dev proxy)
// on http://127.0.0.1:$PORT (default 8787) with local D1, Durable Objects (SQLite + alarms),
// Queues (producers, consumers, dead-letter queues) and the cron trigger fired every minute.
// State persists in $STATE_DIR (default .wrangler/serve-state, wrangler's --persist-to layout).
// Secrets come from .dev.vars, created with fresh values when missing.
//
//   npm run serve                      # PORT=8787, state in .wrangler/serve-state
//   PORT=9000 STATE_DIR=/var/lib/cpsp npm run serve
//   node scripts/serve.mjs --no-build  # reuse .wrangler/build from a previous run
//   node scripts/serve.mjs --env production   # wrangler.toml's production env (sandbox off)
//   node scripts/serve.mjs --hello-port 8788   # also the benchmark's reference worker
//                                              # (runtime/reference-worker.mjs: hello world, DO floor)
//   node scripts/serve.mjs --vars-file /etc/connectpsp.vars  # secrets from another file
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, startLocalRuntime } from '../runtime/local-runtime.mjs';
import { ensureDevVars } from './dev-vars.mjs';

const { values } = parseArgs({
  options: {
    env: { type: 'string', default: process.env.SERVE_ENV || '' },
    host: { type: 'string', default: process.env.HOST || '127.0.0.1' },
    port: { type: 'string', default: process.env.PORT || '8787' },
    'persist-to': {
      type: 'string',
      default: process.env.STATE_DIR || path.join(ROOT, '.wrangler', 'serve-state'),
    },
    'no-build': { type: 'boolean', default: false },
    'build-dir': { type: 'string' },
    'no-cron': { type: 'boolean', default: false },
    'hello-port': { type: 'string' },
    'vars-file': { type: 'string' },
    'inspector-port': { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});

/** workerd processes this one started (read from /proc, Linux only). */
function childPids() {
  try {
    return readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
  } catch {
    return [];
  }
}

// Registered before the runtime starts, so a signal during startup cannot orphan workerd.
let runtime;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    // A runtime busy with a backlog may not shut down promptly: give it 5 s, then end its
    // workerd process ourselves so nothing outlives this one.
    const timeout = new Promise((resolve) => setTimeout(resolve, 5_000, 'timeout'));
    const disposed = runtime ? runtime.dispose().catch(() => undefined) : Promise.resolve();
    if ((await Promise.race([disposed, timeout])) === 'timeout' || !runtime) {
      for (const pid of childPids()) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {}
      }
    }
    process.exit(0);
  });
}

if (values['vars-file'] === undefined) ensureDevVars(ROOT);
runtime = await startLocalRuntime({
  env: values.env,
  host: values.host,
  port: Number(values.port),
  persistTo: values['persist-to'],
  build: !values['no-build'],
  ...(values['build-dir'] !== undefined && { buildDir: path.resolve(values['build-dir']) }),
  cron: !values['no-cron'],
  verbose: values.verbose,
  varsFile: values['vars-file'],
  ...(values['inspector-port'] !== undefined && { inspectorPort: Number(values['inspector-port']) }),
  extraWorkers:
    values['hello-port'] === undefined
      ? []
      : [
          {
            name: 'reference',
            script: readFileSync(path.join(ROOT, 'runtime', 'reference-worker.mjs'), 'utf8'),
            port: Number(values['hello-port']),
            options: {
              durableObjects: {
                REFERENCE: { className: 'Reference', useSQLite: true },
                // The gateway's own objects (wrangler.toml's worker name), for the object twin.
                LEDGER: { className: 'ClientLedger', scriptName: 'connectpsp', useSQLite: true },
              },
            },
          },
        ],
});

const extras = Object.entries(runtime.extraUrls).map(([name, url]) => `, ${name} on ${url}`);
const state = path.relative(ROOT, path.resolve(values['persist-to'])) || '.';
const cron = runtime.crons.length > 0 && !values['no-cron'] ? runtime.crons.join(' ') : 'off';
console.error(
  `[serve] ConnectPSP (${values.env || 'staging'}) on ${runtime.url} (state: ${state}, cron: ${cron}${extras.join('')})`,
);
