/** POST /auth/token (OpenAPI issueToken; docs/contract.md, Authentication). */

import { loadCredentials } from '../../db/credentials';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
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
  if (!GUID.test(body.clientSecret) || !GUID.test(body.clientId)) return json(INVALID, 401);
  const credentials = await loadCredentials(env, body.clientId.toLowerCase());
  // Every attempt for an existing client spends its budget, right or wrong: no brute force of the
  // secret faster than the client's own rate.
  if (credentials) await spendRequestToken(env, credentials.clientId, credentials.rateLimitPerSecond);
  const presented = await sha256Hex(body.clientSecret.toLowerCase());
  if (!credentials || !constantTimeEqual(presented, credentials.clientSecretHash)) return json(INVALID, 401);
  const accessToken = await signAccessToken(credentials.clientId, Date.now(), env.JWT_SECRET);
  return json({ accessToken, tokenType: 'Bearer', expiresIn: TOKEN_LIFETIME_SECONDS });
}
