/**
 * Vitest globalSetup (runs in Node, outside workerd): a real HTTP server that webhook tests point
 * `webhookUrl` at, so deliveries cross a real socket. Each test uses its own sink id:
 *
 * - `POST /hooks/<sink>` records the request (headers, raw body, arrival time) and answers the
 *   sink's plan: the n-th request gets the n-th entry (the last one repeats), a status code or
 *   `hang` (no answer until the client gives up). Default plan: `[200]`.
 * - `PUT /plans/<sink>` with a JSON array replaces the plan.
 * - `GET /requests/<sink>` lists what the sink received, oldest first.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

type Step = number | 'hang';

declare module 'vitest' {
  export interface ProvidedContext {
    webhookReceiverUrl: string;
  }
}

const received = new Map<string, ReceivedRequest[]>();
const plans = new Map<string, Step[]>();

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function reply(res: ServerResponse, status: number, body: unknown = {}): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://receiver');
  const [, kind, sink] = url.pathname.split('/');
  if (!sink) return reply(res, 404);
  const body = await readBody(req);
  if (kind === 'plans' && req.method === 'PUT') {
    plans.set(sink, JSON.parse(body) as Step[]);
    return reply(res, 204);
  }
  if (kind === 'requests' && req.method === 'GET') return reply(res, 200, received.get(sink) ?? []);
  if (kind !== 'hooks') return reply(res, 404);
  const log = received.get(sink) ?? [];
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name] = String(value);
  log.push({
    method: req.method ?? '',
    path: `${url.pathname}${url.search}`,
    headers,
    body,
    receivedAt: Date.now(),
  });
  received.set(sink, log);
  const plan = plans.get(sink) ?? [200];
  const step = plan[Math.min(log.length - 1, plan.length - 1)] ?? 200;
  if (step === 'hang') return; // the socket stays open until the sender times out and closes it
  reply(res, step, { received: true });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => reply(res, 500));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('webhookReceiverUrl', `http://127.0.0.1:${port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
