/**
 * Cloudflare Access assertions (docs/contract.md, Operators and the audit trail; Cloudflare's
 * "Validate JWTs" page): Access puts an RS256 JWT in `Cf-Access-Jwt-Assertion`, signed by a key of
 * the team's JWKS at `https://<team>.cloudflareaccess.com/cdn-cgi/access/certs`. Access rotates the
 * key every 6 weeks and keeps the previous one valid for 7 days, so the keys are cached for an hour
 * and fetched again at once when an unknown `kid` arrives (at most every 30 s, so made-up key ids
 * cannot turn into a flood of fetches).
 */
import { fromBase64Url, fromUtf8, utf8 } from './encoding';

export const ACCESS_HEADER = 'cf-access-jwt-assertion';
const CACHE_MS = 60 * 60 * 1000;
const REFETCH_MS = 30 * 1000;

export type Fetcher = (url: string) => Promise<Response>;

interface KeySet {
  keys: Map<string, CryptoKey>;
  fetchedAt: number;
}

const keySets = new Map<string, KeySet>();

/** The team's origin, from `ACCESS_TEAM_DOMAIN` written with or without its scheme. */
export const teamOrigin = (teamDomain: string) =>
  `https://${teamDomain.replace(/^https?:\/\//, '').replace(/\/+$/, '')}`;

async function fetchKeys(origin: string, fetcher: Fetcher, now: number): Promise<KeySet> {
  const response = await fetcher(`${origin}/cdn-cgi/access/certs`);
  if (!response.ok) throw new Error(`Access certs answered ${response.status}`);
  const body = (await response.json()) as { keys?: JsonWebKey[] };
  const keys = new Map<string, CryptoKey>();
  for (const jwk of body.keys ?? []) {
    const kid = (jwk as { kid?: unknown }).kid;
    if (jwk.kty !== 'RSA' || typeof kid !== 'string') continue;
    const key = await crypto.subtle.importKey(
      'jwk',
      { kty: 'RSA', n: jwk.n, e: jwk.e, alg: 'RS256', ext: true },
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    keys.set(kid, key);
  }
  const set = { keys, fetchedAt: now };
  keySets.set(origin, set);
  return set;
}

async function keyFor(
  origin: string,
  kid: string,
  fetcher: Fetcher,
  now: number,
): Promise<CryptoKey | undefined> {
  let set = keySets.get(origin);
  if (!set || now - set.fetchedAt > CACHE_MS) set = await fetchKeys(origin, fetcher, now);
  const key = set.keys.get(kid);
  if (key || now - set.fetchedAt < REFETCH_MS) return key;
  return (await fetchKeys(origin, fetcher, now)).keys.get(kid);
}

export type AccessResult = { ok: true; email: string } | { ok: false; reason: string };

function part(text: string | undefined): Record<string, unknown> | undefined {
  const bytes = text === undefined ? undefined : fromBase64Url(text);
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(fromUtf8(bytes));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Signature (RS256, a key of the team's set), audience and expiry; the email the assertion names. */
export async function verifyAccessAssertion(
  token: string,
  config: { teamDomain: string; audience: string },
  now: number,
  fetcher: Fetcher = (url) => fetch(url),
): Promise<AccessResult> {
  const [h, p, s, extra] = token.split('.');
  const header = part(h);
  const claims = part(p);
  const signature = s === undefined ? undefined : fromBase64Url(s);
  if (!header || !claims || !signature || extra !== undefined) return { ok: false, reason: 'malformed' };
  if (header.alg !== 'RS256' || typeof header.kid !== 'string') return { ok: false, reason: 'algorithm' };
  const origin = teamOrigin(config.teamDomain);
  const key = await keyFor(origin, header.kid, fetcher, now);
  if (!key) return { ok: false, reason: 'unknown key' };
  const signed = await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, signature, utf8(`${h}.${p}`));
  if (!signed) return { ok: false, reason: 'signature' };
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(config.audience)) return { ok: false, reason: 'audience' };
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return { ok: false, reason: 'expired' };
  if (typeof claims.nbf === 'number' && claims.nbf * 1000 > now + 60_000)
    return { ok: false, reason: 'not yet valid' };
  if (claims.iss !== undefined && claims.iss !== origin) return { ok: false, reason: 'issuer' };
  if (typeof claims.email !== 'string' || claims.email === '') return { ok: false, reason: 'no email' };
  return { ok: true, email: claims.email.toLowerCase() };
}
