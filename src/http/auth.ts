/**
 * Request authentication in the order of spec §5: JWT, then ApplicationToken; the body is
 * validated by the route before `requireDigitalSignature` runs. Each failure has its own
 * documented form.
 */
import { type ClientCredentials, loadCredentials } from '../security/credentials';
import { fromHex, utf8 } from '../security/encoding';
import { verifyAccessToken } from '../security/jwt';
import { constantTimeEqual, hmacKey, sha256Hex } from '../security/secrets';
import { ProblemError } from './errors';
import { applicationTokenProblem, bearerChallenge } from './problem';

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

export async function authenticate(request: Request, env: Env): Promise<Principal> {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer +(\S+)\s*$/i.exec(header) : null;
  if (!match) throw new EarlyResponse(bearerChallenge());
  const accessToken = match[1] as string;
  const verified = await verifyAccessToken(accessToken, Date.now(), env.JWT_SECRET);
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
  const hash = await sha256Hex(appToken.trim().toLowerCase());
  if (!constantTimeEqual(hash, credentials.applicationTokenHash)) {
    throw new EarlyResponse(applicationTokenProblem('invalid', 'ApplicationToken not found'));
  }
  if (!credentials.applicationTokenActive) {
    throw new EarlyResponse(applicationTokenProblem('invalid', 'ApplicationToken is inactive'));
  }
  return { clientId: credentials.clientId, accessToken, credentials };
}

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
  const provided = fromHex(signature.trim());
  const valid =
    provided !== undefined &&
    provided.length === 32 &&
    (await crypto.subtle.verify('HMAC', await hmacKey(cryptoToken), provided, utf8(principal.accessToken)));
  if (!valid) throw new ProblemError('DIGITAL_SIGNATURE_INVALID', 'DigitalSignature does not match');
}
