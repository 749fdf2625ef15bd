/**
 * The integrator's journey of docs/integrating.md, run for real: its shell blocks in order under `bash -euo pipefail`
 * against the real runtime (workerd, staging, over HTTP), its TypeScript snippets type-checked
 * against types that `openapi-typescript` (default flags) generates from the served /openapi.json,
 * then executed: a Cash-Out signed by the snippet is accepted, and the webhook receiver snippet
 * verifies a real delivery and refuses a forged one. A snippet that stops compiling or working fails
 * here; so does a wrong field in a typed request (checked below, so the type check can fail at all).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { START_HOOK_MS } from '../support/processes';
import { readmeParts } from './support/readme';
import { startTestRuntime } from './support/runtime';

const run = promisify(execFile);
const BIN = path.join(ROOT, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${BIN}:${process.env.PATH}` };
/** openapi-typescript 7 needs TypeScript 5's compiler API, which the project's TypeScript 7 lacks. */
const GENERATOR = ['--yes', '--package=openapi-typescript@7.13.0', '--package=typescript@5.9.3', '--'];

let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-readme-'));
// Inside the repository, so the snippets resolve `standardwebhooks` and @types/node from node_modules.
const snippetsDir = path.join(ROOT, '.readme-snippets');
const parts = readmeParts(ROOT);

beforeAll(async () => {
  runtime = await startTestRuntime(work);
  rmSync(snippetsDir, { recursive: true, force: true });
  mkdirSync(snippetsDir, { recursive: true });
}, START_HOOK_MS);

afterAll(async () => {
  await runtime?.dispose();
  rmSync(work, { recursive: true, force: true });
});

async function admin(pathname: string, body: unknown) {
  const res = await fetch(`${runtime.url}${pathname}`, {
    method: 'POST',
    headers: { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function session() {
  const { body: client } = await admin('/admin/clients', { name: 'Loja Snippet Ltda' });
  const login = await fetch(`${runtime.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  return { client, jwt: accessToken };
}

it('has the journey and the snippets it promises', () => {
  expect(parts.journey.length).toBeGreaterThanOrEqual(5);
  expect([...parts.snippets.keys()].sort()).toEqual(['connectpsp.ts', 'receiver.ts']);
});

it('runs the shell journey: pay, refund, Cash-Out, balance and statement, batch Cash-Out, Pix Automático', async () => {
  const script = ['set -euo pipefail', ...parts.journey].join('\n');
  const { stdout } = await run('bash', ['-c', script], {
    env: { ...env, BASE: runtime.url, ADMIN_TOKEN: 'dev-admin-token' },
    timeout: 120_000,
  });
  expect(stdout).toMatch(/^client [0-9a-f-]{36}, account \d{8}-\d$/m);
  expect(stdout).toMatch(/^AWAITING_PAYMENT 00020101021226/m);
  expect(stdout).toMatch(/^cash-in PAID$/m);
  expect(stdout).toMatch(/^cash-in REFUNDED$/m);
  expect(stdout).toMatch(/^cash-out COMPLETED$/m);
  expect(stdout).toContain('balance {"transactional":379.5,"proprietary":0,"total":379.5}');
  expect(stdout).toMatch(/^CREDIT \w+ 500 → 500$/m);
  expect(stdout).toMatch(/^DEBIT \w+ 120\.5 → 379\.5$/m);
  expect(stdout).toMatch(/^batch 3 items, 60\.5$/m);
  expect(stdout).toMatch(/^batch COMPLETED 3$/m);
  // Pix Automático: a QR recurrence approved, two cycles paid (the first after a failed attempt), cancelled.
  expect(stdout).toMatch(/^recurrence WAITING_AUTHORIZATION 00020126180014br\.gov/m);
  expect(stdout).toMatch(/^recurrence APPROVED, next due \d{4}-\d{2}-\d{2}$/m);
  expect(stdout).toMatch(/^charge AWAITING_PAYMENT cycle 0, attempts left 5$/m);
  expect(stdout).toMatch(/^attempt failed, attempts left 4$/m);
  expect(stdout).toMatch(/^cycle 0 PAID$/m);
  expect(stdout).toMatch(/^cycle 1 PAID$/m);
  expect(stdout).toMatch(/^recurrence CANCELLED by PAYER$/m);
  expect(stdout).toMatch(/^charges 0:PAID:1 1:PAID:0$/m);
}, 180_000);

it('type-checks the TypeScript snippets against openapi-typescript types, and runs them', async () => {
  const openapi = await (await fetch(`${runtime.url}/openapi.json`)).text();
  writeFileSync(path.join(snippetsDir, 'openapi.json'), openapi);
  await run('npm', ['exec', ...GENERATOR, 'openapi-typescript', 'openapi.json', '-o', 'api.d.ts'], {
    cwd: snippetsDir,
    env,
    timeout: 120_000,
  });
  for (const [name, code] of parts.snippets) writeFileSync(path.join(snippetsDir, name), code);
  // A request as an integrator writes it: server-defaulted fields left out.
  writeFileSync(
    path.join(snippetsDir, 'usage.ts'),
    `import type { paths } from './api';
export const cashIn: paths['/cash-in']['post']['requestBody']['content']['application/json'] = {
  amount: 10, externalReference: 'pedido-42', payer: { name: 'Maria', document: '12345678909' },
};\n`,
  );
  writeFileSync(
    path.join(snippetsDir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  );
  await run('tsc', ['-p', snippetsDir], { env, timeout: 120_000 });

  // The check can fail: a misspelled field is a compile error.
  writeFileSync(
    path.join(snippetsDir, 'wrong.ts'),
    `import { sendCashOut } from './connectpsp';
void sendCashOut('', { jwt: '', applicationToken: '', cryptoToken: '' }, { amout: 1 } as never as { amout: number } as any);
import type { paths } from './api';
export const bad: paths['/cash-out']['post']['requestBody']['content']['application/json'] = { amout: 1 };\n`,
  );
  const failed = await run('tsc', ['-p', snippetsDir], { env }).then(
    () => '',
    (error: { stdout: string }) => error.stdout,
  );
  expect(failed).toContain("'amout' does not exist");
  rmSync(path.join(snippetsDir, 'wrong.ts'));

  // The signing snippet makes a Cash-Out the gateway accepts.
  const { client, jwt } = await session();
  const account = client.accounts.find((a: { type: string }) => a.type === 'TRANSACTIONAL').number;
  const res = await fetch(`${runtime.url}/sandbox/accounts/${account}/deposit`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${jwt}`,
      applicationtoken: client.applicationToken,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ amount: 50 }),
  });
  expect([200, 201]).toContain(res.status);
  const sdk = await import(path.join(snippetsDir, 'connectpsp.ts'));
  const accepted = await sdk.sendCashOut(
    runtime.url,
    { jwt, applicationToken: client.applicationToken, cryptoToken: client.cryptoToken },
    {
      amount: 12.34,
      externalReference: `ts-${Date.now()}`,
      payee: {
        name: 'Ana Beneficiária',
        document: '12345678909',
        destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com' },
      },
    },
  );
  expect(accepted.transactionId).toMatch(/\S/);
  expect(accepted.status).toBe('PROCESSING');
}, 240_000);

