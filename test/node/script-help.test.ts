/**
 * Every npm script answers `--help` with its usage, quickly, instead of running: a newcomer asked
 * `npm run health:score -- --help` and got a multi-minute run. Each script of package.json is run
 * as a user runs it (`npm run <name> -- --help`) with a bound on its time; scripts that are one
 * third-party command (biome, wrangler types) answer with that tool's own help.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';

const scripts = Object.keys(
  (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts,
);
/** A busy 2-core machine starts tsx or wrangler in a few seconds; a real run takes far longer. */
const LIMIT_MS = 45_000;
const THIRD_PARTY: Record<string, RegExp> = {
  lint: /Usage: biome check/,
  format: /Usage: biome check/,
  types: /wrangler types \[path\]/,
};

function help(name: string): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name, '--', '--help'], {
      cwd: ROOT,
      env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}

it('every package.json script prints its usage for --help and exits 0 without running', async () => {
  expect(scripts.length).toBeGreaterThan(15);
  const results = new Map<string, Awaited<ReturnType<typeof help>>>();
  // Two at a time: the machine is shared.
  const queue = [...scripts];
  await Promise.all(
    [0, 1].map(async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift())
        results.set(name, await help(name));
    }),
  );
  const problems: string[] = [];
  for (const name of scripts) {
    const { code, output, ms } = results.get(name)!;
    const expected =
      THIRD_PARTY[name] ?? new RegExp(`^Usage: npm (run )?${name.replace(/[:]/g, '\\:')}\\b`, 'm');
    if (code !== 0 || !expected.test(output) || ms >= LIMIT_MS)
      problems.push(`${name}: exit ${code} after ${ms} ms: ${output.slice(0, 300)}`);
  }
  expect(problems).toEqual([]);
}, 600_000);
