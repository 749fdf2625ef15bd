/**
 * Cash-Out endpoints (OpenAPI createCashOut and the Cash-Out reads; docs/contract.md, Cash-Out lifecycle).
 */

import { ledgerOf } from '../../../durable-objects/stubs';
import { centsFromAmount } from '../../domain/money';
import { authenticate, requireDigitalSignature } from '../../http/auth';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { idempotencyKeyOf, requestFingerprint } from '../../http/idempotency';
import { operationResponse } from '../../http/respond';
import { getHandler, listHandler, summaryHandler } from '../../http/transaction-reads';
import { parseWith } from '../../http/validation';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
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
    // Only a key's replay compares request hashes: without one there is nothing to hash.
    requestHash: idempotencyKey === undefined ? '' : await requestFingerprint('POST /cash-out', '', raw),
    amountCents: centsFromAmount(body.amount) as number,
    externalReference: body.externalReference,
    ...(body.description !== undefined && { description: body.description }),
    ...(body.webhookUrl !== undefined && { webhookUrl: body.webhookUrl }),
    payee: body.payee,
  });
  return operationResponse(result);
}

export const handleGetCashOut = getHandler('cash-out');

export const handleListCashOuts = listHandler('cash-out');

export const handleCashOutSummary = summaryHandler('cash-out');
