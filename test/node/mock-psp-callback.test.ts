/**
 * `npm run mock:psp` behaves like a real PSP: after `/__control/pay` it posts the API Pix callback
 * itself, to the webhook URL the gateway registered (`PUT /admin/partners/{ispb}/webhook`), and that
 * callback pays the Cash-In, not the next sweep (which once took 101 s). The mock runs as the
 * npm script runs it (scripts/mock-psp.ts, its own process); the gateway is the deploy bundle in
 * workerd (runtime/local-runtime.mjs, staging) with the mock declared as a bcb-api-pix partner.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { writeDevVars } from '../../scripts/dev-vars.mjs';
import { ClientSession, Gateway, type Onboarded } from '../../scripts/soak/api';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { startMockPsp } from '../support/mock-psp-server';
import { START_HOOK_MS, spawnNode, type Watched, waitFor, waitForOutput } from '../support/processes';
import { startTestRuntime } from './support/runtime';

const ADMIN = 'dev-admin-token';
const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-mock-psp-'));
let mock: Watched;
let mockUrl = '';
let runtime: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  // The mock first, on a port it takes itself (PORT=0) and prints: no port chosen here can be taken
  // by another process before it listens.
  mock = spawnNode([path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/mock-psp.ts'], {
    env: { ...process.env, PORT: '0', GATEWAY_URL: 'http://127.0.0.1:1' },
  });
  mockUrl = (
    await waitForOutput(mock, 'the mock PSP to listen', /mock PSP .* on (http:\/\/\S+)/)
  )[1] as string;
  // The partner declaration the script prints, made for its URL (no server started here).
  const declaration = await startMockPsp(0);
  await declaration.close();
  const vars = writeDevVars(path.join(work, 'partner.vars'));
  for (const [name, value] of Object.entries(declaration.partnerVars)) {
    appendFileSync(vars, `${name}='${value.replaceAll(declaration.url, mockUrl)}'\n`);
  }
  runtime = await startTestRuntime(work, { varsFile: vars });
}, START_HOOK_MS);

afterAll(async () => {
  await mock?.stop();
  await runtime?.dispose();
  rmSync(work, { recursive: true, force: true });
});

const control = async (name: string, body?: unknown) => {
  const res = await fetch(`${mockUrl}/__control/${name}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(res.status).toBe(200);
  return res.json() as Promise<any>;
};

it('pays a Cash-In by the callback the mock posts itself, not by a sweep: the callback answers paid', async () => {
  const gw = new Gateway((request) => fetch(request), runtime.url, ADMIN);
  // Where the PSP must post: registered by the operator, as in production.
  await gw.admin(
    'webhook',
    'PUT',
    `/admin/partners/${FAKE_PSP_ISPB}/webhook`,
    { baseUrl: runtime.url },
    [200],
  );
  const onboarded = await gw.admin(
    'onboard',
    'POST',
    '/admin/clients',
    { name: 'Loja Local Ltda', partners: [FAKE_PSP_ISPB] },
    [201],
  );
  const api = new ClientSession(gw, onboarded.body as Onboarded);
  const created = await api.post(
    'cash-in',
    '/cash-in',
    {
      amount: 42.5,
      externalReference: `mock-${Date.now()}`,
      payer: { name: 'Maria da Silva', document: '12345678909' },
      includeQrCodeImage: false,
    },
    { expect: [201] },
  );
  const { transactionId, internalCode } = created.body as { transactionId: string; internalCode: string };
  const endToEndId = 'E60701190202611271200e2eMOCK0001';
  expect(await control('pay', { txid: transactionId, endToEndId })).toMatchObject({ endToEndId });
  // The mock's own record of its callback, once the gateway took it (the mock retries until then).
  let callbacks: any[] = [];
  await waitFor(
    'the gateway to take the callback the mock posted after /__control/pay',
    async () => {
      callbacks = (await control('callbacks')).callbacks;
      return callbacks.some((c) => c.endToEndId === endToEndId && c.outcome === 200) || undefined;
    },
    { ms: 120_000, watched: mock, last: () => callbacks },
  );
  // The callback itself paid it: its answer is `paid`. Had a sweep, an expiry's question or anything
  // else paid the Cash-In first, the same callback would answer `already-paid` (and this runtime
  // fires no cron: startTestRuntime turns the timer off and this test fires none).
  expect(callbacks).toMatchObject([
    { endToEndId, outcome: 200, attempts: 1, answer: { pix: [{ endToEndId, outcomes: ['paid'] }] } },
  ]);
  const read = await api.get('read', `/cash-in/${internalCode}`);
  expect((read.body as { status: string }).status, mock.output()).toBe('PAID');
  // The URL the gateway registered at the PSP, not the --gateway fallback (a closed port here).
  expect(callbacks[0].url.startsWith(`${runtime.url}/partners/${FAKE_PSP_ISPB}/webhook`)).toBe(true);
  expect((await control('invalid')).invalid).toEqual([]);
}, 180_000);

/**
 * The documented mock flow raises no false break: the mock's balance follows its own books, so the
 * daily reconciliation that runs after the payment (the check of yesterday, whose balance is
 * compared as of now) finds the mock's saldo equal to our books and reports MATCHED. It used to
 * answer 0.00 whatever was paid: `BALANCE ours R$ 42.50 vs theirs R$ 0.00` and an operator alert.
 */
it('the daily reconciliation after the mock flow reports MATCHED, the balance included', async () => {
  const gw = new Gateway((request) => fetch(request), runtime.url, ADMIN);
  expect((await control('balance')).saldo).toBe('42.50');
  const yesterday = new Date(Date.now() - 3 * 3_600_000 - 86_400_000).toISOString().slice(0, 10);
  const url = `/admin/reconciliation?date=${yesterday}&ispb=${FAKE_PSP_ISPB}`;
  expect((await gw.admin('none yet', 'GET', url, undefined, [404])).status).toBe(404);
  expect(await runtime.scheduled()).toEqual(['ok']);
  let report: any;
  await waitFor(
    'a final reconciliation report',
    async () => {
      const res = await fetch(`${runtime.url}${url}`, { headers: { authorization: `Bearer ${ADMIN}` } });
      if (res.status === 200) report = await res.json();
      return report?.status !== undefined && report.status !== 'PENDING' ? report : undefined;
    },
    { ms: 120_000, every: 500, last: () => report },
  );
  expect(report.breaks).toEqual([]);
  expect(report.status).toBe('MATCHED');
}, 180_000);
