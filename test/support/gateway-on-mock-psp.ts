/**
 * The gateway as an operator runs it locally (`npm start`, wrangler dev, staging) with a
 * `bcb-api-pix` partner declared on the command line and pointed at the mock PSP
 * (`npm run mock:psp`), for a Node test file: started before its tests, stopped after them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, beforeAll, expect } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { FAKE_PSP_ISPB } from './fake-psp-env';
import { type MockPsp, startMockPsp } from './mock-psp-server';

/** `label` names the file's state directory. */
export function gatewayOnMockPsp(label: string) {
  let psp: MockPsp;
  let gateway: ChildProcess;
  let base: string;
  let output = '';
  const state = mkdtempSync(path.join(tmpdir(), `connectpsp-${label}-`));

  function freePort(): Promise<number> {
    return new Promise((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
  }

  async function until<T>(
    what: string,
    read: () => Promise<T>,
    ok: (v: T) => boolean,
    ms = 15_000,
  ): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await read().catch(() => undefined as T);
      if (value !== undefined && ok(value)) return value;
      if (Date.now() > end) throw new Error(`${what}: last ${JSON.stringify(value)}\n${output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  beforeAll(async () => {
    psp = await startMockPsp();
    const port = await freePort();
    const vars = Object.entries(psp.partnerVars).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
    gateway = spawn(process.execPath, ['scripts/start.mjs', ...vars, '--persist-to', state], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        PATH: `${path.join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    gateway.stdout?.on('data', (d) => (output += d));
    gateway.stderr?.on('data', (d) => (output += d));
    base = `http://127.0.0.1:${port}`;
    await until(
      'npm start serving',
      () => fetch(`${base}/openapi.json`).then((r) => r.status),
      (s) => s === 200,
      150_000,
    );
  }, 180_000);

  afterAll(async () => {
    if (gateway && gateway.exitCode === null) {
      const exited = new Promise((r) => gateway.once('exit', r));
      gateway.kill('SIGTERM');
      await exited;
    }
    await psp?.close();
    rmSync(state, { recursive: true, force: true });
  }, 30_000);

  const ADMIN = () => parseEnv(readFileSync(path.join(ROOT, '.dev.vars'), 'utf8')).ADMIN_TOKEN as string;
  const control = async (name: string, body?: unknown) => {
    const res = await fetch(`${psp.url}/__control/${name}`, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    expect(res.status).toBe(200);
    return res.json() as Promise<any>;
  };

  async function integrator(name: string) {
    const onboard = await fetch(`${base}/admin/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, partners: [FAKE_PSP_ISPB] }),
    });
    expect(onboard.status, await onboard.clone().text()).toBe(201);
    const client = (await onboard.json()) as any;
    const login = await fetch(`${base}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const headers = (signed: boolean) => ({
      authorization: `Bearer ${accessToken}`,
      applicationtoken: client.applicationToken,
      'content-type': 'application/json',
      ...(signed && {
        digitalsignature: createHmac('sha256', client.cryptoToken).update(accessToken).digest('hex'),
      }),
    });
    return {
      get: async (p: string) =>
        (await fetch(`${base}${p}`, { headers: headers(false) })).json() as Promise<any>,
      post: (p: string, body: unknown, signed = false) =>
        fetch(`${base}${p}`, { method: 'POST', headers: headers(signed), body: JSON.stringify(body) }),
    };
  }

  return {
    get psp() {
      return psp;
    },
    get base() {
      return base;
    },
    until,
    control,
    integrator,
  };
}
