import { defineConfig } from 'vitest/config';

// Node-side tests of the self-hosted runtime and tooling (test/node): they start workerd or
// servers of their own, so they run in Node, outside the Workers pool of vitest.config.ts.
export default defineConfig({
  test: {
    name: 'node',
    include: ['test/node/**/*.test.ts'],
    environment: 'node',
    // One staging bundle for every file that starts a runtime (test/node/support/runtime.ts).
    globalSetup: ['./test/node/setup/shared-bundle.ts'],
    // A hang still fails, but a busy two-core machine does not: a hook that starts a runtime (bundle,
    // workerd, migrations) takes 20 s alone and several times that beside other servers; tests that
    // start one themselves say START_HOOK_MS (test/support/processes.ts).
    testTimeout: 300_000,
    hookTimeout: 360_000,
    // expect.poll waits for an outcome (a page filled, a row shown): 1 s by default, which a page
    // read under load outlasts; a minute here.
    expect: { poll: { timeout: 60_000, interval: 250 } },
  },
});
