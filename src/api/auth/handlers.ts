/** POST /auth/token (OpenAPI issueToken; docs/contract.md, Authentication). */

import { loadCredentials } from '../../db/credentials';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { checkLoginSource, recordLoginFailure } from '../../http/failed-logins';
import { json } from '../../http/json';
import { spendRequestToken } from '../../http/rate-limit';
import { parseWith } from '../../http/validation';
import { signAccessToken, TOKEN_LIFETIME_SECONDS } from '../../security/jwt';
import { constantTimeEqual, sha256Hex } from '../../security/secrets';
import { TokenRequestSchema } from './schemas';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The same answer whichever credential is wrong, so it reveals nothing. */
const INVALID = { message: 'Invalid client credentials' };

export async function handleIssueToken(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const body = parseWith(TokenRequestSchema, await readJsonObject(request));
  // A source that has failed too often is refused before any credential is looked at.
  checkLoginSource(request);
  const failed = () => {
    recordLoginFailure(request);
    return json(INVALID, 401);
  };
  if (!GUID.test(body.clientSecret) || !GUID.test(body.clientId)) return failed();
  const credentials = await loadCredentials(env, body.clientId.toLowerCase());
  const presented = await sha256Hex(body.clientSecret.toLowerCase());
  if (!credentials || !constantTimeEqual(presented, credentials.clientSecretHash)) return failed();
  // Wrong secrets count against their source, never against the client whose id they name (anyone
  // who has seen the id could lock it out); a sign-in that proves the secret is the client's request.
  await spendRequestToken(env, credentials.clientId, credentials.rateLimitPerSecond);
  const accessToken = await signAccessToken(credentials.clientId, Date.now(), env.JWT_SECRET);
  return json({ accessToken, tokenType: 'Bearer', expiresIn: TOKEN_LIFETIME_SECONDS });
}
