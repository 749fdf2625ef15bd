/**
 * Sandbox API (decisions §4, staging only): the payment network's side of things, scoped to the
 * authenticated client. Settlement goes through the same ClientLedger path a bank notification
 * would take.
 */
import { SandboxCashInReturnSchema, SandboxPaySchema } from '../../schemas/sandbox';
import { authenticate } from '../auth';
import { readJsonObject, readOptionalJsonObject } from '../body';
import { type ApiRequest, ledgerOf, type RequestContext } from '../context';
import { ProblemError } from '../errors';
import { operationResponse } from '../respond';
import { requireStaging } from '../staging';
import { parseWith } from '../validation';
import { pathId } from './cash-in';

function cashInId(request: ApiRequest): string {
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHIN_NOT_FOUND', 'No Cash-In matches this id');
  return id;
}

export async function handleSandboxPay(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireStaging(request, env);
  const principal = await authenticate(request, env);
  const body = parseWith(SandboxPaySchema, await readOptionalJsonObject(request));
  return operationResponse(
    await ledgerOf(env, principal.clientId).settleCashIn({
      id: cashInId(request),
      source: 'sandbox',
      ...(body.payer && { payer: body.payer }),
      ...(body.deferEndToEndId && { deferEndToEndId: true }),
    }),
  );
}

export async function handleSandboxCashInReturn(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  requireStaging(request, env);
  const principal = await authenticate(request, env);
  const body = parseWith(SandboxCashInReturnSchema, await readJsonObject(request));
  return operationResponse(
    await ledgerOf(env, principal.clientId).returnCashIn(cashInId(request), body.reason),
  );
}

export async function handleSandboxExpire(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireStaging(request, env);
  const principal = await authenticate(request, env);
  return operationResponse(await ledgerOf(env, principal.clientId).expireCashInNow(cashInId(request)));
}
