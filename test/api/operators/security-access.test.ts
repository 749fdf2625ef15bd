/**
 * Cloudflare Access in front of /admin: assertions signed with locally generated RSA keys, the
 * team's JWKS endpoint stubbed. Valid → acts as the operator with that email; expired, wrong
 * audience, wrong key → 401; an email that is not an operator → 403; keys cached and refreshed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { verifyAccessAssertion } from '../../../src/security/access-jwt';
import { toBase64Url, utf8 } from '../../../src/security/encoding';
import { admin, call } from '../../support/harness';
import { createOperator, recordsOf } from '../../support/operators';

const TEAM = 'connectpsp-test.cloudflareaccess.com';
const AUD = 'test-access-audience';

interface Signer {
  kid: string;
  keys: CryptoKeyPair;
  jwk: JsonWebKey & { kid: string };
}

async function signer(kid: string): Promise<Signer> {
  const keys = (await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  const pub = (await crypto.subtle.exportKey('jwk', keys.publicKey)) as JsonWebKey;
  return {
    kid,
    keys,
    jwk: { kty: 'RSA', n: pub.n, e: pub.e, alg: 'RS256', use: 'sig', kid } as JsonWebKey & { kid: string },
  };
}

async function assertion(s: Signer, claims: Record<string, unknown>, kid = s.kid): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const head = toBase64Url(utf8(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' })));
  const body = toBase64Url(
    utf8(
      JSON.stringify({
        aud: [AUD],
        iss: `https://${TEAM}`,
        iat: now,
        exp: now + 600,
        type: 'app',
        ...claims,
      }),
    ),
  );
  const sig = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', s.keys.privateKey, utf8(`${head}.${body}`));
  return `${head}.${body}.${toBase64Url(new Uint8Array(sig))}`;
}

let published: Signer[] = [];
/** The team's current key: one for the file, as the key cache is per isolate and per team. */
let teamKey: Promise<Signer> | undefined;
const currentKey = () => (teamKey ??= signer('kid-current'));
let certFetches = 0;
const realFetch = globalThis.fetch;

beforeEach(() => {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/cdn-cgi/access/certs')) {
      certFetches += 1;
      // The format of Cloudflare's certs endpoint: both keys as JWK, and PEM forms beside them.
      return Response.json({
        keys: published.map((s) => s.jwk),
        public_cert: { kid: published[0]?.kid, cert: '' },
        public_certs: [],
      });
    }
    return realFetch(input, init);
  });
});
afterEach(() => vi.restoreAllMocks());

