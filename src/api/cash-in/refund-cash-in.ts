/**
 * POST /cash-in/{id}/refund (docs/contract.md, Cash-In lifecycle): the whole amount back to the
 * payer, by a devolution the network settles later.
 */
import * as v from 'valibot';
import { ledgerOf } from '../../../durable-objects/stubs';
import { ProblemError } from '../../http/errors';
import { requestFingerprint } from '../../http/idempotency';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import { example, type Out } from '../../openapi/examples';
import { cashInIdParameter } from '../../openapi/parameters';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { RefundAccepted } from './schemas';
import { TAG } from './shared';

/** POST /cash-in/{id}/refund body (OpenAPI refundCashIn). */
const RefundSchema = named(
  'Refund',
  v.strictObject({
    reason: v.picklist(
      ['FRAUD', 'DUPLICATED_PAYMENT', 'CUSTOMER_REQUEST', 'MERCHANT_ERROR'],
      'reason must be FRAUD, DUPLICATED_PAYMENT, CUSTOMER_REQUEST or MERCHANT_ERROR',
    ),
    description: v.optional(
      v.pipe(
        v.string('description must be a string'),
        v.maxLength(140, 'description must have at most 140 characters'),
      ),
    ),
  }),
  {
    reason: 'Why the money goes back; echoed as the Cash-In `reason` once REFUNDED.',
    description: 'Internal audit note; not sent to the payer.',
  },
);

const refundAccepted: Out<typeof RefundAccepted> = {
  transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
  internalCode: 'K7Q2M9X',
  externalReference: 'pedido-1',
  endToEndId: 'D3188082620261121140112345678901',
  status: 'PROCESSING',
  amount: 150.25,
  requestedAt: '2026-11-21T11:01:10.950-03:00',
  message: 'Refund sent to the PIX network; CASHIN_REFUNDED follows when the devolution settles',
};

async function handleRefundCashIn({
  request,
  env,
  principal,
  idempotencyKey,
  raw,
  body,
}: Input<{ principal: true; idempotent: true; body: typeof RefundSchema }>): Promise<Response> {
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

export const refundCashIn = route(
  {
    method: 'post',
    path: '/cash-in/{id}/refund',
    operationId: 'refundCashIn',
    summary: 'Refund a paid Cash-In',
    description:
      'Full refund only. Answers 202 with the devolution `endToEndId` (starts with `D`) and ' +
      'status PROCESSING; the Cash-In stays PAID until the devolution settles, then becomes REFUNDED ' +
      'and `CASHIN_REFUNDED` is sent. A second refund meanwhile answers 422 REFUND_NOT_ALLOWED. If the ' +
      'network fails the devolution, `CASHIN_REFUND_FAILED` is sent and the Cash-In is PAID again with ' +
      '`refundFailure`; the idempotency key of the failed refund is forgotten, so the same key starts a ' +
      'new attempt.',
    tag: TAG,
    auth: 'signed',
    idempotent: true,
    parameters: [cashInIdParameter],
    body: {
      schema: RefundSchema,
      examples: {
        refund: example('Customer asked for it', { reason: 'CUSTOMER_REQUEST', description: 'Ticket 4711' }),
      },
    },
    success: {
      '202': {
        description: 'Accepted: the devolution was sent to the PIX network.',
        schema: RefundAccepted,
        examples: { accepted: example('Refund in progress', refundAccepted) },
      },
    },
    errors: ['VALIDATION_ERROR', 'CASHIN_NOT_FOUND', 'REFUND_NOT_ALLOWED', 'MISSING_E2E', 'RULE_VIOLATION'],
  },
  handleRefundCashIn,
);
