/**
 * Per-client rate limiting (decisions §5): 429 RATE_LIMITED with Retry-After beyond the client's
 * rateLimitPerSecond, through real requests. Bounds are computed from the measured duration of each
 * burst: a bucket of rate r admits at most r (one second's burst) plus r per second elapsed.
 */
import { describe, expect, it } from 'vitest';
import { expectDocumented, servedDocument } from '../../openapi/conformance';
import { cashOutBody } from '../../support/cash-out';
import { admin, call, cashInBody, Integrator } from '../../support/harness';
import { cashIns, cashOuts, idempotencyKeys, ledgerEntries, outboxRows } from '../../support/ledger-reads';

type Json = Record<string, any>;

async function setLimit(api: Integrator, rateLimitPerSecond: number | null): Promise<void> {
  const res = await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { rateLimitPerSecond });
  expect(res.status).toBe(200);
}

interface Burst {
  ok: number;
  limited: Response[];
  other: number[];
  elapsedMs: number;
}

/** Sends `n` requests at once; the clock runs from before the first to after the last answer. */
async function burst(n: number, send: () => Promise<Response>, okStatus = 200): Promise<Burst> {
  const started = Date.now();
  const responses = await Promise.all(Array.from({ length: n }, send));
  const elapsedMs = Date.now() - started;
  const limited = responses.filter((r) => r.status === 429);
  const other = responses.filter((r) => r.status !== 429 && r.status !== okStatus).map((r) => r.status);
  return { ok: responses.filter((r) => r.status === okStatus).length, limited, other, elapsedMs };
}

/** The most a bucket of `rate` can admit in `elapsedMs`, starting full. */
const budget = (rate: number, elapsedMs: number) => rate + Math.floor((rate * elapsedMs) / 1000);