const withAssertion = (token: string, path = '/admin/operators', method = 'GET', body?: unknown) =>
  call(path, {
    method,
    headers: { 'cf-access-jwt-assertion': token, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

describe('Cloudflare Access', () => {
  it('valid, expired, wrong audience, wrong key and unknown email each get their answer', async () => {
    const current = await currentKey();
    const stranger = await signer('kid-current');
    published = [current];
    const op = await createOperator('ADMIN', 'Access.Person@example.com');

    const valid = await withAssertion(await assertion(current, { email: 'access.person@example.com' }));
    expect(valid.status).toBe(200);

    const change = await withAssertion(
      await assertion(current, { email: 'access.person@example.com' }),
      '/admin/operators',
      'POST',
      { email: 'via-access@example.com', role: 'VIEWER' },
    );
    expect(change.status).toBe(201);
    expect((await recordsOf(change))[0]?.actor).toEqual({
      kind: 'ACCESS',
      operatorId: op.operatorId,
      email: op.email,
    });

    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Promise<string>, number][] = [
      ['expired', assertion(current, { email: op.email, exp: now - 5 }), 401],
      ['wrong audience', assertion(current, { email: op.email, aud: ['someone-else'] }), 401],
      ['wrong key', assertion(stranger, { email: op.email }), 401],
      ['unknown key id', assertion(current, { email: op.email }, 'kid-nobody'), 401],
      ['unknown email', assertion(current, { email: 'nobody@example.com' }), 403],
    ];
    for (const [name, token, status] of cases) {
      const res = await withAssertion(await token);
      expect(res.status, name).toBe(status);
      expect(((await res.json()) as { code: string }).code, name).toBe(
        status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN',
      );
    }
    // A VIEWER through Access is held to its role like with a token.
    await createOperator('VIEWER', 'access.viewer@example.com');
    const beyond = await withAssertion(
      await assertion(current, { email: 'access.viewer@example.com' }),
      '/admin/operators',
      'POST',
      {
        email: 'x@example.com',
        role: 'ADMIN',
      },
    );
    expect(beyond.status).toBe(403);
  });

  it('a valid assertion whose email is no operator is refused 403 and recorded, and changes nothing', async () => {
    const current = await currentKey();
    published = [current];
    const email = `stranger-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const token = await assertion(current, { email });
    const read = await withAssertion(token);
    expect(read.status).toBe(403);
    const created = `made-by-stranger-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const change = await withAssertion(token, '/admin/operators', 'POST', { email: created, role: 'ADMIN' });
    expect(change.status).toBe(403);
    for (const [res, action] of [
      [read, 'listOperators'],
      [change, 'createOperator'],
    ] as const) {
      const records = await recordsOf(res);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        actor: { kind: 'ACCESS', email },
        action,
        target: '/admin/operators',
        result: 'FORBIDDEN',
      });
      expect(records[0]?.actor.operatorId).toBeUndefined();
    }
    const operators = (await (await admin('/admin/operators')).json()) as { items: { email: string }[] };
    expect(operators.items.map((o) => o.email)).not.toContain(created);
  });

  it('opens the console as the operator the assertion names', async () => {
    const current = await currentKey();
    published = [current];
    const op = await createOperator('VIEWER', 'console.access@example.com');
    const res = await call('/admin/console', {
      headers: { 'cf-access-jwt-assertion': await assertion(current, { email: op.email }) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^connectpsp_console=/);
    const page = await res.text();
    expect(page).toContain(op.email);
    expect(page).not.toContain('name="token"');
    const stranger = await call('/admin/console', {
      headers: { 'cf-access-jwt-assertion': await assertion(current, { email: 'nobody@example.com' }) },
    });
    expect(await stranger.text()).toContain('name="token"');
  });

  it('caches the keys and fetches them again when an unknown key id arrives', async () => {
    const team = { teamDomain: 'rotation-test.cloudflareaccess.com', audience: AUD };
    const old = await signer('kid-old');
    const next = await signer('kid-next');
    published = [old];
    certFetches = 0;
    const sign = async (s: Signer) => {
      const now = Math.floor(Date.now() / 1000);
      const head = toBase64Url(utf8(JSON.stringify({ alg: 'RS256', kid: s.kid })));
      const body = toBase64Url(utf8(JSON.stringify({ aud: [AUD], exp: now + 600, email: 'a@example.com' })));
      const sig = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', s.keys.privateKey, utf8(`${head}.${body}`));
      return `${head}.${body}.${toBase64Url(new Uint8Array(sig))}`;
    };
    const t0 = Date.now();
    expect(await verifyAccessAssertion(await sign(old), team, t0)).toEqual({
      ok: true,
      email: 'a@example.com',
    });
    expect(await verifyAccessAssertion(await sign(old), team, t0 + 1000)).toMatchObject({ ok: true });
    expect(certFetches).toBe(1);
    // Rotation: the new key is published; within 30 s of the last fetch an unknown kid is refused
    // without a fetch, after that it is fetched once and accepted.
    published = [next, old];
    expect(await verifyAccessAssertion(await sign(next), team, t0 + 2000)).toEqual({
      ok: false,
      reason: 'unknown key',
    });
    expect(certFetches).toBe(1);
    expect(await verifyAccessAssertion(await sign(next), team, t0 + 31_000)).toMatchObject({ ok: true });
    expect(certFetches).toBe(2);
    expect(await verifyAccessAssertion(await sign(old), team, t0 + 32_000)).toMatchObject({ ok: true });
    expect(certFetches).toBe(2);
  });
});
