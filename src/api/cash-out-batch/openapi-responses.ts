/**
 * Response shapes of the batch Cash-Out endpoints: the one description of each, converted into the
 * OpenAPI document and checked against real responses in test/api/cash-out-batch.
 */
import * as v from 'valibot';
import { BrtTimestamp, Money } from '../../openapi/fields';
import { TransactionIdentity } from '../../openapi/responses';
import { named } from '../../schemas/named';

const BatchId = v.pipe(
  v.string(),
  v.uuid(),
  v.description('Identifies the batch for GET /cash-out/batch/{batchId}.'),
  v.examples(['0b7e4c52-1a7f-4d0e-9c3b-2f6a8d1e5b90']),
);

/** POST /cash-out/batch 202: every item accepted, in the request's order. */
export const CashOutBatchAccepted = named(
  'CashOutBatchAccepted',
  v.object({
    batchId: BatchId,
    createdAt: BrtTimestamp,
    count: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)),
    amount: v.pipe(Money, v.description('Sum of the items’ amounts.')),
    items: v.array(
      v.object({
        index: v.pipe(
          v.number(),
          v.integer(),
          v.minValue(0),
          v.description('Position in `items` of the request.'),
        ),
        transactionId: v.pipe(v.string(), v.uuid()),
        ...TransactionIdentity,
        status: v.literal('PROCESSING'),
      }),
    ),
  }),
);

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** GET /cash-out/batch/{batchId}. */
export const CashOutBatch = named(
  'CashOutBatch',
  v.object({
    batchId: BatchId,
    createdAt: BrtTimestamp,
    count: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)),
    amount: Money,
    byStatus: v.pipe(
      v.object({
        PROCESSING: Count,
        PENDING: Count,
        COMPLETED: Count,
        CANCELLED: Count,
        REFUNDED: Count,
      }),
      v.description('How many of the batch’s Cash-Outs are in each status now.'),
    ),
  }),
);
