/** GET /recurrences/{id} (docs/contract.md, Pix Automático). */
import { ledgerOf } from '../../../durable-objects/stubs';
import { ProblemError } from '../../http/errors';
import type { Input } from '../../http/pipeline';
import type { ApiRequest } from '../../http/request-context';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import { route } from '../route-table';
import { Recurrence, recurrenceExamples, recurrenceIdParameter, TAG } from './shared';

/** The path id, or the not-found answer every unknown (or another client's) id gets. */
export function recurrencePathId(request: ApiRequest): string {
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('RECURRENCE_NOT_FOUND', 'No recurrence matches this id');
  return id;
}

async function handleGetRecurrence({
  request,
  env,
  principal,
}: Input<{ principal: true }>): Promise<Response> {
  const id = recurrencePathId(request);
  return operationResponse(await ledgerOf(env, principal.clientId).recurrence({ op: 'get', id }));
}

export const getRecurrence = route(
  {
    method: 'get',
    path: '/recurrences/{id}',
    operationId: 'getRecurrence',
    summary: 'Get a recurrence',
    description: 'The recurrence now: its status, who cancelled it, and while APPROVED its next due date.',
    tag: TAG,
    auth: 'client',
    parameters: [recurrenceIdParameter],
    success: { '200': { description: 'The recurrence.', schema: Recurrence, examples: recurrenceExamples } },
    errors: ['RECURRENCE_NOT_FOUND'],
  },
  handleGetRecurrence,
);
