/**
 * Sandbox API (docs/contract.md, Sandbox; staging only): the payment network's side of things, scoped to the
 * authenticated client. Settlement goes through the same ClientLedger path a bank notification
 * would take.
 */

import { ledgerOf } from '../../../durable-objects/stubs';
import { centsFromAmount } from '../../domain/money';
import { accountNumberParam } from '../../http/account-number';
import { ProblemError } from '../../http/errors';
import type { Input } from '../../http/pipeline';
import type { ApiRequest } from '../../http/request-context';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import type {
  SandboxCashInReturnSchema,
  SandboxCashOutReturnSchema,
  SandboxDepositSchema,
  SandboxDisputeCloseSchema,
  SandboxDisputeSchema,
  SandboxPaySchema,
} from './schemas';

function cashInId(request: ApiRequest): string {
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHIN_NOT_FOUND', 'No Cash-In matches this id');
  return id;
}

export async function handleSandboxPay({
  request,
  env,
  principal,
  body,
}: Input<{ principal: true; body: typeof SandboxPaySchema }>): Promise<Response> {
  return operationResponse(
    await ledgerOf(env, principal.clientId).settleCashIn({
      id: cashInId(request),
      source: 'sandbox',
      ...(body.payer && { payer: body.payer }),
      ...(body.deferEndToEndId && { deferEndToEndId: true }),
    }),
  );
}

export async function handleSandboxCashInReturn({
  request,
  env,
  principal,
  body,
}: Input<{ principal: true; body: typeof SandboxCashInReturnSchema }>): Promise<Response> {
  return operationResponse(
    await ledgerOf(env, principal.clientId).returnCashIn(cashInId(request), body.reason),
  );
}

/** The payer's bank opens a MED infraction now: the blocked amount is held at once. */
export async function handleSandboxDispute({
  request,
  env,
  principal,
  body,
}: Input<{ principal: true; body: typeof SandboxDisputeSchema }>): Promise<Response> {
  const amountCents = body.amount === undefined ? undefined : (centsFromAmount(body.amount) as number);
  return operationResponse(
    await ledgerOf(env, principal.clientId).dispute({
      kind: 'sandbox-open',
      id: cashInId(request),
      ...(amountCents !== undefined && { amountCents }),
    }),
  );
}

export async function handleSandboxDisputeClose({
  request,
  env,
  principal,
  body,
}: Input<{ principal: true; body: typeof SandboxDisputeCloseSchema }>): Promise<Response> {
  return operationResponse(
    await ledgerOf(env, principal.clientId).dispute({
      kind: 'sandbox-close',
      id: cashInId(request),
      outcome: body.outcome,
    }),
  );
}

export async function handleSandboxExpire({
  request,
  env,
  principal,
}: Input<{ principal: true }>): Promise<Response> {
  return operationResponse(await ledgerOf(env, principal.clientId).expireCashInNow(cashInId(request)));
}

/**
 * Money arrives from outside on one of the client's own accounts (statement type TRANSFER_IN):
 * 201 `{account, entry, balance, available}` where `entry` is the item exactly as the statement
 * shows it. Another client's account answers like a nonexistent one: 404 ACCOUNT_NOT_FOUND.
 */
export async function handleSandboxDeposit({
  request,
  env,
  principal,
  body,
}: Input<{ principal: true; body: typeof SandboxDepositSchema }>): Promise<Response> {
  const number = accountNumberParam(request);
  return operationResponse(
    await ledgerOf(env, principal.clientId).deposit(number, centsFromAmount(body.amount) as number),
  );
}

export async function handleSandboxCashOutReturn({
  request,
  env,
  principal,
  body,
}: Input<{ principal: true; body: typeof SandboxCashOutReturnSchema }>): Promise<Response> {
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHOUT_NOT_FOUND', 'No Cash-Out matches this id');
  return operationResponse(await ledgerOf(env, principal.clientId).returnCashOut(id, body.reason));
}
