/** What a payer's app does with a BR Code's location: reads the JWS there and checks its signature. */
import { expect } from 'vitest';
import { fromBase64Url } from '../../src/security/encoding';
import { call } from './harness';

/** The payload of the JWS served at `path`, its ES256 signature verified with /.well-known/jwks.json. */
export async function verifiedLocationPayload(path: string): Promise<Record<string, any>> {
  const res = await call(path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/jose');
  const [header, payload, signature] = (await res.text()).split('.') as [string, string, string];
  const jwks = (await (await call('/.well-known/jwks.json')).json()) as { keys: JsonWebKey[] };
  const key = await crypto.subtle.importKey(
    'jwk',
    jwks.keys[0]!,
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['verify'],
  );
  const valid = await crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    key,
    fromBase64Url(signature)!,
    new TextEncoder().encode(`${header}.${payload}`),
  );
  expect(valid).toBe(true);
  return JSON.parse(new TextDecoder().decode(fromBase64Url(payload)));
}
