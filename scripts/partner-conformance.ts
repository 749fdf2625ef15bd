/**
 * npm run partner:conformance — drives the partner adapters through every operation they use
 * against local fakes: the BCB API Pix adapter with every request and response validated against
 * the vendored bacen/pix-api openapi.yaml, and the payout adapter (Efí Pix Send) against Efí's SDK
 * schemas and documented answers. Exit 0 only with 0 invalid exchanges and every expectation met.
 */
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { runConformance } from '../test/support/bcb-pix-conformance';
import { runPayoutConformance } from '../test/support/efi-payout-conformance';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run partner:conformance

Drives both partner adapters through every operation against local fakes, every exchange validated
(API Pix: vendored bacen/pix-api; Pix Send: Efí's SDK schemas). Exit 0 only with 0 invalid.
`);

const doc = yaml.load(
  readFileSync(new URL('../test/fixtures/bcb-pix-api/openapi.yaml', import.meta.url), 'utf8'),
);
const results = [
  await runConformance(doc as Parameters<typeof runConformance>[0]),
  await runPayoutConformance(),
];
const invalid = results.flatMap((r) => r.invalid);
const failures = results.flatMap((r) => r.failures);
for (const line of results.flatMap((r) => r.quirks ?? []))
  console.log(`read by intent: pattern ${line}, a regex literal no string matches as written`);
for (const line of results.flatMap((r) => r.requiredQuirks ?? [])) console.log(`read by intent: ${line}`);
for (const line of invalid) console.log(`invalid: ${line}`);
for (const line of failures) console.log(`unexpected: ${line}`);
const sum = (key: 'operations' | 'requests') => results.reduce((s, r) => s + r[key], 0);
const callbacks = results.flatMap((r) => r.callbacks ?? []);
console.log(
  `partners: ${sum('operations')} operations, ${sum('requests')} requests, ${callbacks.length} callbacks (${callbacks.join(', ')}), ${invalid.length} invalid`,
);
process.exit(invalid.length === 0 && failures.length === 0 ? 0 : 1);
