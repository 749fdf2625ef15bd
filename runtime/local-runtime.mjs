// The production-like local runtime behind `npm run serve` (scripts/serve.mjs) and `npm run bench`
// (bench/run.mjs): the worker exactly as `wrangler deploy` bundles it, run by the installed
// miniflare's programmatic API (workerd underneath) with the bindings wrangler.toml declares —
// D1, the ClientLedger Durable Objects (SQLite, alarms), queue producers and consumers with their
// dead-letter queues — persistent local state, the D1 migrations of migrations/ applied, secrets
// from .dev.vars, and the cron trigger fired by this process every minute.
//
// Requests reach the worker on a workerd socket bound straight to it (miniflare's
// `unsafeDirectSockets`), not through miniflare's entry worker or wrangler's dev proxy: nothing
// but workerd sits on the request path.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_readConfig, unstable_splitSqlQuery } from 'wrangler';
import { createOutboundGuard } from './outbound-guard.mjs';

export const ROOT = path.resolve(import.meta.dirname, '..');
// Run by this very Node (wrangler needs a newer one than the system's may be), not by its shebang.
const WRANGLER = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const CONFIG = path.join(ROOT, 'wrangler.toml');

/**
 * Bundles the worker as `wrangler deploy` would ship it (`--dry-run`, nothing uploaded) into
 * `outdir`, emptied first so no stale module lingers. `env` '' is the top-level (staging) config.
 */
export function bundleWorker({ outdir, env = '', quiet = false }) {
  rmSync(outdir, { recursive: true, force: true });
  const result = spawnSync(
    process.execPath,
    [WRANGLER, 'deploy', '--dry-run', `--env=${env}`, '--outdir', outdir],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
    },
  );
  if (result.status !== 0) {
    throw new Error(`wrangler deploy --dry-run failed:\n${result.stdout}\n${result.stderr}`);
  }
  if (!quiet) console.log(`Bundled the worker into ${path.relative(ROOT, outdir)}/`);
  return outdir;
}

