/**
 * The real runtime for a Node-side test: the deploy bundle in workerd (staging) on a random port,
 * with its state, bundle and secrets under `work`, quiet, and no cron timer (tests fire it).
 */
import path from 'node:path';
import { type LocalRuntimeOptions, startLocalRuntime } from '../../../runtime/local-runtime.mjs';
import { writeDevVars } from '../../../scripts/dev-vars.mjs';

export function startTestRuntime(work: string, options: Partial<LocalRuntimeOptions> = {}) {
  return startLocalRuntime({
    port: 0,
    persistTo: path.join(work, 'state'),
    buildDir: path.join(work, 'build'),
    varsFile: writeDevVars(path.join(work, 'vars')),
    cron: false,
    onLog: () => {},
    log: () => {},
    ...options,
  });
}
