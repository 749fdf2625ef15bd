// Local secrets in .dev.vars (git-ignored), shared by `npm start` (scripts/start.mjs) and
// `npm run serve` (scripts/serve.mjs). When the file is missing it is created with
// ADMIN_TOKEN=dev-admin-token and fresh random values for every other secret (docs/contract.md, Running it).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, linkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes a secrets file in .dev.vars format with fresh random values (ADMIN_TOKEN=dev-admin-token). */
export function writeDevVars(file) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
  writeFileSync(
    file,
    [
      '# Local secrets for `npm start` / `npm run serve` (git-ignored). Delete this file to get fresh ones.',
      'ADMIN_TOKEN=dev-admin-token',
      `JWT_SECRET=${randomBytes(32).toString('base64')}`,
      `DATA_ENCRYPTION_KEY=${randomBytes(32).toString('base64')}`,
      `PIX_SIGNING_KEY='${jwk}'`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  return file;
}

/**
 * Creates `<root>/.dev.vars` when it does not exist; returns its path. Written aside, then linked
 * into place, which fails if it exists: two `npm start`s on a fresh clone (test files in parallel)
 * never read a half-written file nor replace the one the other already serves with.
 */
export function ensureDevVars(root) {
  const devVars = path.join(root, '.dev.vars');
  if (existsSync(devVars)) return devVars;
  const aside = writeDevVars(`${devVars}.${process.pid}.tmp`);
  try {
    linkSync(aside, devVars);
    console.log('Created .dev.vars with ADMIN_TOKEN=dev-admin-token and fresh random secrets.');
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  } finally {
    rmSync(aside, { force: true });
  }
  return devVars;
}
