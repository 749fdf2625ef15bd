/** Batch Cash-Out operations: an extension beyond the v2.2 contract (docs/contract.md, Batch Cash-Out). */
import * as v from 'valibot';
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { parameter } from '../../openapi/parameters';
import * as ex from './openapi-examples';
import type * as batch from './openapi-responses';
import { CashOutBatch, CashOutBatchAccepted } from './openapi-responses';
import { CreateCashOutBatchSchema } from './schemas';

const TAG = 'Cash-Out';

export const cashOutBatchOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/cash-out/batch',
    operationId: 'createCashOutBatch',
    summary: 'Create up to 1,000 Cash-Outs in one call',
    description:
      'The same headers as POST /cash-out (`DigitalSignature` computed exactly the same way; `X-Idempotency-Key` covers the whole batch). Each item is a POST /cash-out body.\n\nAll or nothing: every item is validated before anything is created. An invalid item answers 400 `VALIDATION_ERROR` with each problem under `items[<index>].<field>`; an `externalReference` repeated inside the batch or already used by a Cash-Out answers 409 `DUPLICATED_EXTERNAL_REFERENCE` with every offending index under `items[<index>].externalReference`. Nothing is created then.\n\nOnce accepted (202), each item is an ordinary Cash-Out: found by any of its ids, listed, summarized and on the statement, with its own `CASHOUT_*` events to its own `webhookUrl`. Limits, duplicate detection, routing and approval apply in item order exactly as if the items had been sent one by one in that order, so an item can end CANCELLED (for example DAILY_LIMIT_EXCEEDED) while the others complete.',
    tag: TAG,
    auth: 'signed',
    idempotent: true,
    body: {
      schema: CreateCashOutBatchSchema,
      examples: { batch: example('Two payouts', ex.createCashOutBatchRequest) },
    },
    success: {
      '202': {
        description: 'Accepted: every item PROCESSING, in the request’s order.',
        schema: CashOutBatchAccepted,
        examples: { accepted: example('Accepted', ex.cashOutBatchAccepted) },
      },
    },
    errors: ['VALIDATION_ERROR', 'DUPLICATED_EXTERNAL_REFERENCE'],
  },
  {
    method: 'get',
    path: '/cash-out/batch/{batchId}',
    operationId: 'getCashOutBatch',
    summary: 'Get a Cash-Out batch',
    description:
      'How many of the batch’s Cash-Outs are in each status now. Each item is read, listed and notified as an ordinary Cash-Out.',
    tag: TAG,
    auth: 'client',
    parameters: [
      parameter(
        'batchId',
        'path',
        v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
        'The `batchId` of the 202.',
      ),
    ],
    success: {
      '200': {
        description: 'The batch.',
        schema: CashOutBatch,
        examples: { batch: example('One completed, one cancelled', ex.cashOutBatch) },
      },
    },
    errors: ['CASHOUT_NOT_FOUND'],
  },
];

export type CashOutBatchAcceptedBody = v.InferOutput<typeof batch.CashOutBatchAccepted>;
export type CashOutBatchBody = v.InferOutput<typeof batch.CashOutBatch>;
