/**
 * Operator view of a client's webhook deliveries: what was sent where, how it went, what is
 * waiting; and a manual retry for FAILED or GIVEN_UP ones.
 */

import { ledgerOf } from '../../../durable-objects/stubs';
import { requireOperator } from '../../http/admin-auth';
import type { ApiRequest, RequestContext } from '../../http/context';
import { json } from '../../http/json';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import { parseWith } from '../../http/validation';
import { requireClient } from './handlers-clients';
import { DeliveryQuerySchema } from './schemas';

/** Query parameters given once each, as strings (repeats are a validation error). */
function queryObject(request: ApiRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(request.query)) out[name] = value;
  return out;
}

export async function handleListWebhookDeliveries(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  requireOperator(request, env);
  const client = await requireClient(request, env);
  const query = parseWith(DeliveryQuerySchema, queryObject(request));
  const page = await ledgerOf(env, client.id).listWebhookDeliveries({
    ...(query.status !== undefined && { status: query.status }),
    ...(query.aggregateId !== undefined && { aggregateId: query.aggregateId }),
    limit: query.limit,
    ...(query.cursor !== undefined && { before: query.cursor }),
  });
  return json(page);
}

export async function handleRetryWebhookDelivery(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  requireOperator(request, env);
  const client = await requireClient(request, env);
  const eventId = pathId(request, 'eventId') ?? '';
  return operationResponse(await ledgerOf(env, client.id).retryWebhookDelivery(eventId));
}
