/**
 * Vitest globalSetup of the Node-side tests: a directory for this run's one staging bundle of the
 * worker, which the first file that starts a runtime builds and every other file reuses
 * (test/node/support/runtime.ts). A new directory each run, so no bundle outlives the sources it
 * was built from; removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedBundleDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'connectpsp-node-tests-bundle-'));
  project.provide('sharedBundleDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
