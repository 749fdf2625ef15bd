/** Cash-Out endpoints (spec §4.8–4.11). */

import { ledgerOf } from '../../../durable-objects/stubs';
import { centsFromAmount } from '../../domain/money';
import { summaryBody } from '../../domain/summary';
import { authenticate, requireDigitalSignature } from '../../http/auth';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { idempotencyKeyOf, requestFingerprint } from '../../http/idempotency';
import { json } from '../../http/json';
import { pageBody, pageInput, parseListQuery, parsePeriodQuery } from '../../http/list-query';
import { operationResponse } from '../../http/respond';
import { parseWith } from '../../http/validation';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { pathId } from '../cash-in/handlers';
import { CreateCashOutSchema } from './schemas';

export async function handleCreateCashOut(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  const idempotencyKey = idempotencyKeyOf(request);
  const raw = await readJsonObject(request);
  const body = parseWith(CreateCashOutSchema, raw);
  if (body.webhookUrl !== undefined) requireAllowedWebhookUrl(env, body.webhookUrl);
  await requireDigitalSignature(request, principal);
  const result = await ledgerOf(env, principal.clientId).createCashOut({
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    requestHash: await requestFingerprint('POST /cash-out', '', raw),
    amountCents: centsFromAmount(body.amount) as number,
    externalReference: body.externalReference,
    ...(body.description !== undefined && { description: body.description }),
    ...(body.webhookUrl !== undefined && { webhookUrl: body.webhookUrl }),
    payee: body.payee,
  });
  return operationResponse(result);
}

export async function handleGetCashOut(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  const id = pathId(request);
  const cashOut = id === undefined ? null : await ledgerOf(env, principal.clientId).getCashOut(id);
  if (!cashOut) throw new ProblemError('CASHOUT_NOT_FOUND', 'No Cash-Out matches this id');
  return json(cashOut);
}

export async function handleListCashOuts(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  const query = await parseListQuery(request, 'cash-out', principal.clientId, env.JWT_SECRET);
  const page = await ledgerOf(env, principal.clientId).listCashOuts(pageInput(query));
  return json(await pageBody(page, query, principal.clientId, env.JWT_SECRET));
}

export async function handleCashOutSummary(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  const period = parsePeriodQuery(request);
  const { byStatus, settlement } = await ledgerOf(env, principal.clientId).summarizeCashOuts(
    period.from,
    period.to,
  );
  return json(summaryBody(period, byStatus, settlement, (status) => status.toLowerCase()));
}
