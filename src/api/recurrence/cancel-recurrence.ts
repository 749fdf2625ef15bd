/** POST /recurrences/{id}/cancel (docs/contract.md, Pix Automático): the client ends a recurrence. */
import { ledgerOf } from '../../../durable-objects/stubs';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { example } from '../../openapi/examples';
import { route } from '../route-table';
import { recurrencePathId } from './get-recurrence';
import { Recurrence, recurrenceCancelled, recurrenceIdParameter, TAG } from './shared';

async function handleCancelRecurrence({
  request,
  env,
  principal,
}: Input<{ principal: true }>): Promise<Response> {
  const id = recurrencePathId(request);
  return operationResponse(
    await ledgerOf(env, principal.clientId).recurrence({ op: 'cancel', id, by: 'CLIENT' }),
  );
}

export const cancelRecurrence = route(
  {
    method: 'post',
    path: '/recurrences/{id}/cancel',
    operationId: 'cancelRecurrence',
    summary: 'Cancel a recurrence',
    description:
      'From WAITING_AUTHORIZATION or APPROVED (else 422 RULE_VIOLATION): CANCELLED with ' +
      '`cancelledBy` CLIENT; `RECURRENCE_CANCELLED` is sent. No further cycle may be charged.',
    tag: TAG,
    auth: 'client',
    parameters: [recurrenceIdParameter],
    success: {
      '200': {
        description: 'The recurrence as GET returns it, CANCELLED.',
        schema: Recurrence,
        examples: {
          cancelled: example('Cancelled by the client', { ...recurrenceCancelled, cancelledBy: 'CLIENT' }),
        },
      },
    },
    errors: ['RECURRENCE_NOT_FOUND', 'RULE_VIOLATION'],
  },
  handleCancelRecurrence,
);
