import { ledgerOf } from '../../../durable-objects/stubs';
import { ProblemError } from '../../http/errors';
import { requestFingerprint } from '../../http/idempotency';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { validationError } from '../../http/validation';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { example, type In, type Out } from '../../openapi/examples';
import { cashOutInput } from '../cash-out/schemas';
import { TAG } from '../cash-out/shared';
import { route } from '../route-table';
import { CashOutBatchAccepted, CreateCashOutBatchSchema } from './schemas';

const createCashOutBatchRequest: In<typeof CreateCashOutBatchSchema> = {
  items: [
    {
      amount: 150,
      externalReference: 'premio-jogo-42-1',
      description: 'Prêmio',
      payee: {
        name: 'Ana Beneficiária',
        document: '12345678909',
        destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com' },
      },
    },
    {
      amount: 75.5,
      externalReference: 'premio-jogo-42-2',
      payee: {
        name: 'Carlos Pereira',
        document: '11222333000181',
        destination: {
          type: 'BANK_ACCOUNT',
          bankAccount: { ispb: '60746948', branch: '1234', account: '56789-0', accountType: 'CACC' },
        },
      },
    },
  ],
};

const cashOutBatchAccepted: Out<typeof CashOutBatchAccepted> = {
  batchId: '0b7e4c52-1a7f-4d0e-9c3b-2f6a8d1e5b90',
  createdAt: '2026-11-27T09:00:00.000-03:00',
  count: 2,
  amount: 225.5,
  items: [
    {
      index: 0,
      transactionId: '5f0c7c1e-8d4b-4f55-9a51-3f7b1d2c9e10',
      internalCode: 'K7Q2M9X',
      externalReference: 'premio-jogo-42-1',
      status: 'PROCESSING',
    },
    {
      index: 1,
      transactionId: '9a3d6b2f-4c1e-4e8a-b7d5-0f2c3a4b5c6d',
      internalCode: 'P3W8R2T',
      externalReference: 'premio-jogo-42-2',
      status: 'PROCESSING',
    },
  ],
};

/**
 * Any valid batch fits: the largest valid item is about 3.5 KB (a 2,048-character webhookUrl, 140
 * four-byte characters of name and of description, the rest), so 1,000 of them stay under 4 MiB.
 */
export const MAX_BATCH_BODY_BYTES = 4 * 1024 * 1024;

/** `items.3.amount` (valibot's dotted path) as the contract writes it: `items[3].amount`. */
const indexed = (field: string) => field.replace(/^items\.(\d+)(?=\.|$)/, 'items[$1]');

type BatchInput = Input<{ principal: true; idempotent: true; body: typeof CreateCashOutBatchSchema }>;

/** Every item's webhook target is checked before anything is created: all problems at once. */
function checkWebhookUrls({ env, body }: BatchInput): void {
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
}

async function handleCreateCashOutBatch({
  env,
  principal,
  idempotencyKey,
  raw,
  body,
}: BatchInput): Promise<Response> {
  const result = await ledgerOf(env, principal.clientId).createCashOutBatch({
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    requestHash:
      idempotencyKey === undefined ? '' : await requestFingerprint('POST /cash-out/batch', '', raw),
    items: body.items.map(cashOutInput),
  });
  return operationResponse(result);
}

export const createCashOutBatch = route(
  {
    method: 'post',
    path: '/cash-out/batch',
    operationId: 'createCashOutBatch',
    summary: 'Create up to 1,000 Cash-Outs in one call',
    description:
      'The same headers as POST /cash-out (`DigitalSignature` computed exactly the same way; ' +
      '`X-Idempotency-Key` covers the whole batch). Each item is a POST /cash-out body.\n\nAll or ' +
      'nothing: every item is validated before anything is created. An invalid item answers 400 ' +
      '`VALIDATION_ERROR` with each problem under `items[<index>].<field>`; an `externalReference` ' +
      'repeated inside the batch or already used by a Cash-Out answers 409 ' +
      '`DUPLICATED_EXTERNAL_REFERENCE` with every offending index under ' +
      '`items[<index>].externalReference`. Nothing is created then.\n\nOnce accepted (202), each item ' +
      'is an ordinary Cash-Out: found by any of its ids, listed, summarized and on the statement, with ' +
      'its own `CASHOUT_*` events to its own `webhookUrl`. Limits, duplicate detection, routing and ' +
      'approval apply in item order exactly as if the items had been sent one by one in that order, so ' +
      'an item can end CANCELLED (for example DAILY_LIMIT_EXCEEDED) while the others complete.',
    tag: TAG,
    auth: 'signed',
    idempotent: true,
    body: {
      schema: CreateCashOutBatchSchema,
      examples: { batch: example('Two payouts', createCashOutBatchRequest) },
    },
    success: {
      '202': {
        description: 'Accepted: every item PROCESSING, in the request’s order.',
        schema: CashOutBatchAccepted,
        examples: { accepted: example('Accepted', cashOutBatchAccepted) },
      },
    },
    errors: ['VALIDATION_ERROR', 'DUPLICATED_EXTERNAL_REFERENCE'],
  },
  handleCreateCashOutBatch,
  { maxBodyBytes: MAX_BATCH_BODY_BYTES, fieldName: indexed, check: checkWebhookUrls },
);