/** A wrangler `rules` glob as a RegExp over a module's path ("**\/" any directories, "*" within one). */
function globRegExp(glob) {
  const body = glob
    .split(/(\*\*\/|\*|\?)/)
    .map((part) =>
      part === '**/'
        ? '(?:.*/)?'
        : part === '*'
          ? '[^/]*'
          : part === '?'
            ? '[^/]'
            : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${body}$`);
}

/**
 * The bundle as miniflare modules: the entry module, then the files wrangler copied beside it
 * (`<content hash>-<name>`: modules matched by a non-JavaScript rule of wrangler.toml, such as the
 * SQL migrations and the Redoc script imported as Text), typed by the first rule that matches.
 */
function bundleModules(outdir, rules) {
  const entry = path.join(outdir, 'index.js');
  if (!existsSync(entry)) throw new Error(`no index.js in ${outdir}`);
  const modules = [
    { type: 'ESModule', path: path.join(outdir, 'public-entry.js'), contents: PUBLIC_ENTRY },
    { type: 'ESModule', path: entry },
  ];
  for (const file of readdirSync(outdir).sort()) {
    const hashed = /^[0-9a-f]{40}-(.+)$/.exec(file);
    if (!hashed) continue;
    const name = `any/${hashed[1]}`;
    const rule = rules.find((r) => r.include.some((glob) => globRegExp(glob).test(name)));
    const type = rule?.type ?? (file.endsWith('.wasm') ? 'CompiledWasm' : 'Data');
    modules.push({ type, path: path.join(outdir, file) });
  }
  return modules;
}

/**
 * The module workerd runs as the gateway's entry on the public socket. miniflare configures that
 * socket to read `request.cf` from a client's `MF-CF-Blob` header; on Cloudflare only the edge sets
 * `request.cf` (the partner's verified client certificate in `tlsClientAuth`), and here nothing
 * does, so a client could forge it. A request that arrives with one is passed on without it;
 * everything else is the bundle's own entry, untouched (no copy, no extra hop).
 */
const PUBLIC_ENTRY = `import gateway from './index.js';
export * from './index.js';
export default {
  ...gateway,
  fetch(request, env, ctx) {
    if (request.cf !== undefined)
      request = new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
      });
    return gateway.fetch(request, env, ctx);
  },
};
`;

/**
 * Applies migrations/*.sql that the local D1 database has not seen, tracked in wrangler's own
 * `d1_migrations` table (so `wrangler d1 migrations list DB --local --persist-to <state>` agrees).
 * Runs in a short-lived miniflare that has only the database, as `wrangler d1 --local` does,
 * before the worker's socket opens: no request ever sees a half-migrated database.
 */
async function applyD1Migrations(resourcePersistencePath, database, log) {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: '',
      cf: false,
      resourcePersistencePath,
      d1Databases: { DATABASE: database.database_id ?? database.binding },
    }),
  );
  try {
    const db = await mf.getD1Database('DATABASE');
    const table = database.migrations_table || 'd1_migrations';
    const dir = path.resolve(ROOT, database.migrations_dir || 'migrations');
    await db
      .prepare(
        `CREATE TABLE IF NOT EXISTS "${table}"(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, ` +
          'applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)',
      )
      .run();
    const applied = new Set(
      (await db.prepare(`SELECT name FROM "${table}"`).all()).results.map((r) => r.name),
    );
    const pending = readdirSync(dir)
      .filter((f) => f.endsWith('.sql') && !applied.has(f))
      .sort();
    for (const name of pending) {
      const statements = unstable_splitSqlQuery(readFileSync(path.join(dir, name), 'utf8'));
      await db.batch([
        ...statements.map((sql) => db.prepare(sql)),
        db.prepare(`INSERT INTO "${table}" (name) VALUES (?)`).bind(name),
      ]);
      log(`Applied D1 migration ${name}`);
    }
    return pending;
  } finally {
    await mf.dispose();
  }
}

/**
 * Applies the pending D1 migrations of every database wrangler.toml declares for `env` to the
 * state at `persistTo` (wrangler's `--persist-to` layout, also `wrangler dev`'s); returns the names
 * applied. `npm start` uses it before `wrangler dev` instead of `wrangler d1 migrations apply`,
 * which starts a second wrangler and a miniflare per migration (about 20 s more on a fresh state).
 */
export async function applyLocalD1Migrations({ persistTo, env = '', log = () => {} }) {
  const config = unstable_readConfig({ config: CONFIG, env: env || undefined });
  const resourcePersistencePath = path.join(path.resolve(persistTo), 'v3');
  const applied = [];
  for (const database of config.d1_databases)
    applied.push(...(await applyD1Migrations(resourcePersistencePath, database, log)));
  return applied;
}

/**
 * The worker's console output as the platform's log pipeline would take it: each line exactly as
 * the worker wrote it (our JSON lines stay JSON), log/info/debug to stdout, warn/error to stderr.
 * workerd hands miniflare one structured record per line; writes are batched per event-loop turn
 * so a busy worker costs one write per turn, not one per request.
 */
function logSink() {
  const pending = { out: [], err: [] };
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.out.length > 0) process.stdout.write(`${pending.out.join('\n')}\n`);
    if (pending.err.length > 0) process.stderr.write(`${pending.err.join('\n')}\n`);
    pending.out = [];
    pending.err = [];
  };
  return ({ level, message }) => {
    (level === 'warn' || level === 'error' ? pending.err : pending.out).push(message);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

// A path that never exists: handed to wrangler as the only env file, it stops wrangler from reading
// .dev.vars (and .env) and from announcing it, for the environments that must not use them.
const NO_ENV_FILE = path.join(ROOT, '.wrangler', 'no-such-env-file');

/** The config without its secrets declaration, so wrangler neither reads nor warns about secrets. */
function withoutSecrets(config) {
  const { secrets: _secrets, ...rest } = config;
  return rest;
}

/**
 * The secrets the Worker gets beyond what wrangler loaded. With `devVars` (staging) wrangler
 * already read .dev.vars; `varsFile` wins over it. Without (production: a developer's .dev.vars
 * must never end up serving production traffic) the declared secrets come from this process's
 * environment, then `varsFile`, nothing else.
 */
function secretsFor({ env, varsFile, devVars }) {
  const secrets = {};
  if (!devVars) {
    for (const name of declaredSecrets(env)) {
      if (process.env[name] !== undefined) secrets[name] = process.env[name];
    }
  }
  if (varsFile !== undefined) Object.assign(secrets, parseEnv(readFileSync(varsFile, 'utf8')));
  return secrets;
}

/** The secret names wrangler.toml requires in `env` ('' = top level). */
export function declaredSecrets(env = '') {
  return unstable_readConfig({ config: CONFIG, env: env || undefined }).secrets?.required ?? [];
}

/**
 * The required secrets a runtime started with these options would lack (empty values count as
 * missing), for a start-up message instead of a Worker that refuses to start.
 */
export function missingSecrets({ env = '', varsFile, devVars = env !== 'production' }) {
  if (devVars) return [];
  const secrets = secretsFor({ env, varsFile, devVars });
  return declaredSecrets(env).filter((name) => !secrets[name]);
}

/** Milliseconds until the next whole minute (crons here are minute-granular). */
const untilNextMinute = () => 60_000 - (Date.now() % 60_000);

/**
 * Starts the runtime. Resolves once the worker answers on http://host:port.
 *
 * - `env`: the wrangler.toml environment ('' = top level, staging; 'production' = sandbox off).
 * - `persistTo`: state directory with wrangler's `--persist-to` layout (`<persistTo>/v3/...`).
 * - `port` 0 picks a free port.
 * - `extraWorkers`: `[{ name, script, port, options }]` module workers served beside the gateway in
 *   the same workerd on their own direct sockets (the benchmark's reference worker); `options`
 *   are more miniflare (v4-shape) worker options, e.g. `durableObjects`.
 * - `cron`: false turns the built-in cron timer off.
 * - `varsFile`: secrets in .dev.vars format read from another file; they win over .dev.vars.
 * - `devVars`: whether .dev.vars is read (default: not in production, see secretsFor).
 * - `onLog`: receives the worker's console output, `{ level, message }` per line (default: stdout,
 *   warn/error to stderr).
 * - `inspectorPort`: opens the V8 inspector (DevTools, CPU profiles: bench/profile.mjs).
 * - `outboundLookup`: replaces DNS for the outbound guard (runtime/outbound-guard.mjs), for tests.
 */
export async function startLocalRuntime({
  env = '',
  devVars = env !== 'production',
  host = '127.0.0.1',
  port = 8787,
  persistTo,
  buildDir = path.join(ROOT, '.wrangler', 'build'),
  build = true,
  extraWorkers = [],
  cron = true,
  verbose = false,
  varsFile,
  inspectorPort,
  onLog = logSink(),
  log = (line) => console.error(`[serve] ${line}`),
  outboundLookup,
} = {}) {
  if (build) bundleWorker({ outdir: buildDir, env, quiet: true });
  const config = unstable_readConfig({ config: CONFIG, env: env || undefined });
  // Vars, D1, Durable Objects, queue producers/consumers and crons as wrangler.toml declares them
  // for that environment, and the secrets of secretsFor().
  const { workerOptions } = unstable_getMiniflareWorkerOptions(
    devVars ? CONFIG : withoutSecrets(config),
    env,
    devVars ? undefined : { envFiles: [NO_ENV_FILE] },
  );
  const { modulesRules = [], ...worker } = workerOptions;
  worker.bindings = { ...worker.bindings, ...secretsFor({ env, varsFile, devVars }) };
  const crons = workerOptions.cronTriggers ?? [];

  mkdirSync(persistTo, { recursive: true });
  const resourcePersistencePath = path.join(path.resolve(persistTo), 'v3');
  await applyLocalD1Migrations({ persistTo, env, log });

  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host,
      port: 0,
      ...(inspectorPort !== undefined && { inspectorPort }),
      // No fetch of the Request.cf template from the internet: the runtime works offline.
      cf: false,
      // Enables /cdn-cgi/local/scheduled on the entry socket, used by the cron timer below.
      unsafeTriggerHandlers: true,
      handleStructuredLogs: onLog,
      log: new Log(verbose ? LogLevel.DEBUG : LogLevel.WARN),
      resourcePersistencePath,
      workers: [
        {
          ...worker,
          name: config.name,
          modules: bundleModules(buildDir, modulesRules),
          modulesRoot: buildDir,
          unsafeDirectSockets: [{ host, port }],
          // Every outbound fetch (webhooks, partners) is checked after DNS resolution.
          outboundService: createOutboundGuard({
            allowLoopbackLiterals: config.vars?.ENVIRONMENT === 'staging',
            lookup: outboundLookup,
            log,
          }),
        },
        ...extraWorkers.map((w) => ({
          name: w.name,
          modules: true,
          script: w.script,
          compatibilityDate: workerOptions.compatibilityDate,
          unsafeDirectSockets: [{ host, port: w.port }],
          ...w.options,
        })),
      ],
    }),
  );
  let entry;
  try {
    entry = await mf.ready;
  } catch (error) {
    // A Worker that refuses to start (src/config.ts) must not leave workerd running behind it.
    await mf.dispose().catch(() => {});
    throw error;
  }

  const url = await mf.unsafeGetDirectURL(config.name);
  const extraUrls = {};
  for (const w of extraWorkers) extraUrls[w.name] = (await mf.unsafeGetDirectURL(w.name)).href;

  // workerd does not fire cron triggers by itself locally: this process does, on the minute,
  // through miniflare's trigger endpoint on its entry socket (loopback only, random port). A plain
  // async HTTP call: miniflare's binding proxies wait synchronously, which would freeze this
  // process (signals included) while workerd is saturated.
  /** Fires one cron trigger now; resolves to its outcome ("ok" on success). */
  const fireCron = async (schedule) => {
    const trigger = new URL('/cdn-cgi/local/scheduled', entry);
    trigger.search = new URLSearchParams({
      cron: schedule,
      time: String(Date.now()),
      format: 'json',
    }).toString();
    return (await (await fetch(trigger)).json()).outcome;
  };
  let timer;
  const fireCrons = async () => {
    timer = setTimeout(fireCrons, untilNextMinute());
    for (const schedule of crons) {
      try {
        const outcome = await fireCron(schedule);
        if (outcome !== 'ok') log(`cron ${schedule}: ${outcome}`);
        else if (verbose) log(`cron ${schedule}: ok`);
      } catch (error) {
        log(`cron ${schedule} failed: ${error}`);
      }
    }
  };
  if (cron && crons.length > 0) timer = setTimeout(fireCrons, untilNextMinute());

  return {
    url: url.href.replace(/\/$/, ''),
    extraUrls,
    miniflare: mf,
    crons,
    /** Fires every cron trigger once now (tests; the timer does it on the minute). */
    async scheduled() {
      const outcomes = [];
      for (const schedule of crons) outcomes.push(await fireCron(schedule));
      return outcomes;
    },
    async dispose() {
      clearTimeout(timer);
      await mf.dispose();
    },
  };
}
