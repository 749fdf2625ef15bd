/**
 * The first `npm start` on a fresh state is readable: one line for the D1 migrations instead of a
 * table per migration (about 200 lines), and the bindings listed once, not twice; with PORT=0 every
 * address it prints is the one wrangler listens on.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { START_HOOK_MS, spawnNode, type Watched, waitForOutput } from '../support/processes';

const state = mkdtempSync(path.join(tmpdir(), 'connectpsp-start-output-'));
const WRANGLER = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
let start: Watched | undefined;

afterAll(async () => {
  await start?.stop();
  rmSync(state, { recursive: true, force: true });
});

it(
  'prints the migrations in one line and the bindings once before it is ready',
  async () => {
    // PORT=0: wrangler takes a free port; every address printed is the one it listens on.
    start = spawnNode(['scripts/start.mjs', '--persist-to', state], {
      env: { ...process.env, PORT: '0', WRANGLER_SEND_METRICS: 'false' },
    });
    const ready = await waitForOutput(start, 'the Ready line', /Ready on http:\/\/127\.0\.0\.1:(\d+)/);
    const port = Number(ready[1]);
    expect(port).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${port}/openapi.json`)).status).toBe(200);
    // A newcomer is told where to look, and the root answers instead of a 404.
    await waitForOutput(start, 'the console line', /Operator console:.*\n/);
    const output = start.output();
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
    // Applied in wrangler's own table: its migration commands see nothing left to apply.
    const list = spawnSync(
      process.execPath,
      [WRANGLER, 'd1', 'migrations', 'list', 'DB', '--local', '--persist-to', state],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' } },
    );
    expect(list.stdout + list.stderr).toContain('No migrations to apply');
  },
  START_HOOK_MS,
);
