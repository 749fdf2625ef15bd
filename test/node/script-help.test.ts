/**
 * Every npm script answers `--help` with its usage instead of running: a newcomer asked
 * `npm run health:score -- --help` and got a multi-minute run. Each script of package.json is run
 * as a user runs it (`npm run <name> -- --help`); its output must be its usage and nothing before
 * it, and it must exit 0. Scripts that are one third-party command (biome, wrangler types) answer
 * with that tool's own help. Time is no criterion (a busy machine starts tsx slowly): a script still
 * running after DEADLINE_MS is killed and named as one that never answered.
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
/** A hang, not a slow start: tsx or wrangler answer in seconds even on a busy 2-core machine. */
const DEADLINE_MS = 3 * 60_000;
/** Scripts asked at once: the machine is shared. */
const LANES = 2;
/** Long enough for every script to hang in turn, so the problems list names them, not a time-out. */
const TEST_MS = Math.ceil(scripts.length / LANES) * DEADLINE_MS + 60_000;
const THIRD_PARTY: Record<string, RegExp> = {
  lint: /Usage: biome check/,
  format: /Usage: biome check/,
  types: /wrangler types \[path\]/,
};

function help(name: string): Promise<{ code: number | null; output: string; hung: boolean }> {
  let hung = false;
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name, '--', '--help'], {
      cwd: ROOT,
      env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, DEADLINE_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, hung });
    });
  });
}

it(
  'every package.json script prints its usage for --help and exits 0 without running',
  async () => {
    expect(scripts.length).toBeGreaterThan(15);
    const results = new Map<string, Awaited<ReturnType<typeof help>>>();
    const queue = [...scripts];
    await Promise.all(
      Array.from({ length: LANES }, async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift())
          results.set(name, await help(name));
      }),
    );
    const problems: string[] = [];
    for (const name of scripts) {
      const { code, output, hung } = results.get(name)!;
      // Ours: the usage is the first thing printed, so nothing ran before it.
      const expected =
        THIRD_PARTY[name] ?? new RegExp(`^Usage: npm (run )?${name.replace(/[:]/g, '\\:')}\\b`);
      if (hung)
        problems.push(
          `${name}: still running ${DEADLINE_MS / 1000} s after --help (killed): ${output.slice(0, 300)}`,
        );
      else if (code !== 0 || !expected.test(output.trimStart()))
        problems.push(`${name}: exit ${code}: ${output.slice(0, 300)}`);
    }
    expect(problems).toEqual([]);
  },
  TEST_MS,
);
