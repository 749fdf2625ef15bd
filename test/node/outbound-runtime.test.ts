/**
 * The outbound guard is wired into the self-hosted runtime (`npm run serve`): a webhook URL whose
 * name resolves to 127.0.0.1 is never connected to, while a staging receiver named literally as
 * 127.0.0.1 gets its webhooks. Real workerd, real queues, real HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestRuntime } from './support/runtime';

let receiver: Server;
let port = 0;
const hits: string[] = [];
let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-outbound-'));

beforeAll(async () => {
  receiver = createServer((req, res) => {
    hits.push(`${req.headers.host}${req.url}`);
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
  runtime = await startTestRuntime(work, {
    outboundLookup: async (host: string) => {
      if (host === 'rebind.test') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    },
  });
});

afterAll(async () => {
  await runtime?.dispose();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

async function api(pathname: string, init: RequestInit & { token?: string; app?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.app) headers.applicationtoken = init.app;
  return fetch(`${runtime.url}${pathname}`, { ...init, headers });
}

it('refuses a webhook host that resolves to loopback; delivers to the literal staging receiver', async () => {
  const admin = 'dev-admin-token';
  const created = await api('/admin/clients', {
    method: 'POST',
    token: admin,
    body: JSON.stringify({ name: 'Loja' }),
  });
  expect(created.status).toBe(201);
  const client = (await created.json()) as {
    clientId: string;
    clientSecret: string;
    applicationToken: string;
  };
  const login = await api('/auth/token', {
    method: 'POST',
    body: JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const cashIn = (webhookUrl: string, ref: string) =>
    api('/cash-in', {
      method: 'POST',
      token: accessToken,
      app: client.applicationToken,
      body: JSON.stringify({
        amount: 10,
        externalReference: ref,
        payer: { name: 'Maria', document: '12345678909' },
        webhookUrl,
      }),
    });
  expect((await cashIn(`http://rebind.test:${port}/evil`, 'evil-1')).status).toBe(201);
  expect((await cashIn(`http://127.0.0.1:${port}/good`, 'good-1')).status).toBe(201);

  const deliveries = async () => {
    const res = await api(`/admin/clients/${client.clientId}/webhook-deliveries?limit=100`, { token: admin });
    return (
      (await res.json()) as {
        items: { url?: string; status: string; attempts: number; lastResponseStatus?: number }[];
      }
    ).items;
  };
  // Generous: the retry comes from the queue's schedule, slower on a busy machine.
  const deadline = Date.now() + 180_000;
  let items = await deliveries();
  while (
    Date.now() < deadline &&
    !(hits.length > 0 && items.some((d) => d.url?.includes('rebind.test') && d.attempts > 0))
  ) {
    await new Promise((r) => setTimeout(r, 250));
    items = await deliveries();
  }
  expect(hits).toEqual([`127.0.0.1:${port}/good`]);
  const evil = items.find((d) => d.url?.includes('rebind.test'));
  expect(evil?.status).not.toBe('DELIVERED');
  expect(evil?.attempts).toBeGreaterThan(0);
  expect(evil?.lastResponseStatus).toBe(502);
});
