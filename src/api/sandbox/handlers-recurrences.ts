/**
 * Sandbox handlers of Pix Automático (docs/contract.md, Pix Automático; staging only): the payer's
 * bank approves, rejects or cancels a recurrence of the sandbox partner.
 */
import { ledgerOf } from '../../../durable-objects/stubs';
import { centsFromAmount } from '../../domain/money';
import { authenticate } from '../../http/auth';
import { readOptionalJsonObject } from '../../http/body';
import { ProblemError } from '../../http/errors';
import type { ApiRequest, RequestContext } from '../../http/request-context';
import { operationResponse } from '../../http/respond';
import { requireStaging } from '../../http/staging';
import { pathId } from '../../http/transaction-reads';
import { parseWith } from '../../http/validation';
import { SandboxApproveRecurrenceSchema } from './openapi-recurrences';

function recurrenceId(request: ApiRequest): string {
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('RECURRENCE_NOT_FOUND', 'No recurrence matches this id');
  return id;
}

export async function handleSandboxApproveRecurrence(request: ApiRequest, { env }: RequestContext) {
  requireStaging(request, env);
  const principal = await authenticate(request, env);
  const body = parseWith(SandboxApproveRecurrenceSchema, await readOptionalJsonObject(request));
  const id = recurrenceId(request);
  const max =
    body.payerMaximumAmount === undefined ? undefined : (centsFromAmount(body.payerMaximumAmount) as number);
  return operationResponse(
    await ledgerOf(env, principal.clientId).recurrence({
      op: 'approve',
      id,
      ...(max !== undefined && { payerMaximumAmountCents: max }),
    }),
  );
}

export async function handleSandboxRejectRecurrence(request: ApiRequest, { env }: RequestContext) {
  requireStaging(request, env);
  const principal = await authenticate(request, env);
  const id = recurrenceId(request);
  return operationResponse(await ledgerOf(env, principal.clientId).recurrence({ op: 'reject', id }));
}

export async function handleSandboxCancelRecurrence(request: ApiRequest, { env }: RequestContext) {
  requireStaging(request, env);
  const principal = await authenticate(request, env);
  const id = recurrenceId(request);
  return operationResponse(
    await ledgerOf(env, principal.clientId).recurrence({ op: 'cancel', id, by: 'PAYER' }),
  );
}

function cashInId(request: ApiRequest): string {
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHIN_NOT_FOUND', 'No Cash-In matches this id');
  return id;
}

export async function handleSandboxFailChargeAttempt(request: ApiRequest, { env }: RequestContext) {
  requireStaging(request, env);
  const principal = await authenticate(request, env);
  const cashIn = cashInId(request);
  return operationResponse(
    await ledgerOf(env, principal.clientId).recurrence({ op: 'fail-attempt', cashInId: cashIn }),
  );
}

export async function handleSandboxPayerCancelCharge(request: ApiRequest, { env }: RequestContext) {
  requireStaging(request, env);
  const principal = await authenticate(request, env);
  const cashIn = cashInId(request);
  return operationResponse(
    await ledgerOf(env, principal.clientId).recurrence({ op: 'payer-cancel-charge', cashInId: cashIn }),
  );
}
