#!/usr/bin/env node
// `npm run check:bundle` (part of `npm test`, and run before `npm run deploy`): a broken production
// bundle never lands. Offline, on a clean clone, nothing uploaded:
//   1. wrangler.toml's production environment has what production needs (below);
//   2. `wrangler deploy --dry-run --env production --outdir <tmp>` bundles it;
//   3. that very bundle starts in workerd with the production bindings (throwaway secrets and
//      state) and answers requests: module graph, top-level code and routing all load;
//   4. it contains none of the staging-only machinery (STAGING_ONLY below), by module and by name,
//      while the staging bundle (wrangler.toml's top level, src/staging/index.ts) contains all of
//      it: so the names are real and the check can fail.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { gzipSync } from 'node:zlib';
import { unstable_readConfig } from 'wrangler';
import { bundleWorker, ROOT, startLocalRuntime } from '../runtime/local-runtime.mjs';
import { writeDevVars } from './dev-vars.mjs';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run check:bundle

Checks wrangler.toml's production environment, bundles it with wrangler deploy --dry-run --env
production (nothing uploaded), and starts that bundle in workerd with throwaway secrets: it must
refuse to start without PIX_LOCATION_HOST and serve with it. Exit 1 on any problem.
`);

const ENV = 'production';
/** Workers' limit on the compressed size of a script (paid plan). */
const MAX_GZIP_BYTES = 10 * 1024 * 1024;

/**
 * What only the staging entry (src/staging/index.ts) may ship: bench seeding, crash injection, the
 * sandbox partner and its books, fault injection and the staging-only routes. Modules as esbuild
 * names them in the bundle (`// path` before each module's code); names as they appear in code.
 */
const STAGING_ONLY = {
  modules: [
    'src/staging/index.ts',
    'src/staging/routes.ts',
    'src/staging/router.ts',
    'src/staging/bench-seed.ts',
    'durable-objects/staging/client-ledger.ts',
    'durable-objects/staging/bench-seed.ts',
    'durable-objects/staging/crash-injection.ts',
    'durable-objects/staging/books-tamper.ts',
    'src/partners/sandbox.ts',
    'src/db/sandbox-transfers.ts',
    'src/partners/faults.ts',
    'src/db/partner-faults.ts',
    'src/api/admin/handlers-faults.ts',
    'src/api/admin/routes-staging.ts',
    'src/api/sandbox/handlers.ts',
    'src/api/sandbox/handlers-recurrences.ts',
    'src/api/sandbox/routes.ts',
    'src/api/public/handlers-open-finance.ts',
    'src/api/public/routes-staging.ts',
    'src/api/admin-health/routes-staging.ts',
  ],
  names: [
    'StagingClientLedger',
    'armCrash',
    'CrashPoints',
    // The invariant tests' tampering (books-guard.ts's hook is set only by staging: tree-shaken).
    'BooksTampering',
    'setBooksTamper',
    'benchOp',
    'seedHistory',
    // The stores' whole-row copies (db.ts), used by bench seeding only: tree-shaken from production.
    'insertStoredRows',
    'handleBenchSeed',
    '/__bench/seed-history',
    'SandboxPartner',
    'registerPartnerSimulator(',
    'injectFault',
    'handleSandboxPay',
    'handleSandboxDeposit',
    'handleSandboxApproveRecurrence',
    'handleSandboxRejectRecurrence',
    'handleSandboxCancelRecurrence',
    'handleSandboxChargeRecurrence',
    'handleSandboxFailChargeAttempt',
    'handleSandboxPayerCancelCharge',
    'handleSandboxDispute',
    'handleSandboxDisputeClose',
    'handleOpenFinanceAuthorize',
    'handleAdvanceAnalyzer',
  ],
};

/** The project modules a bundle holds, and whether a name occurs in its code. */
const modulesOf = (code) =>
  new Set([...code.matchAll(/^\/\/ ((?:src|durable-objects)\/\S+\.ts)$/gm)].map((m) => m[1]));
const hasName = (code, name) =>
  /^\w+$/.test(name) ? new RegExp(`\\b${name}\\d*\\b`).test(code) : code.includes(name);

