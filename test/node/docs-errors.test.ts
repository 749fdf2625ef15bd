/**
 * docs/integrating.md's "Errors and retries" says what the API answers (docs/contract.md,
 * Authentication): the login 401 is a plain {message} and the ApplicationToken 401 has no `code`,
 * so "branch on code" cannot be the whole rule; X-Idempotency-Key is optional and its table of
 * outcomes is there. The bodies themselves are checked against the OpenAPI document by
 * test/openapi/conformance-errors.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';

function section(file: string, heading: string): string {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, `${file} has no "## ${heading}"`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

it('the errors section names the 401s without a code and says the idempotency key is optional', () => {
  const errors = section('docs/integrating.md', 'Errors and retries');
  expect(errors).toMatch(/login.*`\{"message": "Invalid client credentials"\}`.*no `code`/);
  expect(errors).toMatch(/`ApplicationToken`.*Problem Details \*\*without `code`\*\*/);
  expect(errors).toMatch(/JWT missing, invalid or expired \| no body/);
  expect(errors).toMatch(/`X-Idempotency-Key` is \*\*optional\*\*/);
  for (const code of ['IDEMPOTENCY_KEY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_INVALID'])
    expect(errors).toContain(code);
  expect(errors).toContain('Idempotent-Replayed: true');
  expect(errors).not.toMatch(/Every error is RFC 7807/);
});
