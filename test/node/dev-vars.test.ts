/**
 * `.dev.vars` created by several `npm start`s at once (test files in parallel on a fresh clone):
 * every one of them reads the same complete file, never a half-written one nor one another start
 * replaced after it had read its own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-dev-vars-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Each process waits for the same instant, creates `<root>/.dev.vars`, then prints what it reads there. */
const CREATE_AT = `
import { readFileSync } from 'node:fs';
import { ensureDevVars } from ${JSON.stringify(path.join(ROOT, 'scripts', 'dev-vars.mjs'))};
const [root, at] = process.argv.slice(1);
while (Date.now() < Number(at));
process.stdout.write('\\0' + readFileSync(ensureDevVars(root), 'utf8'));
`;

function create(root: string, at: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CREATE_AT, root, String(at)]);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) =>
      code === 0 ? resolve(out.slice(out.lastIndexOf('\0') + 1)) : reject(new Error(out)),
    );
  });
}

it('gives every start at once the same complete .dev.vars', async () => {
  for (let round = 0; round < 5; round++) {
    const root = mkdtempSync(path.join(work, 'root-'));
    const at = Date.now() + 1_500;
    const seen = await Promise.all([0, 1, 2, 3].map(() => create(root, at)));
    const file = readFileSync(path.join(root, '.dev.vars'), 'utf8');
    expect(file).toMatch(/^PIX_SIGNING_KEY='\{.*\}'$/m);
    for (const read of seen) expect(read).toBe(file);
  }
}, 120_000);
