/**
 * The real runtime for a Node-side test: the deploy bundle in workerd (staging) on a random port,
 * with its state and secrets under `work`, quiet, and no cron timer (tests fire it). The staging
 * bundle is built once per test run and shared by every file (test/node/setup/shared-bundle.ts):
 * one `wrangler deploy --dry-run` instead of one a file.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import {
  bundleWorker,
  type LocalRuntimeOptions,
  startLocalRuntime,
} from '../../../runtime/local-runtime.mjs';
import { writeDevVars } from '../../../scripts/dev-vars.mjs';
import { START_DEADLINE_MS, waitFor } from '../../support/processes';

/**
 * The run's staging bundle: built by the first caller (its lock is a directory, made atomically),
 * waited for by the others; a failed build fails them all with its message.
 */
async function sharedBundle(): Promise<string> {
  const dir = inject('sharedBundleDir');
  const build = path.join(dir, 'build');
  const built = path.join(dir, 'built');
  const failed = path.join(dir, 'failed');
  try {
    mkdirSync(path.join(dir, 'lock'));
  } catch {
    const outcome = await waitFor(
      'the shared staging bundle',
      () => (existsSync(built) ? 'built' : existsSync(failed) ? readFileSync(failed, 'utf8') : undefined),
      { ms: START_DEADLINE_MS },
    );
    if (outcome !== 'built') throw new Error(`the shared staging bundle failed: ${outcome}`);
    return build;
  }
  try {
    bundleWorker({ outdir: build, quiet: true });
  } catch (error) {
    writeFileSync(failed, String(error));
    throw error;
  }
  writeFileSync(built, '');
  return build;
}

export async function startTestRuntime(work: string, options: Partial<LocalRuntimeOptions> = {}) {
  const own = options.env !== undefined || options.build !== undefined || options.buildDir !== undefined;
  return startLocalRuntime({
    port: 0,
    persistTo: path.join(work, 'state'),
    ...(own ? { buildDir: path.join(work, 'build') } : { buildDir: await sharedBundle(), build: false }),
    varsFile: writeDevVars(path.join(work, 'vars')),
    cron: false,
    onLog: () => {},
    log: () => {},
    ...options,
  });
}
