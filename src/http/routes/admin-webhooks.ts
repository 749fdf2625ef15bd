/**
 * Operator view of a client's webhook deliveries: what was sent where, how it went, what is
 * waiting; and a manual retry for FAILED or GIVEN_UP ones.
 */
import * as v from 'valibot';
import { DELIVERY_STATUSES } from '../../../durable-objects/ledger/webhook-deliveries';
import { requireOperator } from '../admin-auth';
import { type ApiRequest, ledgerOf, type RequestContext } from '../context';
import { json } from '../json';
import { operationResponse } from '../respond';
import { parseWith } from '../validation';
import { requireClient } from './admin-clients';
import { pathId } from './cash-in';

export const DeliveryQuerySchema = v.object({
  status: v.optional(v.picklist(DELIVERY_STATUSES, `status must be one of ${DELIVERY_STATUSES.join(', ')}`)),
  aggregateId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, 'limit must be an integer from 1 to 500'),
      v.transform(Number),
      v.minValue(1, 'limit must be an integer from 1 to 500'),
      v.maxValue(500, 'limit must be an integer from 1 to 500'),
    ),
    '50',
  ),
  cursor: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'cursor must be copied from nextCursor'), v.transform(Number)),
  ),
});

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
