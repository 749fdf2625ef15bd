/**
 * The first `npm start` on a fresh state is readable: one line for the D1 migrations instead of a
 * table per migration (about 200 lines), and the bindings listed once, not twice.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';

const state = mkdtempSync(path.join(tmpdir(), 'connectpsp-start-output-'));
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child?.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(state, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

it('prints the migrations in one line and the bindings once before it is ready', async () => {
  const port = await freePort();
  child = spawn(process.execPath, ['scripts/start.mjs', '--persist-to', state], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      PATH: `${path.join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`,
      WRANGLER_SEND_METRICS: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const deadline = Date.now() + 170_000;
  while (!/Ready on http/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(output);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect((await fetch(`http://127.0.0.1:${port}/openapi.json`)).status).toBe(200);
  // A newcomer is told where to look, and the root answers instead of a 404.
  while (!/Operator console:.*\n/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(output);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(output).toContain(`[start] API documentation: http://127.0.0.1:${port}/docs`);
  expect(output).toMatch(
    new RegExp(
      `Operator console: +http://127\\.0\\.0\\.1:${port}/admin/console \\(sign in with ADMIN_TOKEN from \\.dev\\.vars\\)`,
    ),
  );
  const root = await fetch(`http://127.0.0.1:${port}/`);
  expect(root.status).toBe(200);
  const landing = await root.text();
  expect(landing).toContain('href="/docs"');
  expect(landing).toContain('href="/admin/console"');
  const lines = output.split('\n');
  expect(output).toMatch(/\[start\] D1: applied \d+ migration\(s\), 0000_init\.sql … \d{4}_\w+\.sql/);
  expect(output).not.toMatch(/[┌└│]/); // no migration tables
  expect(output.match(/Your Worker has access to the following bindings/g)).toHaveLength(1);
  expect(lines.length, output).toBeLessThan(45);
}, 200_000);
