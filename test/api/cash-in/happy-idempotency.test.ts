import { describe, expect, it, onTestFinished } from 'vitest';
import { admin, cashInBody, Integrator } from '../../support/harness';
import { cashIns } from '../../support/ledger-reads';
import { ageIdempotencyKey } from '../../support/ledger-writes';

const countCashIns = async (clientId: string, reference: string) =>
  (await cashIns(clientId)).filter((c) => c.externalReference === reference).length;

/** Slows the client's charge registration so concurrent requests overlap the first one. */
async function slowPartner(api: Integrator, latencyMs: number) {
  const ispb = api.client.accounts[0]!.bank.ispb;
  const res = await admin(`/admin/partners/${ispb}/faults`, 'POST', {
    operation: 'CASH_IN',
    latencyMs,
    minutes: 1,
  });
  expect(res.status).toBe(201);
  // Faults are partner-wide: leave none behind for the next test file.
  onTestFinished(async () => {
    await admin(`/admin/partners/${ispb}/faults`, 'DELETE');
  });
}

describe('X-Idempotency-Key on POST /cash-in (spec §4.1)', () => {
  it('without the header, externalReference still blocks a duplicate with 409', async () => {
    const api = await Integrator.create();
    const body = cashInBody();
    expect((await api.post('/cash-in', body)).status).toBe(201);
    const again = await api.post('/cash-in', body);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('DUPLICATED_EXTERNAL_REFERENCE');
  });

  it('same key and body replays the original response with Idempotent-Replayed: true', async () => {
    const api = await Integrator.create();
    const body = cashInBody();
    const key = crypto.randomUUID();
    const first = await api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const original = await first.json();
    const replay = await api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(original);
    expect(await countCashIns(api.client.clientId, body.externalReference as string)).toBe(1);
  });

  it('the same body in another key order is the same request', async () => {
    const api = await Integrator.create();
    const body = cashInBody();
    const key = crypto.randomUUID();
    expect((await api.post('/cash-in', body, { 'x-idempotency-key': key })).status).toBe(201);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const replay = await api.post('/cash-in', reordered, { 'x-idempotency-key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('same key with another body answers 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const api = await Integrator.create();
    const key = crypto.randomUUID();
    expect((await api.post('/cash-in', cashInBody(), { 'x-idempotency-key': key })).status).toBe(201);
    const res = await api.post('/cash-in', cashInBody(), { 'x-idempotency-key': key });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a key over 100 characters answers 400 IDEMPOTENCY_KEY_INVALID; 100 is accepted', async () => {
    const api = await Integrator.create();
    const long = await api.post('/cash-in', cashInBody(), { 'x-idempotency-key': 'k'.repeat(101) });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_INVALID');
    expect((await api.post('/cash-in', cashInBody(), { 'x-idempotency-key': 'k'.repeat(100) })).status).toBe(
      201,
    );
  });

  it('an error is not stored: the key is released and the retry is processed again', async () => {
    const api = await Integrator.create();
    const taken = cashInBody();
    expect((await api.post('/cash-in', taken)).status).toBe(201);
    const key = crypto.randomUUID();
    const clash = { ...cashInBody(), externalReference: taken.externalReference };
    expect((await api.post('/cash-in', clash, { 'x-idempotency-key': key })).status).toBe(409);
    const retried = await api.post('/cash-in', clash, { 'x-idempotency-key': key });
    expect(retried.status).toBe(409);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const fresh = await api.post('/cash-in', cashInBody(), { 'x-idempotency-key': key });
    expect(fresh.status).toBe(201);
  });

  it('replays only for 24 hours; after that the request is processed anew', async () => {
    const api = await Integrator.create();
    const body = cashInBody();
    const key = crypto.randomUUID();
    expect((await api.post('/cash-in', body, { 'x-idempotency-key': key })).status).toBe(201);
    await ageIdempotencyKey(api.client.clientId, key, 24 * 3600 * 1000 + 1);
    const late = await api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { code: string }).code).toBe('DUPLICATED_EXTERNAL_REFERENCE');
  });

  it('while the first request runs, the same key answers 409 IDEMPOTENCY_KEY_IN_PROGRESS', async () => {
    const api = await Integrator.create();
    // The partner holds the first request 3 s (under its 5 s timeout), so the two overlap however slowly each one travels
    // on a busy machine (at 400 ms the first had once finished, and the second was its replay).
    await slowPartner(api, 3_000);
    const body = cashInBody();
    const key = crypto.randomUUID();
    const first = api.post('/cash-in', body, { 'x-idempotency-key': key });
    await new Promise((r) => setTimeout(r, 100));
    const second = api.post('/cash-in', body, { 'x-idempotency-key': key });
    // Whichever reaches the client's object first runs; the other finds its key running.
    const answers = await Promise.all(
      [first, second].map(async (r) => {
        const res = await r;
        return { status: res.status, code: ((await res.json()) as { code?: string }).code };
      }),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)?.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
  });

  it('20 concurrent requests with one key create exactly one Cash-In', async () => {
    const api = await Integrator.create();
    await slowPartner(api, 150);
    const body = cashInBody();
    const key = crypto.randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api.post('/cash-in', body, { 'x-idempotency-key': key })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const ids = new Set<string>();
    for (const r of responses)
      if (r.status === 201) ids.add(((await r.json()) as { transactionId: string }).transactionId);
    expect(ids.size).toBe(1);
    expect(await countCashIns(api.client.clientId, body.externalReference as string)).toBe(1);
  });

  it('20 concurrent requests with one externalReference create exactly one Cash-In', async () => {
    const api = await Integrator.create();
    await slowPartner(api, 150);
    const reference = `race-${crypto.randomUUID()}`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api.post('/cash-in', cashInBody({ externalReference: reference }))),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await countCashIns(api.client.clientId, reference)).toBe(1);
  });
});
