/**
 * POST /admin/clients/{clientId}/cash-out/{id}/approve and /reject (docs/contract.md, Operator API):
 * the operator's decision on a PENDING Cash-Out, one operation in two directions.
 */
import { ledgerOf } from '../../../durable-objects/stubs';
import { findClient } from '../../db/clients';
import { ProblemError } from '../../http/errors';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { cashOutIdParameter, clientIdParameter } from '../../openapi/parameters';
import * as cashOut from '../cash-out/shared';
import { route } from '../route-table';
import { operator } from './shared';

const decision = (action: 'approve' | 'reject'): OperationSpec =>
  operator({
    method: 'post',
    path: `/admin/clients/{clientId}/cash-out/{id}/${action}`,
    operationId: `${action}CashOut`,
    summary: action === 'approve' ? 'Approve a PENDING Cash-Out' : 'Reject a PENDING Cash-Out',
    description:
      action === 'approve'
        ? 'The Cash-Out goes back to PROCESSING and is executed.'
        : 'The Cash-Out ends CANCELLED with `failure.code` APPROVAL_REJECTED.',
    parameters: [clientIdParameter, cashOutIdParameter],
    success: {
      '200': {
        description: 'The Cash-Out as GET returns it.',
        schema: cashOut.CashOut,
        examples: {
          result: example(
            action === 'approve' ? 'Approved' : 'Rejected',
            action === 'approve'
              ? { ...cashOut.cashOutAccepted, amount: 12000, payee: cashOut.cashOutCompleted.payee }
              : {
                  ...cashOut.cashOutCancelled,
                  failure: {
                    code: 'APPROVAL_REJECTED',
                    message: 'The transfer was rejected during approval.',
                  },
                },
          ),
        },
      },
    },
    errors: ['CLIENT_NOT_FOUND', 'CASHOUT_NOT_FOUND', 'RULE_VIOLATION'],
  });

async function target({ request, env }: Input) {
  const clientId = String(request.params.clientId ?? '');
  const client = /^[0-9a-f-]{36}$/.test(clientId) ? await findClient(env, clientId) : undefined;
  if (!client) throw new ProblemError('CLIENT_NOT_FOUND', 'No client with this id');
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHOUT_NOT_FOUND', 'No Cash-Out matches this id');
  return { ledger: ledgerOf(env, client.id), id };
}

async function handleApproveCashOut(input: Input): Promise<Response> {
  const { ledger, id } = await target(input);
  return operationResponse(await ledger.approveCashOut(id));
}

async function handleRejectCashOut(input: Input): Promise<Response> {
  const { ledger, id } = await target(input);
  return operationResponse(await ledger.rejectCashOut(id));
}

export const approveCashOut = route(decision('approve'), handleApproveCashOut);

export const rejectCashOut = route(decision('reject'), handleRejectCashOut);
