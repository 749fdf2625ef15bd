/** Operator approval of PENDING Cash-Outs (docs/contract.md, Operator API). */

import { ledgerOf } from '../../../durable-objects/stubs';
import { findClient } from '../../db/clients';
import { requireOperator } from '../../http/admin-auth';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';

async function target(request: ApiRequest, env: Env) {
  requireOperator(request, env);
  const clientId = String(request.params.clientId ?? '');
  const client = /^[0-9a-f-]{36}$/.test(clientId) ? await findClient(env, clientId) : undefined;
  if (!client) throw new ProblemError('CLIENT_NOT_FOUND', 'No client with this id');
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHOUT_NOT_FOUND', 'No Cash-Out matches this id');
  return { ledger: ledgerOf(env, client.id), id };
}

export async function handleApproveCashOut(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const { ledger, id } = await target(request, env);
  return operationResponse(await ledger.approveCashOut(id));
}

export async function handleRejectCashOut(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const { ledger, id } = await target(request, env);
  return operationResponse(await ledger.rejectCashOut(id));
}