async function expectRateLimited(res: Response): Promise<number> {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const retryAfter = res.headers.get('retry-after') ?? '';
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  const body = (await res.json()) as Json;
  expect(body).toMatchObject({ status: 429, code: 'RATE_LIMITED', title: 'Too many requests' });
  return Number(retryAfter);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const balance = (api: Integrator) => () => api.get('/account/balance');

describe('per-client rate limiting (decisions §5)', () => {
  it('a burst beyond the budget: 200 up to the budget, then 429 RATE_LIMITED with Retry-After; served again after it', async () => {
    const api = await Integrator.create();
    await setLimit(api, 5);
    const run = await burst(40, balance(api));
    expect(run.other).toEqual([]);
    expect(run.ok).toBeGreaterThanOrEqual(1);
    expect(run.ok).toBeLessThanOrEqual(budget(5, run.elapsedMs));
    expect(run.limited.length).toBe(40 - run.ok);
    const waits = await Promise.all(run.limited.map(expectRateLimited));
    // One token comes back every 200 ms: the wait rounds up to the 1-second minimum.
    expect(new Set(waits)).toEqual(new Set([1]));

    await sleep(1000 * Math.max(...waits));
    const again = await api.get('/account/balance');
    expect(again.status).toBe(200);
  });

  it('a high budget leased to the isolate in batches still admits no more than the budget', async () => {
    const api = await Integrator.create();
    await setLimit(api, 60);
    const run = await burst(200, balance(api));
    expect(run.other).toEqual([]);
    expect(run.ok).toBeGreaterThanOrEqual(1);
    expect(run.ok).toBeLessThanOrEqual(budget(60, run.elapsedMs));
    await Promise.all(run.limited.map(expectRateLimited));
  });

  it('the 429 is a documented answer of client, signed and login operations', async () => {
    await servedDocument();
    const api = await Integrator.create();
    await setLimit(api, 1);
    // Within the second the one token takes to come back, all three are refused.
    const drained = await burst(5, balance(api));
    const signed = await api.signedPost('/cash-out', cashOutBody());
    const login = await call('/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: api.client.clientId, clientSecret: api.client.clientSecret }),
    });
    expect(drained.limited.length).toBe(4);
    const body = await expectDocumented(drained.limited[0] as Response, 'get', '/account/balance');
    expect(body?.code).toBe('RATE_LIMITED');
    expect((await expectDocumented(signed, 'post', '/cash-out'))?.code).toBe('RATE_LIMITED');
    expect((await expectDocumented(login, 'post', '/auth/token'))?.code).toBe('RATE_LIMITED');
  });

  it('a client without a limit is never limited', async () => {
    const api = await Integrator.create();
    const run = await burst(60, balance(api));
    expect(run.ok).toBe(60);
  });

  it("one client's exhausted budget does not touch another client's", async () => {
    const [a, b] = await Promise.all([Integrator.create(), Integrator.create()]);
    await setLimit(a, 2);
    await setLimit(b, 2);
    // b's bucket is full: its whole burst of 2 is served while a is being refused.
    const [run, ...fromB] = await Promise.all([
      burst(20, balance(a)),
      b.get('/account/balance'),
      b.get('/account/balance'),
    ]);
    expect(run.limited.length).toBeGreaterThan(0);
    expect(fromB.map((r) => r.status)).toEqual([200, 200]);
  });

  it('PATCH rateLimitPerSecond: a lower value applies at once, null removes the limit', async () => {
    const api = await Integrator.create();
    await setLimit(api, 1000);
    expect((await burst(30, balance(api))).ok).toBe(30);

    await setLimit(api, 2);
    const lowered = await burst(30, balance(api));
    expect(lowered.other).toEqual([]);
    expect(lowered.ok).toBeLessThanOrEqual(budget(2, lowered.elapsedMs));
    expect(lowered.limited.length).toBeGreaterThan(0);
    await Promise.all(lowered.limited.map(expectRateLimited));

    await setLimit(api, null);
    expect((await burst(30, balance(api))).ok).toBe(30);
  });

  it("POST /auth/token: a wrong secret spends nothing of the client's budget, the right one spends one", async () => {
    const api = await Integrator.create();
    await setLimit(api, 1);
    const attempt = (clientSecret: string, source: string) =>
      call('/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': source },
        body: JSON.stringify({ clientId: api.client.clientId, clientSecret }),
      });
    // Wrong secrets from many sources: each a 401, none a 429 (failures are limited per source:
    // test/api/auth/failed-logins.test.ts).
    const run = await burst(
      20,
      () => attempt(crypto.randomUUID(), `192.0.2.${Math.floor(Math.random() * 250)}`),
      401,
    );
    expect(run.other).toEqual([]);
    expect(run.limited).toEqual([]);
    // The client's one token is still there for its right secret, and then spent.
    expect((await attempt(api.client.clientSecret, '192.0.2.251')).status).toBe(200);
    const waits = [await expectRateLimited(await attempt(api.client.clientSecret, '192.0.2.252'))];
    await sleep(1000 * Math.max(...waits));
    expect((await attempt(api.client.clientSecret, '192.0.2.253')).status).toBe(200);
  });

  it('the operator API is not limited', async () => {
    const api = await Integrator.create();
    await setLimit(api, 1);
    const run = await burst(20, () => admin(`/admin/clients/${api.client.clientId}`));
    expect(run.ok).toBe(20);
  });

  it('a limited Cash-Out or Cash-In changes nothing; the same idempotency key succeeds later', async () => {
    const api = await Integrator.create();
    const state = async () =>
      Promise.all(
        [cashIns, cashOuts, idempotencyKeys, ledgerEntries, outboxRows].map(
          async (rows) => (await rows(api.client.clientId)).length,
        ),
      );
    const before = await state();
    await setLimit(api, 1);
    // Spend the one token, then the very next request finds the bucket empty for about a second.
    expect((await api.get('/account/balance')).status).toBe(200);
    await expectRateLimited(await api.get('/account/balance'));
    const cashOut = cashOutBody();
    const cashIn = cashInBody({ includeQrCodeImage: false });
    const cashOutKey = crypto.randomUUID();
    const cashInKey = crypto.randomUUID();
    await expectRateLimited(await api.signedPost('/cash-out', cashOut, { 'x-idempotency-key': cashOutKey }));
    await expectRateLimited(await api.post('/cash-in', cashIn, { 'x-idempotency-key': cashInKey }));
    expect(await state()).toEqual(before);

    await setLimit(api, null);
    expect((await api.get(`/cash-out/${cashOut.externalReference}`)).status).toBe(404);
    expect((await api.get(`/cash-in/${cashIn.externalReference}`)).status).toBe(404);
    const sentOut = await api.signedPost('/cash-out', cashOut, { 'x-idempotency-key': cashOutKey });
    expect(sentOut.status).toBe(202);
    expect(sentOut.headers.get('idempotent-replayed')).toBeNull();
    const sentIn = await api.post('/cash-in', cashIn, { 'x-idempotency-key': cashInKey });
    expect(sentIn.status).toBe(201);
    expect(sentIn.headers.get('idempotent-replayed')).toBeNull();
  });
});
