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
const SECONDS = 2;
const STALL_AT_MS = 800;
const STALL_MS = 300;

let close: (() => void) | undefined;
afterEach(() => close?.());

/**
 * A server whose answers are all held from STALL_AT_MS after `start()` for STALL_MS (what a busy
 * thread does to every request in it), counting the connections it accepted.
 */
async function stallingServer() {
  let stallFrom = Number.POSITIVE_INFINITY;
  let connections = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
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
    start: () => {
      stallFrom = Date.now() + STALL_AT_MS;
    },
  };
}

const scenario = { requests: [{ method: 'GET', path: '/work' }] };

it('charges every request due during a stall from its due time, over a pool opened beforehand', async () => {
  const server = await stallingServer();
  // The schedule starts right after the pool is warm; the stall is placed from there.
  const running = openLoop(server.origin, scenario, RATE, SECONDS, { trace: true, warmPath: '/warm' });
  const warmedAt = await new Promise<number>((resolve) => {
    const giveUp = Date.now() + 5_000;
    const poll = setInterval(() => {
      if (server.connections() >= 32 || Date.now() > giveUp) {
        clearInterval(poll);
        resolve(Date.now());
      }
    }, 1);
  });
  server.start();
  const result = (await running) as Result;

  expect(result.sent).toBe(RATE * SECONDS);
  expect(result.ok).toBe(RATE * SECONDS);
  expect(result.achievedRate).toBeGreaterThan(RATE * 0.9);
  // The stall lasts STALL_MS; the request due at its start waited nearly all of it, and every
  // request due in its first two thirds at least a third of it.
  const latencies = result.trace.requests.map((r) => r[2]);
  expect(Math.max(...latencies)).toBeGreaterThan(STALL_MS * 0.8);
  const delayed = latencies.filter((ms) => ms >= STALL_MS / 3).length;
  expect(delayed).toBeGreaterThanOrEqual(Math.floor(RATE * (STALL_MS / 1000) * (2 / 3)) - 2);
  // 60 requests were held at once, more than the 32 warm connections: they waited in the pool,
  // and the server never saw a connection opened after the warm-up.
  expect(result.connections).toBe(32);
  expect(server.connections()).toBe(32);
  // The slowest bucket is where the stall began (due times count from the schedule's start).
  const stallAt = warmedAt + STALL_AT_MS - result.trace.startedAt;
  const slowest = (buckets(result.trace) as { at: number; max: number }[]).reduce((a, b) =>
    b.max > a.max ? b : a,
  );
  expect(slowest.at).toBeGreaterThanOrEqual(stallAt - 150);
  expect(slowest.at).toBeLessThan(stallAt + STALL_MS);
});