const problems = [];
const check = (ok, message) => {
  if (!ok) problems.push(message);
};

// 1. Configuration of the production environment.
const top = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml'), env: undefined });
const prod = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml'), env: ENV });
check(prod.vars?.ENVIRONMENT === 'production', 'vars.ENVIRONMENT must be "production" (sandbox routes off)');
// docs/contract.md, Environments and configuration: ENVIRONMENT is exactly staging or production everywhere;
// the location host is required in production, as a secret the deploy refuses to go without.
check(
  ['staging', 'production'].includes(top.vars?.ENVIRONMENT),
  `top-level vars.ENVIRONMENT must be "staging" or "production", not ${JSON.stringify(top.vars?.ENVIRONMENT)}`,
);
check(
  (prod.secrets?.required ?? []).includes('PIX_LOCATION_HOST') || Boolean(prod.vars?.PIX_LOCATION_HOST),
  'PIX_LOCATION_HOST must be set or required in production (BR Code location host)',
);
check((prod.triggers?.crons ?? []).length > 0, 'a cron trigger is required (backstop sweeps)');
check(prod.observability?.enabled === true, 'observability must be enabled');
const bindingNames = (list, key) => new Set((list ?? []).map((b) => b[key]));
for (const [label, key, topList, prodList] of [
  ['D1 database', 'binding', top.d1_databases, prod.d1_databases],
  ['Durable Object', 'name', top.durable_objects?.bindings, prod.durable_objects?.bindings],
  ['queue producer', 'binding', top.queues?.producers, prod.queues?.producers],
]) {
  const missing = [...bindingNames(topList, key)].filter((name) => !bindingNames(prodList, key).has(name));
  check(missing.length === 0, `${label} binding(s) missing in production: ${missing.join(', ')}`);
}
const producedQueues = bindingNames(prod.queues?.producers, 'queue');
for (const consumer of prod.queues?.consumers ?? []) {
  check(Boolean(consumer.dead_letter_queue), `queue consumer ${consumer.queue} has no dead_letter_queue`);
  check(producedQueues.has(consumer.queue), `queue consumer ${consumer.queue} consumes no produced queue`);
}
for (const queue of producedQueues) {
  check(
    (prod.queues?.consumers ?? []).some((c) => c.queue === queue),
    `queue ${queue} has a producer but no consumer in production`,
  );
}
const requiredSecrets = new Set(prod.secrets?.required ?? []);
for (const secret of top.secrets?.required ?? []) {
  check(requiredSecrets.has(secret), `secret ${secret} is not declared in production's secrets.required`);
}
for (const db of prod.d1_databases ?? []) {
  check(Boolean(db.migrations_dir), `D1 database ${db.binding} has no migrations_dir`);
}

