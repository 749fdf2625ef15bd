/**
 * npm run partner:conformance — drives the BCB API Pix adapter through every operation it uses
 * against a local fake PSP, validating every request and response against the vendored
 * bacen/pix-api openapi.yaml. Exit 0 only with 0 invalid exchanges and every expectation met.
 */
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { runConformance } from '../test/support/bcb-pix-conformance';

const doc = yaml.load(
  readFileSync(new URL('../test/fixtures/bcb-pix-api/openapi.yaml', import.meta.url), 'utf8'),
);
const result = await runConformance(doc as Parameters<typeof runConformance>[0]);
for (const line of result.invalid) console.log(`invalid: ${line}`);
for (const line of result.failures) console.log(`unexpected: ${line}`);
console.log(
  `partners: ${result.operations} operations, ${result.requests} requests, ${result.invalid.length} invalid`,
);
process.exit(result.invalid.length === 0 && result.failures.length === 0 ? 0 : 1);
