/** POST /auth/token (docs/contract.md, Authentication): client credentials for a JWT. */
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { LoginFailure, TokenIssued } from '../admin/openapi-responses';
import { TokenRequestSchema } from './schemas';

export const authOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/auth/token',
    operationId: 'issueToken',
    summary: 'Obtain a JWT',
    description:
      'Exchanges `clientId` and `clientSecret` for an access token valid 3600 s. Send it as `Authorization: Bearer <JWT>` with the `ApplicationToken` header on every other call.',
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
];
