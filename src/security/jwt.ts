/**
 * Access tokens: compact JWS, HS256 only (docs/contract.md, Authentication). Anything else — `alg: none`,
 * another algorithm, a bad signature, a malformed token — is rejected with the reason the WWW-Authenticate
 * header reports.
 */
import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from './encoding';
import { hmacKey } from './secrets';

export const TOKEN_LIFETIME_SECONDS = 3600;

export interface AccessClaims {
  sub: string;
  iat: number;
  exp: number;
  jti: string;
}

const HEADER = toBase64Url(utf8(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));

export async function signAccessToken(clientId: string, nowMs: number, secret: string): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const claims: AccessClaims = {
    sub: clientId,
    iat,
    exp: iat + TOKEN_LIFETIME_SECONDS,
    jti: crypto.randomUUID(),
  };
  const input = `${HEADER}.${toBase64Url(utf8(JSON.stringify(claims)))}`;
  const sig = await crypto.subtle.sign('HMAC', await hmacKey(secret), utf8(input));
  return `${input}.${toBase64Url(new Uint8Array(sig))}`;
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: string };

function decodeJson(part: string): unknown {
  const bytes = fromBase64Url(part);
  if (!bytes) return undefined;
  try {
    return JSON.parse(fromUtf8(bytes));
  } catch {
    return undefined;
  }
}

export async function verifyAccessToken(token: string, nowMs: number, secret: string): Promise<VerifyResult> {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'The access token is malformed' };
  const [headerPart, payloadPart, sigPart] = parts as [string, string, string];
  const header = decodeJson(headerPart) as { alg?: unknown } | undefined;
  if (!header || typeof header !== 'object') return { ok: false, reason: 'The access token is malformed' };
  if (header.alg !== 'HS256') return { ok: false, reason: 'The access token algorithm is not accepted' };
  const signature = fromBase64Url(sigPart);
  if (!signature) return { ok: false, reason: 'The access token signature is invalid' };
  const valid = await crypto.subtle.verify(
    'HMAC',
    await hmacKey(secret),
    signature,
    utf8(`${headerPart}.${payloadPart}`),
  );
  if (!valid) return { ok: false, reason: 'The access token signature is invalid' };
  const claims = decodeJson(payloadPart) as Partial<AccessClaims> | undefined;
  if (!claims || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') {
    return { ok: false, reason: 'The access token claims are invalid' };
  }
  if (claims.exp * 1000 <= nowMs) {
    return { ok: false, reason: `The access token expired at ${new Date(claims.exp * 1000).toISOString()}` };
  }
  return { ok: true, claims: claims as AccessClaims };
}
