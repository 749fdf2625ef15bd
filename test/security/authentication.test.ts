/**
 * Authentication on every authenticated route (issue 9, item 4; spec §5, decisions §2-3): each
 * way the JWT, the ApplicationToken, the DigitalSignature or the operator token can be wrong gets
 * its documented answer on every route of its kind, in the documented order; deactivations take
 * effect at once in the isolate that made them and within CACHE_TTL_MS everywhere else; public
 * routes do not care about credentials. The routes come from the router (test/security/routes.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CACHE_TTL_MS } from '../../src/db/credentials';
import { deactivateApplicationToken, deleteClient } from '../support/d1-writes';
import { ADMIN_TOKEN, admin, call, Integrator, issueToken, sign } from '../support/harness';
import { type JwtCase, jwtCases, type SignatureCase, signatureCases } from './forged';
import { type Answer, answerOf, expectDocumentedAnswer, ROUTES, type Route } from './routes';

const CLIENT = ROUTES.filter((r) => r.spec.auth === 'client' || r.spec.auth === 'signed');
const SIGNED = ROUTES.filter((r) => r.spec.auth === 'signed');
const UNSIGNED = ROUTES.filter((r) => r.spec.auth === 'client');
const OPERATOR = ROUTES.filter((r) => r.spec.auth === 'operator');
const PUBLIC = ROUTES.filter((r) => r.spec.auth === 'none');

/** Ids of the right shape that name nothing: a request gets past everything but the lookup. */
const NOTHING: Record<string, string> = {
  id: 'NOSUCH1',
  number: '00000000-0',
  clientId: '00000000-0000-4000-8000-000000000000',
  eventId: 'evt_none',
  operatorId: 'op_0000000000000000',
  ispb: '99999999',
  locator: 'AAAAAAAAAAAAAAAAAAAAAANOSUCH1',
};

let victim: Integrator;
let other: Integrator;
let jwts: JwtCase[];
let signatures: SignatureCase[];

function exampleBody(route: Route): string | undefined {
  if (!route.example) return undefined;
  const body = structuredClone(route.example);
  if ('externalReference' in body) body.externalReference = `auth-${crypto.randomUUID()}`;
  for (const field of ['webhookUrl', 'redirectUrl', 'healthWebhookUrl', 'openFinance']) delete body[field];
  return JSON.stringify(body);
}

/** The route with ids that name nothing, its period query and its example body, sent as `api`. */
async function send(
  route: Route,
  headers: Record<string, string | null>,
  { api = victim, body = exampleBody(route) }: { api?: Integrator; body?: string } = {},
): Promise<{ url: string; answer: Answer }> {
  const path = route.template.replace(/\{(\w+)\}/g, (_, name: string) => NOTHING[name] ?? 'x');
  const period = route.query.includes('from') && !route.query.includes('page');
  const url = `${path}${period ? `?from=${api.client.statementStartDate}&to=2100-12-31` : ''}`;
  const all: Record<string, string> = {
    'content-type': 'application/json',
    ...(route.spec.auth === 'operator'
      ? { authorization: `Bearer ${ADMIN_TOKEN}` }
      : { authorization: `Bearer ${api.token}`, applicationtoken: api.client.applicationToken }),
    ...(route.spec.auth === 'signed' && { digitalsignature: await sign(api.client.cryptoToken, api.token) }),
  };
  for (const [name, value] of Object.entries(headers)) {
    if (value === null) delete all[name];
    else all[name] = value;
  }
  const withBody = body !== undefined && route.method !== 'GET';
  const answer = await answerOf(
    await call(url, { method: route.method, headers: all, ...(withBody && { body }) }),
  );
  expectDocumentedAnswer(route.method, `http://x${url}`, answer);
  return { url, answer };
}

const code = (answer: Answer) => (JSON.parse(answer.text) as { code?: string }).code;

beforeAll(async () => {
  victim = await Integrator.create();
  other = await Integrator.create();
  const olderToken = victim.token;
  (victim as { token: string }).token = await issueToken(victim.client);
  jwts = await jwtCases(victim, other);
  signatures = await signatureCases(victim, other, olderToken);
});

