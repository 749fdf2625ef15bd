/**
 * ES256 compact JWS for the BR Code charge payload (BCB API Pix): wallets fetch the location named
 * in the BR Code and verify it with our key at /.well-known/jwks.json.
 */
import { toBase64Url, toHex, utf8 } from './encoding';

interface SigningKey {
  privateKey: CryptoKey;
  publicJwk: JsonWebKey & { kid: string; use: string; alg: string };
}

const keys = new Map<string, Promise<SigningKey>>();

async function load(jwkText: string): Promise<SigningKey> {
  const jwk = JSON.parse(jwkText) as JsonWebKey;
  const privateKey = await crypto.subtle.importKey(
    'jwk',
    jwk,
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(`${jwk.x}.${jwk.y}`)));
  const kid = toHex(digest).slice(0, 16);
  return {
    privateKey,
    publicJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid, use: 'sig', alg: 'ES256' },
  };
}

export function signingKey(jwkText: string): Promise<SigningKey> {
  let key = keys.get(jwkText);
  if (!key) {
    key = load(jwkText);
    keys.set(jwkText, key);
  }
  return key;
}

export async function signJws(payload: unknown, jwkText: string, jku: string): Promise<string> {
  const key = await signingKey(jwkText);
  const header = toBase64Url(utf8(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: key.publicJwk.kid, jku })));
  const body = toBase64Url(utf8(JSON.stringify(payload)));
  // WebCrypto ECDSA signatures are r||s (IEEE P1363), exactly the JWS encoding.
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    key.privateKey,
    utf8(`${header}.${body}`),
  );
  return `${header}.${body}.${toBase64Url(new Uint8Array(signature))}`;
}
