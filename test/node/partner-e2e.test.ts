/**
 * A real-bank partner end to end through `npm start` (issue 17, must show): the gateway runs as an
 * operator runs it locally (wrangler dev, staging), with a `bcb-api-pix` partner declared on the
 * command line and pointed at the mock PSP (`npm run mock:psp`: API Pix validated against the
 * vendored bacen/pix-api document, Efí Pix Send against Efí's SDK schemas). Over HTTP only: a
 * Cash-In is created and registered at the PSP, a simulated callback pays it once the gateway has
 * read the Pix again, it is refunded, a bank return arrives while that refund is in flight, and a
 * Cash-Out completes through the payout API. Every exchange with the PSP is valid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { type MockPsp, startMockPsp } from '../support/mock-psp-server';

let psp: MockPsp;
let gateway: ChildProcess;
let base: string;
let output = '';
const state = mkdtempSync(path.join(tmpdir(), 'connectpsp-partner-e2e-'));

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

async function integrator() {
  const onboard = await fetch(`${base}/admin/clients`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Loja Parceiro Real Ltda', partners: [FAKE_PSP_ISPB] }),
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

const secretPath = () =>
  `/partners/${FAKE_PSP_ISPB}/webhook/${psp.partnerVars[`PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET`]}/pix`;
async function callback(...endToEndIds: string[]) {
  const res = await fetch(`${base}${secretPath()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await control('callback', { endToEndIds })),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { pix: { outcomes: string[] }[] }).pix.map((p) => p.outcomes);
}

describe('a bcb-api-pix partner through npm start', () => {
  it('pays a Cash-In on a re-read callback, refunds it, records a bank return in flight, and pays out', async () => {
    const api = await integrator();
    const created = await api.post('/cash-in', {
      amount: 150.25,
      externalReference: `e2e-${Date.now()}`,
      payer: { name: 'Maria da Silva', document: '12345678909' },
      includeQrCodeImage: false,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const cashIn = (await created.json()) as any;

    // The payer pays at the PSP; the callback is a hint, the gateway reads the Pix again.
    const e2e = 'E60701190202611251200e2eTEST0001';
    await control('pay', { txid: cashIn.transactionId, endToEndId: e2e });
    expect(await callback(e2e)).toEqual([['paid']]);
    expect(await callback(e2e)).toEqual([['already-paid']]);
    expect(await api.get(`/cash-in/${cashIn.internalCode}`)).toMatchObject({
      status: 'PAID',
      endToEndId: e2e,
    });

    // A refund, in flight at the PSP, overtaken by a bank return (MED): recorded, never refused.
    const refund = await api.post(
      `/cash-in/${cashIn.internalCode}/refund`,
      { reason: 'MERCHANT_ERROR' },
      true,
    );
    expect(refund.status, await refund.clone().text()).toBe(202);
    const devolutionId = ((await refund.json()) as any).endToEndId;
    expect((await control(`pix/${e2e}`)).devolucoes).toMatchObject([
      { id: devolutionId, status: 'EM_PROCESSAMENTO' },
    ]);
    const med = await control('return', {
      endToEndId: e2e,
      id: 'MEDfraude0001',
      valor: '150.25',
      natureza: 'MED_FRAUDE',
    });
    expect(await callback(e2e)).toEqual([['already-paid', 'refund-checked', 'returned']]);
    expect(await api.get(`/cash-in/${cashIn.internalCode}`)).toMatchObject({
      status: 'REFUNDED',
      reason: 'FRAUD',
      endToEndId: med.rtrId,
    });
    // Our overtaken devolution could still leave: its money stays held until the network decides.
    // It refuses it (the bank returned everything already), and the hold goes.
    const transactional = (b: any) =>
      b.partners.flatMap((p: any) => p.accounts).find((a: any) => a.type === 'TRANSACTIONAL');
    expect(transactional(await api.get('/account/balance'))).toMatchObject({
      balance: 0,
      available: -150.25,
    });
    await control('devolution', { endToEndId: e2e, id: devolutionId, ok: false });
    await until(
      'the overtaken devolution ended',
      async () => transactional(await api.get('/account/balance')),
      (a) => a.available === 0,
    );

    // Money in again, then a Cash-Out through the partner's payout API (Efí Pix Send).
    const second = (await (
      await api.post('/cash-in', {
        amount: 80,
        externalReference: `e2e-2-${Date.now()}`,
        payer: { name: 'Maria da Silva', document: '12345678909' },
        includeQrCodeImage: false,
      })
    ).json()) as any;
    await control('pay', { txid: second.transactionId, endToEndId: 'E60701190202611251201e2eTEST0002' });
    expect(await callback('E60701190202611251201e2eTEST0002')).toEqual([['paid']]);
    const out = await api.post(
      '/cash-out',
      {
        amount: 30,
        externalReference: `e2e-out-${Date.now()}`,
        payee: {
          name: 'Ana Beneficiária',
          document: '12345678909',
          destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com' },
        },
      },
      true,
    );
    expect(out.status, await out.clone().text()).toBe(202);
    const { transactionId } = (await out.json()) as any;
    await until(
      'sent to the payout API',
      () => control(`sent/${transactionId}`),
      (s) => s !== null,
    );
    await control('payout', { transactionId, ok: true });
    const done = await until(
      'Cash-Out COMPLETED',
      () => api.get(`/cash-out/${transactionId}`),
      (c) => c.status === 'COMPLETED',
      30_000,
    );
    expect(done.endToEndId).toBe((await control(`sent/${transactionId}`)).endToEndId);

    expect((await control('invalid')).invalid).toEqual([]);
  }, 120_000);
});
