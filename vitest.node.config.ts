import { defineConfig } from 'vitest/config';

// Node-side tests of the self-hosted runtime and tooling (test/node): they start workerd or
// servers of their own, so they run in Node, outside the Workers pool of vitest.config.ts.
export default defineConfig({
  test: {
    name: 'node',
    include: ['test/node/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
