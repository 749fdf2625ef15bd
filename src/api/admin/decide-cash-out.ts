/**
 * POST /admin/clients/{clientId}/cash-out/{id}/approve and /reject (docs/contract.md, Operator API):
 * the operator's decision on a PENDING Cash-Out, one operation in two directions.
 */
import { ledgerOf } from '../../../durable-objects/stubs';
import { findClient } from '../../db/clients';
import { changeRecord, recorded } from '../../http/audit';
import { ProblemError } from '../../http/errors';
import type { Input } from '../../http/pipeline';
import type { ApiRequest, RequestContext } from '../../http/request-context';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import { example } from '../../openapi/examples';
import { cashOutIdParameter, clientIdParameter } from '../../openapi/parameters';
import * as cashOut from '../cash-out/shared';
import { route } from '../route-table';
import { operator } from './shared';

const decision = (action: 'approve' | 'reject') =>
  operator({
    role: 'OPERATOR',
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

async function target(request: ApiRequest, env: Env) {
  const clientId = String(request.params.clientId ?? '');
  const client = /^[0-9a-f-]{36}$/.test(clientId) ? await findClient(env, clientId) : undefined;
  if (!client) throw new ProblemError('CLIENT_NOT_FOUND', 'No client with this id');
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHOUT_NOT_FOUND', 'No Cash-Out matches this id');
  return { ledger: ledgerOf(env, client.id), id };
}

/** The decision and its audit record are one ClientLedger transaction; a refusal changes nothing. */
async function decide(
  request: ApiRequest,
  rc: RequestContext,
  action: 'approve' | 'reject',
): Promise<Response> {
  const { ledger, id } = await target(request, rc.env);
  const path = new URL(request.url).pathname;
  const after = { status: action === 'approve' ? 'PROCESSING' : 'CANCELLED' };
  const audit = changeRecord(rc, `${action}CashOut`, path, { before: { status: 'PENDING' }, after });
  const result = await ledger.decideCashOut(id, action === 'approve', audit);
  if (result.ok) recorded(rc);
  return operationResponse(result);
}

const handleApproveCashOut = ({ request, rc }: Input) => decide(request, rc, 'approve');
const handleRejectCashOut = ({ request, rc }: Input) => decide(request, rc, 'reject');

export const approveCashOut = route(decision('approve'), handleApproveCashOut);

export const rejectCashOut = route(decision('reject'), handleRejectCashOut);
