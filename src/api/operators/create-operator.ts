/** POST /admin/operators (docs/contract.md, Operators and the audit trail): a person, a role, a token shown once. */
import * as v from 'valibot';
import { insertOperator } from '../../db/operators';
import { changeRecord, recorded } from '../../http/audit';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { example } from '../../openapi/examples';
import { named } from '../../schemas/named';
import { toBase64Url } from '../../security/encoding';
import { randomBytes, sha256Hex } from '../../security/secrets';
import { operator } from '../admin/shared';
import { route } from '../route-table';
import { CreateOperatorSchema } from './schemas';
import { OPERATOR, Operator, operatorView } from './shared';

const CreatedOperator = named(
  'CreatedOperator',
  v.object({ ...Operator.entries, token: v.pipe(v.string(), v.regex(/^opk_[A-Za-z0-9_-]{43}$/)) }),
  { token: '`opk_` + 32 random bytes, base64url. Shown only in this answer; store it now.' },
);

async function handleCreateOperator({
  rc,
  body,
}: Input<{ body: typeof CreateOperatorSchema }>): Promise<Response> {
  const token = `opk_${toBase64Url(randomBytes(32))}`;
  const row = {
    id: `op_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`,
    email: body.email,
    role: body.role,
    tokenHash: await sha256Hex(token),
    createdAt: Date.now(),
  };
  const view = operatorView(row);
  const audit = changeRecord(rc, 'createOperator', `operator:${row.id}`, { after: view });
  if (!(await insertOperator(rc.env, row, audit)))
    throw new ProblemError('RULE_VIOLATION', `${body.email} is already an operator`);
  recorded(rc);
  return json({ ...view, token }, 201);
}

export const createOperator = route(
  operator({
    role: 'ADMIN',
    method: 'post',
    path: '/admin/operators',
    operationId: 'createOperator',
    summary: 'Add an operator',
    description: 'The token appears only in this answer and is stored as a digest.',
    body: {
      schema: CreateOperatorSchema,
      examples: { operator: example('An operator', { email: OPERATOR.email, role: OPERATOR.role }) },
    },
    success: {
      '201': {
        description: 'The operator and its token.',
        schema: CreatedOperator,
        examples: {
          created: example('Created', {
            ...OPERATOR,
            token: 'opk_Xk3v9QwR2mT8yZ1aB4cD6eF7gH0iJ5kL2nP9qS3uV8w',
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'RULE_VIOLATION'],
  }),
  handleCreateOperator,
);
