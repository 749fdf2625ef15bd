/** POST /cash-in/{id}/cancel (docs/contract.md, Cash-In lifecycle): an unpaid charge withdrawn. */
import { ledgerOf } from '../../../durable-objects/stubs';
import { ProblemError } from '../../http/errors';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import { example } from '../../openapi/examples';
import { cashInIdParameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { CashIn, cashInAwaiting, TAG } from './shared';

async function handleCancelCashIn({
  request,
  env,
  principal,
}: Input<{ principal: true }>): Promise<Response> {
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHIN_NOT_FOUND', 'No Cash-In matches this id');
  return operationResponse(await ledgerOf(env, principal.clientId).cancelCashIn(id));
}

export const cancelCashIn = route(
  {
    method: 'post',
    path: '/cash-in/{id}/cancel',
    operationId: 'cancelCashIn',
    summary: 'Cancel an unpaid Cash-In',
    description:
      'Only from AWAITING_PAYMENT (else 422 RULE_VIOLATION). The Cash-In becomes CANCELLED with ' +
      '`cancelledAt`; `CASHIN_CANCELLED` is sent. With a real settlement partner the charge is first ' +
      'taken down there, so no payer can pay it afterwards; if the partner reports it already paid, the ' +
      'answer is 422 RULE_VIOLATION and the payment is recorded (the Cash-In becomes PAID).',
    tag: TAG,
    auth: 'client',
    parameters: [cashInIdParameter],
    success: {
      '200': {
        description: 'The Cash-In as GET returns it, CANCELLED.',
        schema: CashIn,
        examples: {
          cancelled: example('Cancelled', {
            ...cashInAwaiting,
            status: 'CANCELLED',
            cancelledAt: '2026-11-21T10:30:00.000-03:00',
          }),
        },
      },
    },
    errors: ['CASHIN_NOT_FOUND', 'RULE_VIOLATION'],
  },
  handleCancelCashIn,
);
