import * as v from 'valibot';
import { named } from '../../schemas/named';

/** POST /auth/token body (OpenAPI issueToken). The GUID shape of clientSecret is checked as a credential. */
export const TokenRequestSchema = named(
  'TokenRequest',
  v.strictObject({
    clientId: v.pipe(v.string('clientId must be a string'), v.minLength(1, 'clientId is required')),
    clientSecret: v.pipe(
      v.string('clientSecret must be a string'),
      v.minLength(1, 'clientSecret is required'),
    ),
  }),
);
