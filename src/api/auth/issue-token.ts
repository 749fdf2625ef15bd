/** POST /auth/token (OpenAPI issueToken; docs/contract.md, Authentication): client credentials for a JWT. */
import * as v from 'valibot';
import { loadCredentials } from '../../db/credentials';
import { reserveLoginAttempt } from '../../http/failed-logins';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { spendRequestToken } from '../../http/rate-limit';
import { example } from '../../openapi/examples';
import { named } from '../../schemas/named';
import { signAccessToken, TOKEN_LIFETIME_SECONDS } from '../../security/jwt';
import { constantTimeEqual, sha256Hex } from '../../security/secrets';
import { route } from '../route-table';

/** POST /auth/token body (OpenAPI issueToken). The GUID shape of clientSecret is checked as a credential. */
const TokenRequestSchema = named(
  'TokenRequest',
  v.strictObject({
    clientId: v.pipe(v.string('clientId must be a string'), v.minLength(1, 'clientId is required')),
    clientSecret: v.pipe(
      v.string('clientSecret must be a string'),
      v.minLength(1, 'clientSecret is required'),
    ),
  }),
);

const TokenIssued = named(
  'TokenIssued',
  v.object({
    accessToken: v.pipe(v.string(), v.description('JWT (HS256); claims sub = clientId, iat, exp, jti.')),
    tokenType: v.literal('Bearer'),
    expiresIn: v.pipe(v.number(), v.integer(), v.description('Lifetime in seconds.'), v.examples([3600])),
  }),
);

const LoginFailure = named(
  'LoginFailure',
  v.pipe(
    v.object({ message: v.pipe(v.string(), v.examples(['Invalid client credentials'])) }),
    v.description('Plain object, not Problem Details: the same message whichever credential is wrong.'),
  ),
);

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The same answer whichever credential is wrong, so it reveals nothing. */
const INVALID = { message: 'Invalid client credentials' };

async function handleIssueToken({
  request,
  env,
  body,
}: Input<{ body: typeof TokenRequestSchema }>): Promise<Response> {
  // A source that has failed too often is refused before any credential is looked at; otherwise the
  // attempt counts as a failure before the first await, so concurrent wrong secrets are all counted.
  const attempt = reserveLoginAttempt(request);
  const failed = () => json(INVALID, 401);
  if (!GUID.test(body.clientSecret) || !GUID.test(body.clientId)) return failed();
  const credentials = await loadCredentials(env, body.clientId.toLowerCase());
  const presented = await sha256Hex(body.clientSecret.toLowerCase());
  if (!credentials || !constantTimeEqual(presented, credentials.clientSecretHash)) return failed();
  attempt.succeeded();
  // Wrong secrets count against their source, never against the client whose id they name (anyone
  // who has seen the id could lock it out); a sign-in that proves the secret is the client's request.
  await spendRequestToken(env, credentials.clientId, credentials.rateLimitPerSecond);
  const accessToken = await signAccessToken(credentials.clientId, Date.now(), env.JWT_SECRET);
  return json({ accessToken, tokenType: 'Bearer', expiresIn: TOKEN_LIFETIME_SECONDS });
}

export const issueToken = route(
  {
    method: 'post',
    path: '/auth/token',
    operationId: 'issueToken',
    summary: 'Obtain a JWT',
    description:
      'Exchanges `clientId` and `clientSecret` for an access token valid 3600 s. Send it as ' +
      '`Authorization: Bearer <JWT>` with the `ApplicationToken` header on every other call.',
    tag: 'Authentication',
    auth: 'none',
    body: {
      schema: TokenRequestSchema,
      examples: {
        credentials: example('Client credentials', {
          clientId: '3f9a2c1b-7d4e-4f8a-9b6c-1e2d3c4b5a69',
          clientSecret: '0d1c2b3a-4f5e-4a6b-8c7d-9e0f1a2b3c4d',
        }),
      },
    },
    success: {
      '200': {
        description: 'The access token.',
        schema: TokenIssued,
        examples: {
          token: example('Token', {
            accessToken: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIzZjlhMmMxYiJ9.c2lnbmF0dXJl',
            tokenType: 'Bearer',
            expiresIn: 3600,
          }),
        },
      },
      '401': {
        description:
          'Wrong credentials (or a `clientSecret` that is not a GUID): a plain `{message}`, not Problem Details, the same whichever credential is wrong.',
        schema: LoginFailure,
        examples: { invalid: example('Invalid credentials', { message: 'Invalid client credentials' }) },
      },
    },
    // Failed attempts are limited per source (src/http/failed-logins.ts); a correct one spends the
    // client's request budget like any of its requests.
    errors: ['VALIDATION_ERROR', 'RATE_LIMITED'],
  },
  handleIssueToken,
);
