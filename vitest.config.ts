import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// Tests run inside workerd with the real bindings of wrangler.toml (D1, Durable Objects, Queues);
// only the secrets are supplied here, fresh for each run.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const secrets = {
    ADMIN_TOKEN: 'test-admin-token',
    JWT_SECRET: randomBytes(32).toString('base64'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PIX_SIGNING_KEY: JSON.stringify(privateKey.export({ format: 'jwk' })),
  };
  // Bindings win over a developer's .dev.vars; process.env satisfies wrangler's required-secrets
  // check on a fresh clone where no .dev.vars exists.
  Object.assign(process.env, secrets);
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            ...secrets,
          },
        },
      }),
    ],
    test: {
      include: ['test/**/*.test.ts'],
      setupFiles: ['./test/setup/apply-migrations.ts'],
      globalSetup: ['./test/setup/webhook-receiver.ts'],
      testTimeout: 30_000,
      // The gateway's structured request logs would drown test output; tests that assert on logs
      // capture console themselves.
      onConsoleLog: (line: string) => !line.startsWith('{"level":'),
      hookTimeout: 30_000,
    },
  };
});
