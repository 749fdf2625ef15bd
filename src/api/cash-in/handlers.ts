/** Cash-In endpoints (docs/contract.md, Cash-In lifecycle). */

import { ledgerOf } from '../../../durable-objects/stubs';
import type { CashInCreated } from '../../domain/cash-in';
import { locationHost } from '../../domain/location';
import { centsFromAmount } from '../../domain/money';
import { qrPngBase64 } from '../../domain/qr-png';
import { authenticate, requireDigitalSignature } from '../../http/auth';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { idempotencyKeyOf, requestFingerprint } from '../../http/idempotency';
import { operationResponse } from '../../http/respond';
import { getHandler, listHandler, pathId, summaryHandler } from '../../http/transaction-reads';
import { parseWith } from '../../http/validation';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { CreateCashInSchema } from './schemas';
import { RefundSchema } from './schemas-refund';

export async function handleCreateCashIn(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  const idempotencyKey = idempotencyKeyOf(request);
  const raw = await readJsonObject(request);
  const body = parseWith(CreateCashInSchema, raw);
  if (body.webhookUrl !== undefined) requireAllowedWebhookUrl(env, body.webhookUrl);
  const url = new URL(request.url);
  const host = locationHost(env.PIX_LOCATION_HOST ?? '', url);
  // A random key, never the client id: anyone may read a QR code (domain/location.ts).
  const key = principal.credentials.locationKey;
  const result = await ledgerOf(env, principal.clientId).createCashIn({
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    requestHash: await requestFingerprint('POST /cash-in', '', raw),
    amountCents: centsFromAmount(body.amount) as number,
    externalReference: body.externalReference,
    expirationInMinutes: body.expirationInMinutes,
    ...(body.webhookUrl !== undefined && { webhookUrl: body.webhookUrl }),
    payer: body.payer,
    ...(body.openFinance !== undefined && { openFinanceRedirectUrl: body.openFinance.redirectUrl }),
    locationPrefix: `${host}/pix/qr/${key}`,
    paymentUrlPrefix: `${url.protocol}//${host}/open-finance/${key}`,
    locationKey: key,
  });
  // The QR image is derived from the stored payload, so a replay renders the very same image.
  return operationResponse(result, (created: CashInCreated) =>
    body.includeQrCodeImage && created.pixData
      ? {
          ...created,
          pixData: { ...created.pixData, qrCodeImageBase64: qrPngBase64(created.pixData.copyAndPaste) },
        }
      : created,
  );
}

export const handleGetCashIn = getHandler('cash-in');

export const handleListCashIns = listHandler('cash-in');

export const handleCashInSummary = summaryHandler('cash-in');

export async function handleRefundCashIn(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  const idempotencyKey = idempotencyKeyOf(request);
  const raw = await readJsonObject(request);
  const body = parseWith(RefundSchema, raw);
  await requireDigitalSignature(request, principal);
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHIN_NOT_FOUND', 'No Cash-In matches this id');
  const result = await ledgerOf(env, principal.clientId).refundCashIn({
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    requestHash: await requestFingerprint('POST /cash-in/refund', id, raw),
    id,
    reason: body.reason,
    description: body.description ?? null,
  });
  return operationResponse(result);
}

export async function handleCancelCashIn(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHIN_NOT_FOUND', 'No Cash-In matches this id');
  return operationResponse(await ledgerOf(env, principal.clientId).cancelCashIn(id));
}