// 2. The bundle, exactly as `wrangler deploy --env production` would upload it.
const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-bundle-'));
let runtime;
const logLines = [];
try {
  const outdir = path.join(work, 'bundle');
  bundleWorker({ outdir, env: ENV, quiet: true });
  const entry = path.join(outdir, 'index.js');
  const code = readFileSync(entry, 'utf8');
  // What is uploaded is index.js and every module beside it (text assets: the docs page's Redoc,
  // uPlot, SQL): wrangler's "Total Upload" counts them all, and Cloudflare's limit applies to them all.
  const uploaded = readdirSync(outdir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && !f.name.endsWith('.map'))
    .map((f) => path.join(f.parentPath, f.name));
  const totalBytes = uploaded.reduce((n, f) => n + statSync(f).size, 0);
  const gzipBytes = uploaded.reduce((n, f) => n + gzipSync(readFileSync(f)).length, 0);
  check(gzipBytes < MAX_GZIP_BYTES, `the upload is ${gzipBytes} bytes gzipped (limit ${MAX_GZIP_BYTES})`);

  // 4. Staging-only machinery: absent from this bundle, present in the staging one.
  const stagingDir = path.join(work, 'staging-bundle');
  bundleWorker({ outdir: stagingDir, env: '', quiet: true });
  const stagingCode = readFileSync(path.join(stagingDir, 'index.js'), 'utf8');
  const [productionModules, stagingModules] = [modulesOf(code), modulesOf(stagingCode)];
  check(productionModules.size > 50, `found only ${productionModules.size} modules in the production bundle`);
  for (const module of STAGING_ONLY.modules) {
    check(!productionModules.has(module), `the production bundle contains the staging-only ${module}`);
    check(stagingModules.has(module), `the staging bundle lacks ${module}: is STAGING_ONLY out of date?`);
  }
  for (const name of STAGING_ONLY.names) {
    check(!hasName(code, name), `the production bundle contains the staging-only name ${name}`);
    check(
      hasName(stagingCode, name),
      `the staging bundle lacks the name ${name}: is STAGING_ONLY out of date?`,
    );
  }

  // 3. It starts and serves, with the production bindings. Throwaway secrets, also in process.env
  // so wrangler does not warn about (or read) a developer's own.
  const varsFile = writeDevVars(path.join(work, 'vars'));
  Object.assign(process.env, parseEnv(readFileSync(varsFile, 'utf8')));
  // Production takes its secrets from the environment too: an operator's own location host there
  // must not make the refusal below pass for the wrong reason.
  delete process.env.PIX_LOCATION_HOST;
  // Without PIX_LOCATION_HOST the production bundle must refuse to start (fails closed).
  const refused = await startLocalRuntime({
    env: ENV,
    port: 0,
    build: false,
    buildDir: outdir,
    persistTo: path.join(work, 'state-refused'),
    varsFile,
    cron: false,
    log: () => {},
    onLog: () => {},
  }).then(
    async (started) => {
      await started.dispose();
      return false;
    },
    (error) => /refuses to start/.test(String(error?.message ?? error)),
  );
  check(refused, 'the production bundle started without PIX_LOCATION_HOST');
  appendFileSync(varsFile, 'PIX_LOCATION_HOST=pix.example.com.br\n');
  runtime = await startLocalRuntime({
    env: ENV,
    port: 0,
    build: false,
    buildDir: outdir,
    persistTo: path.join(work, 'state'),
    varsFile,
    cron: false,
    log: () => {},
    onLog: ({ level, message }) => logLines.push({ level, message }),
  });
  const unknown = await fetch(`${runtime.url}/no-such-route`);
  check(
    unknown.status === 404 && (await unknown.json()).code === 'NOT_FOUND',
    `GET /no-such-route answered ${unknown.status}, not a 404 Problem Details`,
  );
  check(Boolean(unknown.headers.get('x-request-id')), 'responses carry no x-request-id');
  const jwks = await fetch(`${runtime.url}/.well-known/jwks.json`);
  check(jwks.status === 200, `GET /.well-known/jwks.json answered ${jwks.status}`);
  const sandbox = await fetch(`${runtime.url}/sandbox/accounts/1/deposit`, { method: 'POST' });
  check(sandbox.status === 404, `sandbox routes answer ${sandbox.status} in production, not 404`);

  // Every line the worker wrote is one structured JSON object with a request id (observability).
  for (const { message } of logLines) {
    let line;
    try {
      line = JSON.parse(message);
    } catch {}
    check(
      typeof line?.requestId === 'string',
      `log line is not JSON with a requestId: ${message.slice(0, 120)}`,
    );
  }
  check(logLines.length >= 3, `expected one log line per request, got ${logLines.length}`);

  if (problems.length === 0) {
    const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
    console.log(
      `check:bundle: production bundle OK: index.js ${kib(statSync(entry).size)}; the whole upload (index.js and ` +
        `${uploaded.length - 1} module(s) beside it, what wrangler's "Total Upload" counts) ${kib(totalBytes)}, ` +
        `${kib(gzipBytes)} gzipped; it starts in workerd and serves`,
    );
    console.log(
      `check:bundle: staging-only, in the staging bundle and absent from production's:\n` +
        `  modules: ${STAGING_ONLY.modules.join(', ')}\n  names: ${STAGING_ONLY.names.join(', ')}`,
    );
  }
} catch (error) {
  problems.push(String(error instanceof Error ? error.message : error));
} finally {
  await runtime?.dispose();
  rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`check:bundle: the production bundle must not be deployed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
