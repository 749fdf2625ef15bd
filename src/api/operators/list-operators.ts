/** GET /admin/operators (docs/contract.md, Operators and the audit trail): every operator, without tokens. */
import * as v from 'valibot';
import { listOperators as storedOperators } from '../../db/operators';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { example } from '../../openapi/examples';
import { inlineSchema } from '../../openapi/json-schema';
import { operator } from '../admin/shared';
import { route } from '../route-table';
import { OPERATOR, Operator, operatorView } from './shared';

async function handleListOperators({ env }: Input): Promise<Response> {
  return json({ items: (await storedOperators(env)).map(operatorView) });
}

export const listOperators = route(
  operator({
    role: 'VIEWER',
    method: 'get',
    path: '/admin/operators',
    operationId: 'listOperators',
    summary: 'List operators',
    description: 'Oldest first; tokens never appear.',
    success: {
      '200': {
        description: 'Every operator.',
        schema: inlineSchema(v.object({ items: v.array(Operator) })),
        examples: { operators: example('Operators', { items: [OPERATOR] }) },
      },
    },
  }),
  handleListOperators,
);
