/** Bodies and queries of the operators and the audit trail (docs/contract.md, Operators and the audit trail). */
import * as v from 'valibot';
import { ROLES } from '../../domain/operators';
import { named } from '../../schemas/named';
import { bound, cursorQuery, limitQuery } from '../admin-books/schemas';

const roleMessage = `role must be one of ${ROLES.join(', ')}`;

/** POST /admin/operators. */
export const CreateOperatorSchema = named(
  'CreateOperator',
  v.strictObject(
    {
      email: v.pipe(
        v.string('email is required'),
        v.trim(),
        v.maxLength(254, 'email must have at most 254 characters'),
        v.email('email must be an email address'),
        v.transform((email) => email.toLowerCase()),
      ),
      role: v.picklist(ROLES, roleMessage),
    },
    'unknown field',
  ),
  {
    email: 'The person, as their sign-in (and Cloudflare Access) knows them; stored in lower case.',
    role: 'VIEWER reads; OPERATOR also changes clients and money; ADMIN also onboards clients, rotates their tokens and manages operators.',
  },
);

/** GET /admin/audit. */
export const AuditQuerySchema = v.strictObject(
  {
    from: v.optional(bound('from')),
    to: v.optional(bound('to')),
    actor: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1, 'actor must be an operatorId or an email'),
        v.maxLength(254, 'actor must be an operatorId or an email'),
      ),
    ),
    action: v.optional(
      v.pipe(v.string(), v.regex(/^[A-Za-z.]{1,64}$/, 'action must be an operationId such as patchClient')),
    ),
    limit: limitQuery,
    cursor: cursorQuery,
  },
  'unknown query parameter',
);
