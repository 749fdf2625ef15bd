import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { fakePspEnvironment, fakePspFetcher } from './test/setup/fake-psp';

/**
 * Test files that inject sandbox partner faults (POST /admin/partners/{ispb}/faults). A fault is
 * partner-wide state in D1, so these files run one at a time, after every other file has finished:
 * their faults never fail or slow another file's Cash-Ins and Cash-Outs, and one file's DELETE never
 * clears another's fault early.
 */
const PARTNER_FAULT_FILES = [
  'test/crash/partner-faults.test.ts',
  'test/crash/refund-failure.test.ts',
  'test/health/queue-e2e.test.ts',
  'test/api/cash-out/happy.test.ts',
  'test/security/fuzz-no-5xx.test.ts',
  'test/api/cash-in/happy-idempotency.test.ts',
  'test/openapi/conformance-operator.test.ts',
  'test/soak/soak-short.test.ts',
  'test/api/view-agreement.test.ts',
  'test/api/operators/happy-change-audit.test.ts',
];

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
            // test/storage/bench-seed.test.ts: the bench-only seeding path (src/config.ts).
            BENCH_SEED: 'on',
            // test/api/operators/security-access.test.ts: Cloudflare Access in front of /admin, its
            // JWKS stubbed there (the team domain is never reached).
            ACCESS_TEAM_DOMAIN: 'connectpsp-test.cloudflareaccess.com',
            ACCESS_AUD: 'test-access-audience',
            // Two real-bank partners (API Pix), each backed by its own validating fake PSP
            // (test/setup/fake-psp.ts); only the second offers Pix Automático.
            ...fakePspEnvironment('TEST_PSP_CERT', 'TEST_REC_PSP_CERT'),
          },
          serviceBindings: {
            TEST_PSP_CERT: fakePspFetcher(
              path.join(import.meta.dirname, 'test/fixtures/bcb-pix-api/openapi.yaml'),
            ),
            TEST_REC_PSP_CERT: fakePspFetcher(
              path.join(import.meta.dirname, 'test/fixtures/bcb-pix-api/openapi.yaml'),
            ),
          },
        },
      }),
    ],
    test: {
      projects: [
        {
          extends: true,
          test: {
            name: 'parallel',
            include: ['test/**/*.test.ts'],
            exclude: [...PARTNER_FAULT_FILES, 'test/node/**'],
            sequence: { groupOrder: 0 },
          },
        },
        {
          extends: true,
          test: {
            name: 'partner-faults',
            include: PARTNER_FAULT_FILES,
            fileParallelism: false,
            sequence: { groupOrder: 1 },
          },
        },
      ],
      setupFiles: ['./test/setup/apply-migrations.ts'],
      globalSetup: ['./test/setup/webhook-receiver.ts'],
      // Deadlines hold on a busy two-core machine: the slowest tests take 10-30 s alone and three
      // times that beside other servers; a hang still fails, two minutes later.
      testTimeout: 120_000,
      // The gateway's structured request logs would drown test output; tests that assert on logs
      // capture console themselves.
      onConsoleLog: (line: string) => !line.startsWith('{"level":'),
      hookTimeout: 120_000,
    },
  };
});
