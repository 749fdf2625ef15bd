/**
 * Sandbox handlers of Pix Automático (docs/contract.md, Pix Automático; staging only): the payer's
 * bank approves, rejects or cancels a recurrence of the sandbox partner.
 */
import { ledgerOf } from '../../../durable-objects/stubs';
import { centsFromAmount } from '../../domain/money';
import { authenticate } from '../../http/auth';
import { readOptionalJsonObject } from '../../http/body';
import { ProblemError } from '../../http/errors';
import { requestFingerprint } from '../../http/idempotency';
import type { ApiRequest, RequestContext } from '../../http/request-context';
import { operationResponse } from '../../http/respond';
import { requireStaging } from '../../http/staging';
import { pathId } from '../../http/transaction-reads';
import { parseWith } from '../../http/validation';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { chargeLedgerInput } from '../recurrence/shared';
import { SandboxApproveRecurrenceSchema, SandboxChargeRecurrenceSchema } from './openapi-recurrences';

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

/** POST /sandbox/recurrences/{id}/charges: the client's charge, its window checked as of `asOf`. */
export async function handleSandboxChargeRecurrence(request: ApiRequest, { env }: RequestContext) {
  requireStaging(request, env);
  const principal = await authenticate(request, env);
  const raw = await readOptionalJsonObject(request);
  const body = parseWith(SandboxChargeRecurrenceSchema, raw);
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
