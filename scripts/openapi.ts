// `npm run openapi -- [file]`: writes the OpenAPI document the Worker serves at GET /openapi.json
// (built from the same code, no server needed) to `file`, or to stdout without one.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from '../src/api/document';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run openapi -- [file]

Writes the OpenAPI 3.1 document the Worker serves at GET /openapi.json to file (stdout without one).
No server needed.
`);

const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
const out = process.argv[2];
if (out) {
  mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  writeFileSync(out, text);
  console.error(`OpenAPI document written to ${out}`);
} else {
  process.stdout.write(text);
}
