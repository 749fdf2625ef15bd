#!/usr/bin/env node
// The npm scripts made of several commands (`npm test`, `npm run check`, `npm run deploy`,
// `npm run db:generate`): one place that runs their steps in order, stops at the first that fails,
// and answers `--help` with the usage before running anything. In package.json as `a && b && c`,
// a `--help` reached only the last command, after the others had run (a deploy's migrations!).
// Arguments after `--` go to the last step, as npm did.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { exitWithUsageIfAsked } from './usage.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const npm = (script) => ['npm', ['run', '--silent', script]];

const TASKS = {
  test: {
    usage: `Usage: npm test [-- <vitest options for the Node-side run>]

Everything: npm run check, then the Workers tests (vitest run), then the Node-side tests
(vitest run --config vitest.node.config.ts). Long: on a shared machine run single files instead,
e.g. npx vitest run test/api/cash-in/happy-create.test.ts`,
    steps: [npm('check'), ['vitest', ['run']], ['vitest', ['run', '--config', 'vitest.node.config.ts']]],
  },
  check: {
    usage: `Usage: npm run check

Biome, check:structure, tsc (src, health tools, soak), wrangler types --check, openapi:lint and
check:bundle, in that order; stops at the first failure.`,
    steps: [
      ['biome', ['check', '.']],
      npm('check:structure'),
      ['tsc', ['--noEmit']],
      ['tsc', ['-p', 'scripts/health-tsconfig.json']],
      ['tsc', ['-p', 'scripts/soak/tsconfig.json']],
      ['wrangler', ['types', '--include-runtime=false', '--check']],
      npm('openapi:lint'),
      npm('check:bundle'),
    ],
  },
  deploy: {
    usage: `Usage: npm run deploy [-- <wrangler deploy options>]

Ships production: npm run check:bundle (a broken bundle never lands), then
wrangler d1 migrations apply DB --remote --env production, then wrangler deploy --env production.
Needs the production secrets set first (docs/operating.md).`,
    steps: [
      npm('check:bundle'),
      ['wrangler', ['d1', 'migrations', 'apply', 'DB', '--remote', '--env', 'production']],
      ['wrangler', ['deploy', '--env', 'production']],
    ],
  },
  'db:generate': {
    usage: `Usage: npm run db:generate

drizzle-kit generate for the three schemas (D1: drizzle.config.ts; the ClientLedger and
HealthAnalyzer SQLite: drizzle.ledger.config.ts, drizzle.health.config.ts).`,
    steps: ['drizzle.config.ts', 'drizzle.ledger.config.ts', 'drizzle.health.config.ts'].map((c) => [
      'drizzle-kit',
      ['generate', '--config', c],
    ]),
  },
};

const [name, ...extra] = process.argv.slice(2);
const task = TASKS[name];
if (!task) {
  console.error(`tasks.mjs: unknown task ${name}; one of ${Object.keys(TASKS).join(', ')}`);
  process.exit(2);
}
exitWithUsageIfAsked(task.usage, extra);
const PATH = `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`;
task.steps.forEach(([command, args], i) => {
  const last = i === task.steps.length - 1;
  const run = spawnSync(command, last ? [...args, ...extra] : args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PATH },
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
});
