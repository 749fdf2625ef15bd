/**
 * Peak memory of the real workerd process (the deploy bundle, as `npm run serve` runs it) while
 * several 100 MB chunked uploads with no Content-Length reach routes that anyone may call: the
 * API sign-in and the console sign-in. Every body is read through a counting reader that stops at
 * its cap, so workerd's resident set grows by far less than one upload, let alone 128 MB (an
 * isolate's memory on Cloudflare). Heavy (a real runtime, 400 MB offered), so it lives among the
 * Node-side tests, not in the Workers pool.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestRuntime } from './support/runtime';

const MB = 1024 * 1024;
const UPLOAD = 100 * MB;
const CONCURRENT = 4;
/** Well under 128 MB per isolate, and under a single upload. */
const GROWTH_BOUND = 48 * MB;

const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-body-memory-'));
let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  runtime = await startTestRuntime(work);
});
afterAll(async () => {
  await runtime?.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** This process's descendants named workerd (miniflare spawns it). */
function workerdPids(): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {}
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p))
      if (p === process.pid) return true;
    return false;
  };
  return [...names].filter(([pid, name]) => name.startsWith('workerd') && descends(pid)).map(([pid]) => pid);
}

function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line?.[1] ?? 0) * 1024;
}

/** Streams `UPLOAD` bytes chunked (no Content-Length) until the answer comes; its status and bytes sent. */
function upload(url: string, headers: Record<string, string>): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, sent });
      });
    });
    // Once the gateway has answered it closes the connection, so the rest of the upload may fail
    // to write (EPIPE) before the answer is parsed: the upload ends there, and a connection closed
    // without an answer counts as status 0.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') return reject(error);
      answered = true;
      resolve({ status: 0, sent });
    });
    const write = () => {
      while (!answered && sent < UPLOAD) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (!answered) req.end();
    };
    write();
  });
}

it(`${CONCURRENT} concurrent 100 MB chunked uploads keep workerd's memory bounded`, async () => {
  const pids = workerdPids();
  expect(pids.length).toBeGreaterThan(0);
  const total = () => pids.reduce((sum, pid) => sum + rss(pid), 0);
  // Warm: the worker loaded and both routes answered once.
  for (let i = 0; i < 3; i++) {
    await fetch(`${runtime.url}/auth/token`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
  }
  const baseline = total();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, total());
  }, 20);
  try {
    const results = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        i % 2 === 0
          ? upload(`${runtime.url}/auth/token`, { 'content-type': 'application/json' })
          : upload(`${runtime.url}/admin/console/login`, {
              'content-type': 'application/x-www-form-urlencoded',
              origin: runtime.url,
            }),
      ),
    );
    peak = Math.max(peak, total());
    console.log(
      `workerd RSS: baseline ${(baseline / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB, ` +
        `growth ${((peak - baseline) / MB).toFixed(1)} MB; sent ${results.map((r) => (r.sent / MB).toFixed(1)).join(', ')} MB`,
    );
    // Each upload was answered with its route's refusal (or cut off once answered), long before
    // its 100 MB were sent.
    results.forEach((r, i) => {
      expect([0, i % 2 === 0 ? 400 : 401]).toContain(r.status);
      expect(r.sent).toBeLessThan(UPLOAD);
    });
  } finally {
    clearInterval(sampler);
  }
  expect(peak - baseline).toBeLessThan(GROWTH_BOUND);
});
