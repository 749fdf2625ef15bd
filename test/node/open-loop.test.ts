/**
 * The bench's open-loop generator (bench/open-loop.mjs) against a local server that stalls once:
 * every request due during the stall is charged from its due time (no coordinated omission), and
 * the generator's pool is opened before the schedule, so a stall does not make it open new
 * connections — which on workerd are accepted on the very thread that is behind
 * (docs/benchmark-history.md, Open-loop latency: the stalls).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the bench, without types
import { buckets, openLoop } from '../../bench/open-loop.mjs';

interface Result {
  rate: number;
  connections: number;
  achievedRate: number;
  sent: number;
  ok: number;
  p99: number;
  trace: { startedAt: number; requests: [number, number, number, number][] };
}

const RATE = 200;
const SECONDS = 3;
/** The stall begins this long after the schedule's first request reaches the server. */
const STALL_AT_MS = 800;
const STALL_MS = 300;
/** Date.now() (the server) against performance.now() (the generator): whole milliseconds apart. */
const CLOCKS_MS = 5;

let close: (() => void) | undefined;
afterEach(() => close?.());

/**
 * A server whose answers are all held from STALL_AT_MS after the first `/work` request arrives (the
 * schedule's start, whenever a busy machine gets there) until the stall's end (what a busy thread
 * does to every request in it), counting the connections it accepted.
 */
async function stallingServer() {
  let stallFrom = Number.POSITIVE_INFINITY;
  let connections = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/work' && stallFrom === Number.POSITIVE_INFINITY) stallFrom = Date.now() + STALL_AT_MS;
    req.resume();
    req.on('end', () => {
      const until = stallFrom + STALL_MS - Date.now();
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (Date.now() >= stallFrom && until > 0) setTimeout(answer, until);
      else answer();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    stallFrom: () => stallFrom,
  };
}

const scenario = { requests: [{ method: 'GET', path: '/work' }] };

/**
 * Outcomes only, none a machine's speed can break (a busy machine makes latencies longer, never
 * shorter): the schedule fixed in advance, every request due during the stall answered no earlier
 * than the stall's end by its own latency (charged from its due time), the pool's connections.
 */
it('charges every request due during a stall from its due time, over a pool opened beforehand', async () => {
  const server = await stallingServer();
  const result = (await openLoop(server.origin, scenario, RATE, SECONDS, {
    trace: true,
    warmPath: '/warm',
  })) as Result;

  expect(result.sent).toBe(RATE * SECONDS);
  expect(result.ok).toBe(RATE * SECONDS);
  // Open loop: request i is due at i / RATE s whatever the answers, the stall's held ones included.
  const dues = result.trace.requests.map((r) => r[0]);
  const interval = 1000 / RATE;
  expect(dues.filter((due, i) => Math.abs(due - i * interval) > 0.01)).toEqual([]);
  // The stall, on the schedule's time line.
  const stallAt = server.stallFrom() - result.trace.startedAt;
  expect(stallAt + STALL_MS).toBeLessThan(SECONDS * 1000);
  const inStall = result.trace.requests.filter(([due]) => due >= stallAt && due < stallAt + STALL_MS);
  expect(inStall.length).toBeGreaterThanOrEqual(Math.floor((RATE * STALL_MS) / 1000) - 1);
  // Each was answered at the stall's end or later, by the latency it was charged from its due
  // time: one charged from when a connection took it would end earlier for the ones that waited.
  const early = inStall.filter(([due, , latency]) => due + latency < stallAt + STALL_MS - CLOCKS_MS);
  expect(early).toEqual([]);
  // The request due at the stall's start waited nearly all of it, and every request due in its
  // first two thirds at least a third of it.
  const latencies = result.trace.requests.map((r) => r[2]);
  expect(Math.max(...latencies)).toBeGreaterThan(STALL_MS * 0.8);
  const delayed = latencies.filter((ms) => ms >= STALL_MS / 3).length;
  expect(delayed).toBeGreaterThanOrEqual(Math.floor(RATE * (STALL_MS / 1000) * (2 / 3)) - 2);
  // 60 requests were held at once, more than the 32 warm connections: they waited in the pool,
  // and the server never saw a connection opened after the warm-up.
  expect(result.connections).toBe(32);
  expect(server.connections()).toBe(32);
  // The bucket of the first request due in the stall shows it (due times count from the schedule's start).
  const first = inStall[0]?.[0] ?? Number.NaN;
  const bucket = (buckets(result.trace) as { at: number; max: number }[]).find(
    (b) => b.at === Math.floor(first / 100) * 100,
  );
  expect(bucket?.max).toBeGreaterThan(STALL_MS * 0.8);
});