describe('every authenticated route, every broken credential', () => {
  it('has routes of every kind to check', () => {
    expect(
      [CLIENT.length, SIGNED.length, UNSIGNED.length, OPERATOR.length, PUBLIC.length].every((n) => n > 0),
    ).toBe(true);
  });

  it.each(CLIENT.map((r) => [r.key, r] as const))(
    '%s: valid credentials get past authentication',
    async (_, r) => {
      const { answer } = await send(r, {});
      expect(answer.status, answer.text).not.toBe(401);
      expect(answer.status, answer.text).not.toBe(403);
    },
  );

  it.each(CLIENT.map((r) => [r.key, r] as const))(
    '%s: a broken JWT gets the bare 401, whatever the ApplicationToken (spec §5 rows 1, 5)',
    async (_, route) => {
      for (const jwt of jwts) {
        for (const applicationtoken of [
          victim.client.applicationToken,
          other.client.applicationToken,
          null,
        ]) {
          const { answer } = await send(route, { authorization: jwt.authorization, applicationtoken });
          expect(answer.status, jwt.name).toBe(401);
          expect(answer.text, jwt.name).toBe('');
          expect(answer.headers.get('www-authenticate'), jwt.name).toMatch(jwt.challenge);
        }
      }
    },
  );

  it.each(CLIENT.map((r) => [r.key, r] as const))(
    '%s: a missing or wrong ApplicationToken gets the code-less 401 saying which (spec §5 rows 2-3)',
    async (_, route) => {
      const cases: [string | null, RegExp, RegExp][] = [
        [null, /missing/i, /Send the ApplicationToken/],
        ['   ', /missing/i, /Send the ApplicationToken/],
        ['not-a-guid', /invalid/i, /not a GUID/],
        [other.client.applicationToken, /invalid/i, /not found/],
        [crypto.randomUUID(), /invalid/i, /not found/],
      ];
      for (const [token, title, detail] of cases) {
        const { answer } = await send(route, { applicationtoken: token });
        expect(answer.status, String(token)).toBe(401);
        const body = JSON.parse(answer.text);
        expect(body.code, String(token)).toBeUndefined();
        expect(body.title, String(token)).toMatch(title);
        expect(body.detail, String(token)).toMatch(detail);
      }
      // The other client's JWT with this client's ApplicationToken: the token is not theirs.
      const { answer } = await send(route, { authorization: `Bearer ${other.token}` });
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.text).detail).toMatch(/not found/);
    },
  );

  it.each(SIGNED.map((r) => [r.key, r] as const))(
    '%s: a missing, wrong, foreign or replayed DigitalSignature is refused (spec §5 rows 4-5)',
    async (_, route) => {
      for (const c of signatures) {
        const { answer } = await send(route, { digitalsignature: c.signature });
        expect([answer.status, code(answer)], c.name).toEqual([401, c.code]);
      }
    },
  );

  it.each(SIGNED.map((r) => [r.key, r] as const))(
    '%s: the body is validated before the signature, the JWT before the body (spec §5 rule 5)',
    async (_, route) => {
      const invalid = await send(route, { digitalsignature: null }, { body: '{"amount":"x","reason":1}' });
      expect([invalid.answer.status, code(invalid.answer)]).toEqual([400, 'VALIDATION_ERROR']);
      const jwtFirst = await send(
        route,
        { authorization: 'Bearer a.b.c', digitalsignature: null },
        { body: '{' },
      );
      expect([jwtFirst.answer.status, jwtFirst.answer.text]).toEqual([401, '']);
    },
  );

  it.each(UNSIGNED.map((r) => [r.key, r] as const))(
    '%s: a DigitalSignature is not required and a wrong one is ignored (spec §4.1)',
    async (_, route) => {
      const without = await send(route, { digitalsignature: null });
      const wrong = await send(route, { digitalsignature: 'f'.repeat(64) });
      expect(wrong.answer.status).toBe(without.answer.status);
      expect(without.answer.status).not.toBe(401);
    },
  );

  it.each(OPERATOR.map((r) => [r.key, r] as const))(
    '%s: anything but the operator token is 401 UNAUTHORIZED (decisions §3)',
    async (_, route) => {
      const cases: Record<string, string | null>[] = [
        { authorization: null },
        { authorization: `Bearer ${victim.token}`, applicationtoken: victim.client.applicationToken },
        { authorization: `Bearer ${ADMIN_TOKEN}x` },
        { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` },
        { authorization: `Basic ${btoa(`admin:${ADMIN_TOKEN}`)}` },
        { authorization: ADMIN_TOKEN },
        { authorization: null, applicationtoken: ADMIN_TOKEN },
      ];
      for (const headers of cases) {
        const { answer } = await send(route, headers, { body: '{}' });
        expect([answer.status, code(answer)], JSON.stringify(headers)).toEqual([401, 'UNAUTHORIZED']);
      }
      const { answer } = await send(route, {}, { body: '{}' });
      expect(answer.status).not.toBe(401);
    },
  );

  it.each(PUBLIC.map((r) => [r.key, r] as const))(
    '%s: credentials, right or wrong, change nothing',
    async (_, r) => {
      const statuses = [];
      const variants: Record<string, string | null>[] = [
        { authorization: null, applicationtoken: null },
        { authorization: `Bearer ${victim.token}`, applicationtoken: victim.client.applicationToken },
        { authorization: 'Bearer a.b.c', applicationtoken: 'x', digitalsignature: 'zz' },
        { authorization: `Bearer ${ADMIN_TOKEN}` },
      ];
      for (const headers of variants) statuses.push((await send(r, headers)).answer.status);
      expect(new Set(statuses).size, `${statuses}`).toBe(1);
    },
  );
});

describe('deactivation and rotation (decisions §3)', () => {
  it('a deactivated ApplicationToken is refused at once on every client route', async () => {
    const api = await Integrator.create();
    expect((await admin(`/admin/clients/${api.client.clientId}/application-token`, 'DELETE')).status).toBe(
      204,
    );
    for (const route of CLIENT) {
      const { answer } = await send(route, {}, { api });
      expect(answer.status, route.key).toBe(401);
      expect(JSON.parse(answer.text).detail, route.key).toMatch(/inactive/);
    }
  });

  it('a deactivated CryptoToken stops every signed route at once (403) and no other', async () => {
    const api = await Integrator.create();
    expect((await admin(`/admin/clients/${api.client.clientId}/crypto-token`, 'DELETE')).status).toBe(204);
    for (const route of SIGNED) {
      const { answer } = await send(route, {}, { api });
      expect([answer.status, code(answer)], route.key).toEqual([403, 'CRYPTO_TOKEN_NOT_CONFIGURED']);
    }
    for (const route of UNSIGNED) {
      const { answer } = await send(route, {}, { api });
      expect(answer.status, route.key).not.toBe(401);
      expect(answer.status, route.key).not.toBe(403);
    }
  });

  it('a rotated CryptoToken refuses signatures made with the old one at once', async () => {
    const api = await Integrator.create();
    const old = await sign(api.client.cryptoToken, api.token);
    // Accepted once first, so this isolate holds the old signature as verified (auth.ts).
    const before = await send(SIGNED[0]!, { digitalsignature: old }, { api });
    expect(before.answer.status).not.toBe(401);
    const rotated = await admin(`/admin/clients/${api.client.clientId}/crypto-token`, 'POST');
    expect(rotated.status).toBe(201);
    const { cryptoToken } = (await rotated.json()) as { cryptoToken: string };
    for (const route of SIGNED) {
      const stale = await send(route, { digitalsignature: old }, { api });
      expect([stale.answer.status, code(stale.answer)], route.key).toEqual([
        401,
        'DIGITAL_SIGNATURE_INVALID',
      ]);
      const fresh = await send(route, { digitalsignature: await sign(cryptoToken, api.token) }, { api });
      expect(fresh.answer.status, route.key).not.toBe(401);
    }
  });

  it(`a change made by another isolate takes effect within CACHE_TTL_MS (${CACHE_TTL_MS} ms)`, async () => {
    // Another isolate's DELETE writes D1 and evicts only its own cache; this isolate may serve its
    // cached credentials for up to CACHE_TTL_MS. A direct D1 write plays that other isolate.
    expect(CACHE_TTL_MS).toBeLessThanOrEqual(5_000);
    const route = CLIENT.find((r) => r.key === 'GET /cash-in/{id}')!;
    const api = await Integrator.create();
    expect((await send(route, {}, { api })).answer.status).toBe(404);
    await deactivateApplicationToken(api.client.clientId);
    await new Promise((r) => setTimeout(r, CACHE_TTL_MS + 100));
    const { answer } = await send(route, {}, { api });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text).detail).toMatch(/inactive/);
  });

  it('the tokens of a deleted client stop working within CACHE_TTL_MS, and so does its login', async () => {
    const route = CLIENT.find((r) => r.key === 'GET /cash-in/{id}')!;
    const api = await Integrator.create();
    expect((await send(route, {}, { api })).answer.status).toBe(404);
    await deleteClient(api.client.clientId);
    await new Promise((r) => setTimeout(r, CACHE_TTL_MS + 100));
    const { answer } = await send(route, {}, { api });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/subject is unknown/);
    const login = await call('/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: api.client.clientId, clientSecret: api.client.clientSecret }),
    });
    expect(login.status).toBe(401);
    expect(await login.json()).toEqual({ message: expect.any(String) });
  });
});
