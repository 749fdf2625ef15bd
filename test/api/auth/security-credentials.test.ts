import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { signAccessToken } from '../../../src/security/jwt';
import { b64, hmacJwt } from '../../security/forged';
import { admin, call, cashInBody, Integrator, onboardClient } from '../../support/harness';

const login = (body: unknown) =>
  call('/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

function readAs(token: string, appToken: string, path = '/cash-in/ABCDEFG') {
  return call(path, { headers: { authorization: `Bearer ${token}`, applicationtoken: appToken } });
}

describe('POST /auth/token', () => {
  it('issues a Bearer JWT valid for 3600 s with sub, iat, exp and jti', async () => {
    const client = await onboardClient();
    const res = await login({ clientId: client.clientId, clientSecret: client.clientSecret });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { accessToken: string; tokenType: string; expiresIn: number };
    expect(body.tokenType).toBe('Bearer');
    expect(body.expiresIn).toBe(3600);
    const claims = JSON.parse(atob(body.accessToken.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')));
    expect(claims.sub).toBe(client.clientId);
    expect(claims.exp - claims.iat).toBe(3600);
    expect(typeof claims.jti).toBe('string');
  });

  it('answers the same plain {message} 401 whichever credential is wrong', async () => {
    const client = await onboardClient();
    const attempts = [
      { clientId: client.clientId, clientSecret: crypto.randomUUID() },
      { clientId: client.clientId, clientSecret: 'not-a-guid' },
      { clientId: crypto.randomUUID(), clientSecret: client.clientSecret },
    ];
    const bodies = [];
    for (const attempt of attempts) {
      const res = await login(attempt);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      bodies.push(await res.json());
    }
    expect(bodies[0]).toEqual({ message: expect.any(String) });
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it('answers 400 VALIDATION_ERROR naming a missing field', async () => {
    const res = await login({ clientId: 'x' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(body.errors)).toEqual(['clientSecret']);
  });
});

describe('JWT (spec §5 row 1)', () => {
  it('answers a bare 401 with WWW-Authenticate: Bearer when there is no bearer header', async () => {
    const res = await call('/cash-in/ABCDEFG');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await res.text()).toBe('');
  });

  it('rejects alg none, another algorithm, a wrong key, tampered claims and garbage', async () => {
    const api = await Integrator.create();
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: api.client.clientId, iat: now, exp: now + 600, jti: 'x' };
    const [header, payload] = api.token.split('.');
    const tampered = `${header}.${b64({ ...claims, sub: crypto.randomUUID() })}.${api.token.split('.')[2]}`;
    const cases = [
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      await hmacJwt({ alg: 'HS512', typ: 'JWT' }, claims, env.JWT_SECRET, 'SHA-512'),
      await hmacJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'some-other-secret'),
      tampered,
      `${header}.${payload}`,
      'not.a.jwt',
      'garbage',
    ];
    for (const token of cases) {
      const res = await readAs(token, api.client.applicationToken);
      expect(res.status, token).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(
        /^Bearer error="invalid_token", error_description="/,
      );
      expect(await res.text()).toBe('');
    }
  });

  it('says when an expired token expired, and wins over a wrong ApplicationToken', async () => {
    const client = await onboardClient();
    const issuedAt = Date.now() - 2 * 3600 * 1000;
    const expired = await signAccessToken(client.clientId, issuedAt, env.JWT_SECRET);
    const res = await readAs(expired, 'wrong-application-token');
    expect(res.status).toBe(401);
    const expiredAt = new Date(Math.floor(issuedAt / 1000) * 1000 + 3600 * 1000).toISOString();
    expect(res.headers.get('www-authenticate')).toContain(`expired at ${expiredAt}`);
    expect(await res.text()).toBe('');
  });
});

describe('ApplicationToken (spec §5 rows 2-3)', () => {
  it('missing: Problem Details without code, title saying it is missing', async () => {
    const api = await Integrator.create();
    const res = await call('/cash-in/ABCDEFG', { headers: { authorization: `Bearer ${api.token}` } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.code).toBeUndefined();
    expect(body.title).toMatch(/missing/i);
  });

  it('not a GUID, not found, inactive: title says invalid, detail says which', async () => {
    const api = await Integrator.create();
    const other = await onboardClient();
    const notGuid = await readAs(api.token, 'abc');
    const notFound = await readAs(api.token, other.applicationToken);
    const details = [];
    for (const res of [notGuid, notFound]) {
      expect(res.status).toBe(401);
      const body = (await res.json()) as Record<string, string>;
      expect(body.code).toBeUndefined();
      expect(body.title).toMatch(/invalid/i);
      details.push(body.detail);
    }
    expect(details[0]).toMatch(/GUID/);
    expect(details[1]).toMatch(/not found/);

    expect((await admin(`/admin/clients/${api.client.clientId}/application-token`, 'DELETE')).status).toBe(
      204,
    );
    const inactive = await readAs(api.token, api.client.applicationToken);
    expect(inactive.status).toBe(401);
    const body = (await inactive.json()) as Record<string, string>;
    expect(body.code).toBeUndefined();
    expect(body.detail).toMatch(/inactive/);
  });

  it('lets a valid JWT + ApplicationToken through to the resource', async () => {
    const api = await Integrator.create();
    const created = await api.post('/cash-in', cashInBody());
    expect(created.status).toBe(201);
    const res = await api.get('/cash-in/ZZZZZZZ');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('CASHIN_NOT_FOUND');
  });
});
