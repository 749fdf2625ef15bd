/** DELETE /admin/operators/{operatorId} (docs/contract.md, Operators and the audit trail): its token stops at once. */
import * as v from 'valibot';
import { operatorById, deleteOperator as removeOperator } from '../../db/operators';
import { changeRecord, recorded } from '../../http/audit';
import { ProblemError } from '../../http/errors';
import type { Input } from '../../http/pipeline';
import { parameter } from '../../openapi/parameters';
import { noContent, operator } from '../admin/shared';
import { route } from '../route-table';
import { operatorView } from './shared';

const OPERATOR_ID = /^op_[0-9a-f]{16}$/;

async function handleDeleteOperator({ request, rc }: Input): Promise<Response> {
  const id = String(request.params.operatorId ?? '');
  const row = OPERATOR_ID.test(id) ? await operatorById(rc.env, id) : undefined;
  if (!row) throw new ProblemError('NOT_FOUND', 'No operator has this operatorId');
  const audit = changeRecord(rc, 'deleteOperator', `operator:${id}`, { before: operatorView(row) });
  // Tokens are read from D1 on every request, so this is the last request the token opens. A
  // concurrent delete of the same operator finds it gone: the operator is removed either way.
  await removeOperator(rc.env, id, audit);
  recorded(rc);
  return new Response(null, { status: 204 });
}

export const deleteOperator = route(
  operator({
    role: 'ADMIN',
    method: 'delete',
    path: '/admin/operators/{operatorId}',
    operationId: 'deleteOperator',
    summary: 'Remove an operator',
    description: 'Its token stops working on the next request; the trail keeps what it did.',
    parameters: [
      parameter('operatorId', 'path', v.pipe(v.string(), v.regex(OPERATOR_ID)), 'The operatorId.'),
    ],
    success: noContent,
    errors: ['NOT_FOUND'],
  }),
  handleDeleteOperator,
);
