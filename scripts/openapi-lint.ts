// `npm run openapi:lint`: generates the OpenAPI document into a temporary directory and lints it
// with Redocly CLI (rules in redocly.yaml). Offline: telemetry and update checks are off.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildOpenApiDocument } from '../src/api/document';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run openapi:lint

Generates the OpenAPI document into a temporary directory and lints it with Redocly CLI
(rules in redocly.yaml). Offline.
`);

const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'connectpsp-openapi-'));
const file = path.join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));

const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const lint = spawnSync(
  process.execPath,
  [cli, 'lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'stylish'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
);
rmSync(dir, { recursive: true, force: true });
process.exit(lint.status ?? 1);
