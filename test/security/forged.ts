/**
 * Credentials an attacker can build: access tokens with another algorithm, key or claims, and
 * DigitalSignatures over the wrong token or with the wrong key. Every case names what it forges.
 */
import { env } from 'cloudflare:workers';
import { toBase64Url } from '../../src/security/encoding';
import { signAccessToken } from '../../src/security/jwt';
import { type Integrator, sign } from '../support/harness';

/** base64url of a value's JSON: a JWT header or claims segment. */
export const b64 = (value: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)));

export async function hmacJwt(header: unknown, claims: unknown, secret: string, hash = 'SHA-256') {
  const input = `${b64(header)}.${b64(claims)}`;
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash },
    false,
    ['sign'],
  );
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(input)));
  return `${input}.${toBase64Url(sig)}`;
}

export interface JwtCase {
  name: string;
  /** The whole Authorization header value, or null to send none. */
  authorization: string | null;
  /** What WWW-Authenticate must say. */
  challenge: RegExp;
}

/** Every way the JWT of spec §5 row 1 can be wrong, aimed at `victim` (its sub) by `other`. */
export async function jwtCases(victim: Integrator, other: Integrator): Promise<JwtCase[]> {
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: victim.client.clientId, iat: now, exp: now + 600, jti: crypto.randomUUID() };
  const [header, , signature] = victim.token.split('.') as [string, string, string];
  const invalid = (reason: string) =>
    new RegExp(`^Bearer error="invalid_token", error_description="${reason}`);
  const expiredAt = Date.now() - 2 * 3600 * 1000;
  return [
    { name: 'no Authorization', authorization: null, challenge: /^Bearer$/ },
    { name: 'Basic scheme', authorization: `Basic ${btoa('a:b')}`, challenge: /^Bearer$/ },
    { name: 'empty Bearer', authorization: 'Bearer ', challenge: /^Bearer$/ },
    {
      name: 'alg none',
      authorization: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      challenge: invalid('The access token algorithm'),
    },
    {
      name: 'HS512 with the real secret',
      authorization: `Bearer ${await hmacJwt({ alg: 'HS512', typ: 'JWT' }, claims, env.JWT_SECRET, 'SHA-512')}`,
      challenge: invalid('The access token algorithm'),
    },
    {
      name: 'RS256 header, HMAC body',
      authorization: `Bearer ${await hmacJwt({ alg: 'RS256', typ: 'JWT' }, claims, env.JWT_SECRET)}`,
      challenge: invalid('The access token algorithm'),
    },
    {
      name: 'HS256 with a wrong key',
      authorization: `Bearer ${await hmacJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'not-the-secret')}`,
      challenge: invalid('The access token signature is invalid'),
    },
    {
      name: "sub switched to the other client's id",
      authorization: `Bearer ${header}.${b64({ ...claims, sub: other.client.clientId })}.${signature}`,
      challenge: invalid('The access token signature is invalid'),
    },
    {
      name: 'exp extended',
      authorization: `Bearer ${header}.${b64({ ...claims, exp: now + 99_999 })}.${signature}`,
      challenge: invalid('The access token signature is invalid'),
    },
    {
      name: 'expired',
      authorization: `Bearer ${await signAccessToken(victim.client.clientId, expiredAt, env.JWT_SECRET)}`,
      challenge: invalid('The access token expired at '),
    },
    {
      name: 'well signed for a client that never existed',
      authorization: `Bearer ${await signAccessToken(crypto.randomUUID(), Date.now(), env.JWT_SECRET)}`,
      challenge: invalid('The access token subject is unknown'),
    },
    {
      name: 'two parts',
      authorization: `Bearer ${victim.token.split('.').slice(0, 2).join('.')}`,
      challenge: invalid(''),
    },
    { name: 'garbage', authorization: 'Bearer a.b.c', challenge: invalid('') },
  ];
}

export interface SignatureCase {
  name: string;
  /** The DigitalSignature header, or null to send none. */
  signature: string | null;
  code: 'DIGITAL_SIGNATURE_REQUIRED' | 'DIGITAL_SIGNATURE_INVALID';
}

/** Every way the DigitalSignature of `victim`'s request can be wrong. */
export async function signatureCases(victim: Integrator, other: Integrator, olderToken: string) {
  const right = await sign(victim.client.cryptoToken, victim.token);
  const cases: SignatureCase[] = [
    { name: 'missing', signature: null, code: 'DIGITAL_SIGNATURE_REQUIRED' },
    { name: 'blank', signature: '  ', code: 'DIGITAL_SIGNATURE_REQUIRED' },
    {
      name: 'one hex digit off',
      signature: `${right.slice(0, -1)}${right.endsWith('0') ? '1' : '0'}`,
      code: 'DIGITAL_SIGNATURE_INVALID',
    },
    { name: 'not hex', signature: 'zz'.repeat(32), code: 'DIGITAL_SIGNATURE_INVALID' },
    { name: 'truncated', signature: right.slice(0, 32), code: 'DIGITAL_SIGNATURE_INVALID' },
    { name: 'doubled', signature: right + right, code: 'DIGITAL_SIGNATURE_INVALID' },
    {
      name: "with the other client's CryptoToken",
      signature: await sign(other.client.cryptoToken, victim.token),
      code: 'DIGITAL_SIGNATURE_INVALID',
    },
    {
      name: 'replayed from an older JWT of the same client',
      signature: await sign(victim.client.cryptoToken, olderToken),
      code: 'DIGITAL_SIGNATURE_INVALID',
    },
    {
      name: "the other client's own valid signature",
      signature: await sign(other.client.cryptoToken, other.token),
      code: 'DIGITAL_SIGNATURE_INVALID',
    },
    {
      name: 'over "Bearer <JWT>" instead of the JWT',
      signature: await sign(victim.client.cryptoToken, `Bearer ${victim.token}`),
      code: 'DIGITAL_SIGNATURE_INVALID',
    },
  ];
  return cases;
}
