/**
 * The gateway as an operator runs it locally (`npm start`, wrangler dev, staging) with a
 * `bcb-api-pix` partner declared on the command line and pointed at the mock PSP
 * (`npm run mock:psp`), for a Node test file: started before its tests, stopped after them.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, beforeAll, expect } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { FAKE_PSP_ISPB } from './fake-psp-env';
import { type MockPsp, startMockPsp } from './mock-psp-server';
import {
  OUTCOME_DEADLINE_MS,
  START_HOOK_MS,
  spawnNode,
  type Watched,
  waitFor,
  waitForOutput,
  until as waitUntilDone,
} from './processes';

/** `label` names the file's state directory. */
export function gatewayOnMockPsp(label: string) {
  let psp: MockPsp;
  let gateway: Watched | undefined;
  let base: string;
  const state = mkdtempSync(path.join(tmpdir(), `connectpsp-${label}-`));

  /** Reads until `ok` holds (an outcome the gateway reaches by itself: generous on a busy machine). */
  const until = <T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = OUTCOME_DEADLINE_MS) =>
    waitUntilDone(what, read, ok, { ms, ...(gateway && { watched: gateway }) });

  beforeAll(async () => {
    psp = await startMockPsp();
    const vars = Object.entries(psp.partnerVars).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
    // PORT=0: wrangler takes a free port when it listens and the Ready line names it, so no port
    // picked here can be taken by another process during the start.
    gateway = spawnNode(['scripts/start.mjs', ...vars, '--persist-to', state], {
      env: { ...process.env, PORT: '0' },
    });
    const docs = await waitForOutput(
      gateway,
      'npm start to name its address',
      /API documentation: (http:\/\/\S+)\/docs/,
    );
    base = docs[1] as string;
    await waitFor(
      'npm start serving /openapi.json',
      () => fetch(`${base}/openapi.json`).then((r) => r.ok || undefined),
      {
        watched: gateway,
      },
    );
  }, START_HOOK_MS);

  afterAll(async () => {
    await gateway?.stop();
    await psp?.close();
    rmSync(state, { recursive: true, force: true });
  }, 60_000);

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