it('runs the webhook receiver snippet: a real delivery verifies, a forged one is refused', async () => {
  writeFileSync(path.join(snippetsDir, 'receiver.ts'), parts.snippets.get('receiver.ts') as string);
  const { startReceiver } = await import(path.join(snippetsDir, 'receiver.ts'));
  const { client, jwt } = await session();
  const events: { eventType: string; data: { status?: string } }[] = [];
  const server = startReceiver(client.webhookSecret, (event: (typeof events)[number]) => events.push(event));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pix`;
  try {
    const headers = {
      authorization: `Bearer ${jwt}`,
      applicationtoken: client.applicationToken,
      'content-type': 'application/json',
    };
    const created = await fetch(`${runtime.url}/cash-in`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        amount: 9.9,
        externalReference: `hook-${Date.now()}`,
        payer: { name: 'Maria da Silva', document: '12345678909' },
        webhookUrl: url,
      }),
    });
    const cashIn = (await created.json()) as { internalCode: string };
    const paid = await fetch(`${runtime.url}/sandbox/cash-in/${cashIn.internalCode}/pay`, {
      method: 'POST',
      headers,
    });
    expect(paid.status, await paid.text()).toBe(200);
    const deadline = Date.now() + 120_000;
    while (!events.some((e) => e.eventType === 'CASHIN_PAID') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const deliveries = await (
      await fetch(`${runtime.url}/admin/clients/${client.clientId}/webhook-deliveries`, {
        headers: { authorization: 'Bearer dev-admin-token' },
      })
    ).text();
    expect(
      events.map((e) => e.eventType),
      deliveries,
    ).toEqual(['CASHIN_REQUESTED', 'CASHIN_PAID']);
    const forged = await fetch(url, {
      method: 'POST',
      headers: {
        'webhook-id': 'evt_x',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: '{"eventType":"CASHIN_PAID"}',
    });
    expect(forged.status).toBe(400);
    expect(events).toHaveLength(2);
  } finally {
    server.close();
  }
}, 120_000);
