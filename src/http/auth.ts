/**
 * Request authentication in the order of docs/contract.md, Authentication: JWT, then ApplicationToken, then
 * the client's request budget (429 RATE_LIMITED); the body is validated by the route before
 * `requireDigitalSignature` runs. Each failure has its own documented form.
 */
import { type ClientCredentials, loadCredentials } from '../db/credentials';
import { fromHex, utf8 } from '../security/encoding';
import { type AccessClaims, type VerifyResult, verifyAccessToken } from '../security/jwt';
import { constantTimeEqual, hmacKey, sha256Hex } from '../security/secrets';
import { ProblemError } from './errors';
import { applicationTokenProblem, bearerChallenge } from './problem';
import { spendRequestToken } from './rate-limit';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A response that ends the request early (auth failures carry bodies that are not ProblemError). */
export class EarlyResponse extends Error {
  constructor(readonly response: Response) {
    super('early response');
  }
}

export interface Principal {
  clientId: string;
  /** The JWT exactly as sent after `Bearer `: the DigitalSignature message. */
  accessToken: string;
  credentials: ClientCredentials;
}

/**
 * Access tokens this isolate has already verified, per signing secret, until they expire: an
 * integrator sends the same token for up to an hour, and a Map lookup replaces the base64, JSON
 * and HMAC work of every repeat. Only exact token strings that passed verification are kept, and
 * expiry is still checked on every use.
 */
const verifiedTokens = new Map<string, Map<string, AccessClaims>>();
const MAX_VERIFIED_TOKENS = 10_000;

async function verifyToken(token: string, secret: string): Promise<VerifyResult> {
  const now = Date.now();
  let bySecret = verifiedTokens.get(secret);
  const hit = bySecret?.get(token);
  if (hit && hit.exp * 1000 > now) return { ok: true, claims: hit };
  const verified = await verifyAccessToken(token, now, secret);
  if (verified.ok) {
    if (!bySecret) {
      bySecret = new Map();
      verifiedTokens.set(secret, bySecret);
    }
    if (bySecret.size >= MAX_VERIFIED_TOKENS) bySecret.clear();
    bySecret.set(token, verified.claims);
  } else if (hit) {
    bySecret?.delete(token);
  }
  return verified;
}

/** SHA-256 of ApplicationTokens seen by this isolate (a pure function of the token, so safe to keep). */
const appTokenHashes = new Map<string, string>();

async function appTokenHash(appToken: string): Promise<string> {
  let hash = appTokenHashes.get(appToken);
  if (hash === undefined) {
    hash = await sha256Hex(appToken);
    if (appTokenHashes.size >= MAX_VERIFIED_TOKENS) appTokenHashes.clear();
    appTokenHashes.set(appToken, hash);
  }
  return hash;
}

export async function authenticate(request: Request, env: Env): Promise<Principal> {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer +(\S+)\s*$/i.exec(header) : null;
  if (!match) throw new EarlyResponse(bearerChallenge());
  const accessToken = match[1] as string;
  const verified = await verifyToken(accessToken, env.JWT_SECRET);
  if (!verified.ok) throw new EarlyResponse(bearerChallenge(verified.reason));

  const credentials = await loadCredentials(env, verified.claims.sub);
  // A well-signed token for a client that no longer exists is as invalid as a forged one.
  if (!credentials) throw new EarlyResponse(bearerChallenge('The access token subject is unknown'));

  const appToken = request.headers.get('applicationtoken');
  if (appToken === null || appToken.trim() === '') {
    throw new EarlyResponse(
      applicationTokenProblem('missing', 'Send the ApplicationToken header issued at onboarding'),
    );
  }
  if (!GUID.test(appToken.trim())) {
    throw new EarlyResponse(applicationTokenProblem('invalid', 'ApplicationToken is not a GUID'));
  }
  const hash = await appTokenHash(appToken.trim().toLowerCase());
  if (!constantTimeEqual(hash, credentials.applicationTokenHash)) {
    throw new EarlyResponse(applicationTokenProblem('invalid', 'ApplicationToken not found'));
  }
  if (!credentials.applicationTokenActive) {
    throw new EarlyResponse(applicationTokenProblem('invalid', 'ApplicationToken is inactive'));
  }
  // Only once the caller is known to be this client does a request count against its budget.
  await spendRequestToken(env, credentials.clientId, credentials.rateLimitPerSecond);
  return { clientId: credentials.clientId, accessToken, credentials };
}

/**
 * Signatures this isolate has already verified: an integrator signs its access token, so every
 * money-moving call with that token carries the same DigitalSignature. HMAC is deterministic, so
 * a hit for the same token, signature and CryptoToken is exactly as valid as the first check.
 */
const verifiedSignatures = new Map<string, string>();

/**
 * DigitalSignature = lowercase hex HMAC-SHA256(key = CryptoToken, message = the JWT as sent).
 * A client without an active CryptoToken cannot sign at all, so that answer (403) comes first.
 */
export async function requireDigitalSignature(request: Request, principal: Principal): Promise<void> {
  const cryptoToken = principal.credentials.cryptoToken;
  if (cryptoToken === null) {
    throw new ProblemError('CRYPTO_TOKEN_NOT_CONFIGURED', 'Ask the operator to issue a CryptoToken');
  }
  const signature = request.headers.get('digitalsignature');
  if (signature === null || signature.trim() === '') {
    throw new ProblemError('DIGITAL_SIGNATURE_REQUIRED', 'Send the DigitalSignature header');
  }
  const seen = `${principal.accessToken} ${signature.trim()}`;
  if (verifiedSignatures.get(seen) === cryptoToken) return;
  const provided = fromHex(signature.trim());
  const valid =
    provided !== undefined &&
    provided.length === 32 &&
    (await crypto.subtle.verify('HMAC', await hmacKey(cryptoToken), provided, utf8(principal.accessToken)));
  if (!valid) {
    throw new ProblemError(
      'DIGITAL_SIGNATURE_INVALID',
      'DigitalSignature does not match: it is the lowercase hex HMAC-SHA256 of the access token (the JWT exactly as sent in Authorization, ' +
        'without "Bearer "), keyed by your CryptoToken',
    );
  }
  if (verifiedSignatures.size >= MAX_VERIFIED_TOKENS) verifiedSignatures.clear();
  verifiedSignatures.set(seen, cryptoToken);
}
