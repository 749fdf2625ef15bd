#!/usr/bin/env node
// `npm run serve`: the self-hosting path. The same worker `npm run deploy` ships, bundled by
// `wrangler deploy --dry-run`, served by workerd through miniflare's API (no wrangler dev proxy)
// on http://127.0.0.1:$PORT (default 8787) with local D1, Durable Objects (SQLite + alarms),
// Queues (producers, consumers, dead-letter queues) and the cron trigger fired every minute.
// State persists in $STATE_DIR (default .wrangler/serve-state, wrangler's --persist-to layout).
// Staging secrets come from .dev.vars, created with fresh values when missing; production never
// reads .dev.vars (a developer's throwaway keys must not serve production traffic).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { unstable_readConfig } from 'wrangler';
import { missingSecrets, ROOT, startLocalRuntime } from '../runtime/local-runtime.mjs';
import { ensureDevVars } from './dev-vars.mjs';
import { exitWithUsageIfAsked } from './usage.mjs';

/** The gateway Worker's name in that environment (wrangler.toml): the object twin binds its objects. */
const gatewayWorkerName = (env) =>
  unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml'), env: env || undefined }).name;

exitWithUsageIfAsked(`
Usage: npm run serve -- [options]

Serves the deploy bundle on workerd (D1, Durable Objects, Queues, cron) without wrangler's proxy.

  --env production        wrangler.toml's production environment (sandbox off). Secrets come from
                          the environment (ADMIN_TOKEN, JWT_SECRET, DATA_ENCRYPTION_KEY,
                          PIX_SIGNING_KEY, PIX_LOCATION_HOST) and/or --vars-file, never .dev.vars
  --vars-file <file>      secrets in .dev.vars format (wins over .dev.vars / the environment)
  --host <addr>           listen address (HOST, default 127.0.0.1)
  --port <n>              port (PORT, default 8787)
  --persist-to <dir>      state directory (STATE_DIR, default .wrangler/serve-state)
  --no-build              reuse the bundle in .wrangler/build (or --build-dir <dir>)
  --no-cron               do not fire the cron trigger every minute
  --hello-port <n>        also serve the benchmark's reference worker on this port
  --inspector-port <n>    open the V8 inspector (CPU profiles)
  --verbose               miniflare's debug log

Examples:
  npm run serve
  PORT=9000 STATE_DIR=/var/lib/cpsp npm run serve -- --vars-file /etc/connectpsp.vars
  PIX_LOCATION_HOST=pix.example.com.br npm run serve -- --env production --vars-file /etc/connectpsp.vars
`);

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

const production = values.env === 'production';
if (production) {
  const missing = missingSecrets({ env: values.env, varsFile: values['vars-file'] });
  if (missing.length > 0) {
    console.error(
      `[serve] production needs these secrets, from the environment or --vars-file (never .dev.vars): ${missing.join(', ')}\n` +
        `        e.g. PIX_LOCATION_HOST=pix.example.com.br npm run serve -- --env production --vars-file /etc/connectpsp.vars`,
    );
    process.exit(1);
  }
} else if (values['vars-file'] === undefined) ensureDevVars(ROOT);
try {
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
                  LEDGER: {
                    className: 'ClientLedger',
                    scriptName: gatewayWorkerName(values.env),
                    useSQLite: true,
                  },
                },
              },
            },
          ],
  });
} catch (error) {
  // The Worker refused to start (src/config.ts names why): the reason, not miniflare's stack.
  console.error(`[serve] ${values.verbose ? error.stack : (error?.message ?? error)}`);
  process.exit(1);
}

const extras = Object.entries(runtime.extraUrls).map(([name, url]) => `, ${name} on ${url}`);
const state = path.relative(ROOT, path.resolve(values['persist-to'])) || '.';
const cron = runtime.crons.length > 0 && !values['no-cron'] ? runtime.crons.join(' ') : 'off';
console.error(
  `[serve] ConnectPSP (${values.env || 'staging'}) on ${runtime.url} (state: ${state}, cron: ${cron}${extras.join('')})`,
);
