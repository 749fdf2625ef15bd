/**
 * wrangler.toml cannot ship the wrong configuration to production (docs/operating.md, "Staging and
 * production Workers"): a bare `wrangler deploy` (no --env) names a different Worker than
 * `--env production`, so staging settings (sandbox routes on) never reach the production Worker;
 * and the production configuration is complete enough that wrangler has nothing to warn about.
 * Both run `wrangler deploy --dry-run` exactly as an operator would (nothing is uploaded).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-deploy-config-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `wrangler deploy --dry-run [...args]`: its console output and the Worker name it would deploy. */
function dryRun(label: string, args: string[]) {
  const outputFile = path.join(work, `${label}.ndjson`);
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', ...args],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        CI: 'true',
        WRANGLER_SEND_METRICS: 'false',
        // wrangler's machine-readable record of the command: the deploy's worker_name.
        WRANGLER_OUTPUT_FILE_PATH: outputFile,
        FORCE_COLOR: '0',
      },
    },
  );
  expect(result.status, result.stderr).toBe(0);
  const records = readFileSync(outputFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const deploy = records.find((r) => r.type === 'deploy');
  return { output: `${result.stdout}\n${result.stderr}`, workerName: deploy?.worker_name as string };
}

it('a bare `wrangler deploy` targets another Worker than production; production deploys without a warning', () => {
  const production = dryRun('production', ['--env', 'production', '--outdir', path.join(work, 'prod')]);
  const bare = dryRun('bare', ['--outdir', path.join(work, 'bare')]);
  expect(production.workerName).toBe('connectpsp');
  expect(bare.workerName).toBeTruthy();
  expect(bare.workerName).not.toBe(production.workerName);
  // The bare deploy is the staging configuration, so its name says so.
  expect(bare.output).toMatch(/env\.ENVIRONMENT \("staging"\)/);
  expect(bare.workerName).toMatch(/staging/);
  expect(production.output).toMatch(/env\.ENVIRONMENT \("production"\)/);
  expect(production.output).not.toMatch(/WARNING|▲/);
}, 120_000);
