/**
 * Sandbox handlers of Pix Automático (docs/contract.md, Pix Automático; staging only): the payer's
 * bank approves, rejects or cancels a recurrence of the sandbox partner.
 */
import { ledgerOf } from '../../../durable-objects/stubs';
import { centsFromAmount } from '../../domain/money';
import { ProblemError } from '../../http/errors';
import { requestFingerprint } from '../../http/idempotency';
import type { Input } from '../../http/pipeline';
import type { ApiRequest } from '../../http/request-context';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { chargeLedgerInput } from '../recurrence/shared';
import type { SandboxApproveRecurrenceSchema, SandboxChargeRecurrenceSchema } from './openapi-recurrences';

function recurrenceId(request: ApiRequest): string {
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('RECURRENCE_NOT_FOUND', 'No recurrence matches this id');
  return id;
}

export async function handleSandboxApproveRecurrence({
  request,
  env,
  principal,
  body,
}: Input<{ principal: true; body: typeof SandboxApproveRecurrenceSchema }>) {
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

export async function handleSandboxRejectRecurrence({ request, env, principal }: Input<{ principal: true }>) {
  const id = recurrenceId(request);
  return operationResponse(await ledgerOf(env, principal.clientId).recurrence({ op: 'reject', id }));
}

export async function handleSandboxCancelRecurrence({ request, env, principal }: Input<{ principal: true }>) {
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

export async function handleSandboxFailChargeAttempt({
  request,
  env,
  principal,
}: Input<{ principal: true }>) {
  const cashIn = cashInId(request);
  return operationResponse(
    await ledgerOf(env, principal.clientId).recurrence({ op: 'fail-attempt', cashInId: cashIn }),
  );
}

export async function handleSandboxPayerCancelCharge({
  request,
  env,
  principal,
}: Input<{ principal: true }>) {
  const cashIn = cashInId(request);
  return operationResponse(
    await ledgerOf(env, principal.clientId).recurrence({ op: 'payer-cancel-charge', cashInId: cashIn }),
  );
}

/** POST /sandbox/recurrences/{id}/charges: the client's charge, its window checked as of `asOf`. */
export async function handleSandboxChargeRecurrence({
  request,
  env,
  principal,
  raw,
  body,
}: Input<{ principal: true; body: typeof SandboxChargeRecurrenceSchema }>) {
  if (body.webhookUrl !== undefined) requireAllowedWebhookUrl(env, body.webhookUrl);
  const id = recurrenceId(request);
  const input = chargeLedgerInput(
    id,
    body,
    request.url,
    env.PIX_LOCATION_HOST ?? '',
    principal.credentials.locationKey,
  );
  return operationResponse(
    await ledgerOf(env, principal.clientId).recurrence({
      op: 'charge',
      input: {
        ...input,
        asOf: body.asOf,
        requestHash: await requestFingerprint('POST /sandbox/recurrences/{id}/charges', id, raw),
      },
    }),
  );
}
