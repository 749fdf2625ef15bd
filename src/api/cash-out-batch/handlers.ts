/** Batch Cash-Out endpoints (docs/contract.md, Batch Cash-Out). */

import { ledgerOf } from '../../../durable-objects/stubs';
import { centsFromAmount } from '../../domain/money';
import { authenticate, requireDigitalSignature } from '../../http/auth';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { idempotencyKeyOf, requestFingerprint } from '../../http/idempotency';
import { json } from '../../http/json';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import { parseWith, validationError } from '../../http/validation';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { CreateCashOutBatchSchema } from './schemas';

/**
 * Any valid batch fits: the largest valid item is about 3.5 KB (a 2,048-character webhookUrl, 140
 * four-byte characters of name and of description, the rest), so 1,000 of them stay under 4 MiB.
 */
const MAX_BATCH_BODY_BYTES = 4 * 1024 * 1024;

/** `items.3.amount` (valibot's dotted path) as the contract writes it: `items[3].amount`. */
const indexed = (field: string) => field.replace(/^items\.(\d+)(?=\.|$)/, 'items[$1]');

function withIndexedFields(error: unknown): unknown {
  if (!(error instanceof ProblemError) || error.code !== 'VALIDATION_ERROR') return error;
  const errors = error.extras.errors as Record<string, string[]> | undefined;
  if (!errors) return error;
  const renamed = Object.fromEntries(Object.entries(errors).map(([field, list]) => [indexed(field), list]));
  return validationError(renamed, error.detail);
}

export async function handleCreateCashOutBatch(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  const principal = await authenticate(request, env);
  const idempotencyKey = idempotencyKeyOf(request);
  const raw = await readJsonObject(request, MAX_BATCH_BODY_BYTES);
  let body: ReturnType<typeof parseWith<typeof CreateCashOutBatchSchema>>;
  try {
    body = parseWith(CreateCashOutBatchSchema, raw);
  } catch (error) {
    throw withIndexedFields(error);
  }
  // Every item's webhook target is checked before anything is created: all problems at once.
  const refused: Record<string, string[]> = {};
  body.items.forEach((item, i) => {
    if (item.webhookUrl === undefined) return;
    try {
      requireAllowedWebhookUrl(env, item.webhookUrl, `items[${i}].webhookUrl`);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      Object.assign(refused, error.extras.errors as Record<string, string[]>);
    }
  });
  if (Object.keys(refused).length > 0) throw validationError(refused, 'One or more items are invalid');
  await requireDigitalSignature(request, principal);
  const result = await ledgerOf(env, principal.clientId).createCashOutBatch({
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    requestHash:
      idempotencyKey === undefined ? '' : await requestFingerprint('POST /cash-out/batch', '', raw),
    items: body.items.map((item) => ({
      amountCents: centsFromAmount(item.amount) as number,
      externalReference: item.externalReference,
      ...(item.description !== undefined && { description: item.description }),
      ...(item.webhookUrl !== undefined && { webhookUrl: item.webhookUrl }),
      payee: item.payee,
    })),
  });
  return operationResponse(result);
}

export async function handleGetCashOutBatch(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  const id = pathId(request, 'batchId');
  // Another client's batch answers exactly like one that does not exist.
  const [batch] =
    id === undefined ? [] : await ledgerOf(env, principal.clientId).cashOutBatches({ batchId: id });
  if (!batch) throw new ProblemError('CASHOUT_NOT_FOUND', 'No Cash-Out batch matches this id');
  return json(batch);
}
