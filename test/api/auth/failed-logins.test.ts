/**
 * Failed sign-ins are limited per source, never per client: wrong secrets sent with a merchant's
 * client id (visible to anyone who has seen its id) do not spend the merchant's request budget, and a
 * source that keeps failing is refused (429 RATE_LIMITED) while other sources sign in.
 */
import { describe, expect, it } from 'vitest';
import { admin, call, Integrator } from '../../support/harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function login(clientId: string, clientSecret: string, source: string): Promise<Response> {
  return call('/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': source },
    body: JSON.stringify({ clientId, clientSecret }),
  });
}

describe('failed sign-ins', () => {
  it("many wrong secrets for a client id leave that client's real traffic unlimited", async () => {
    const api = await Integrator.create();
    const res = await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { rateLimitPerSecond: 5 });
    expect(res.status).toBe(200);
    // 469 wrong secrets, from many sources (so no source limit stops them early).
    const statuses: number[] = [];
    for (let i = 0; i < 469; i += 50) {
      const batch = Array.from({ length: Math.min(50, 469 - i) }, (_, j) =>
        login(api.client.clientId, crypto.randomUUID(), `198.51.100.${(i + j) % 250}`),
      );
      statuses.push(...(await Promise.all(batch)).map((r) => r.status));
    }
    expect(statuses.filter((s) => s !== 401)).toEqual([]);
    // The merchant's own traffic at 3.3/s, under its 5/s budget: every request served.
    const served: number[] = [];
    for (let i = 0; i < 10; i++) {
      served.push((await api.get('/account/balance')).status);
      await sleep(300);
    }
    expect(served).toEqual(Array(10).fill(200));
  });

  it('a source over its failure budget is refused, right secret or wrong; other sources are not', async () => {
    const api = await Integrator.create();
    const attacker = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
    const bystander = `2001:db8::${Math.floor(Math.random() * 65535).toString(16)}`;
    let refused: Response | undefined;
    let failures = 0;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await login(api.client.clientId, crypto.randomUUID(), attacker);
      if (res.status === 429) refused = res;
      else {
        expect(res.status).toBe(401);
        failures++;
      }
    }
    // The budget: a burst of 20 failures (a few more if seconds passed meanwhile).
    expect(failures).toBeGreaterThanOrEqual(20);
    expect(failures).toBeLessThan(30);
    expect(refused?.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await refused?.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    // Even the right secret from that source waits; from another source it signs in at once.
    expect((await login(api.client.clientId, api.client.clientSecret, attacker)).status).toBe(429);
    expect((await login(api.client.clientId, api.client.clientSecret, bystander)).status).toBe(200);
    // And the client's authenticated traffic never noticed.
    expect((await api.get('/account/balance')).status).toBe(200);
  });

  it('a concurrent burst of wrong credentials from one source gets exactly the budget of 401s, then 429', async () => {
    const api = await Integrator.create();
    const source = `192.0.2.${1 + Math.floor(Math.random() * 250)}`;
    const started = Date.now();
    // Client ids nobody has: each sign-in awaits the database before its secret is judged.
    const answers = await Promise.all(
      Array.from({ length: 26 }, () => login(crypto.randomUUID(), crypto.randomUUID(), source)),
    );
    // One more failure is allowed each 3 s, should the machine be that slow.
    const earned = Math.floor((Date.now() - started) / 3_000);
    const statuses = answers.map((r) => r.status);
    const unauthorized = statuses.filter((s) => s === 401).length;
    expect(unauthorized).toBeGreaterThanOrEqual(20);
    expect(unauthorized).toBeLessThanOrEqual(20 + earned);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    // The right secret from that source waits too; the reservation of a right secret is given back.
    expect((await login(api.client.clientId, api.client.clientSecret, source)).status).toBe(429);
    const other = `198.18.0.${1 + Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 25; i++)
      expect((await login(api.client.clientId, api.client.clientSecret, other)).status).toBe(200);
  });

  it('other unauthenticated failures naming the client (its token with a wrong ApplicationToken, a forged token) spend nothing of its budget', async () => {
    const api = await Integrator.create();
    expect(
      (await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { rateLimitPerSecond: 2 })).status,
    ).toBe(200);
    const failures = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? api.get('/account/balance', { applicationtoken: crypto.randomUUID() })
          : api.get('/account/balance', { authorization: `Bearer ${api.token}x` }),
      ),
    );
    expect(new Set(failures.map((r) => r.status))).toEqual(new Set([401]));
    // Its full budget of 2 is still there.
    const served = await Promise.all([api.get('/account/balance'), api.get('/account/balance')]);
    expect(served.map((r) => r.status)).toEqual([200, 200]);
  });
});
