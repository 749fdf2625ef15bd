import * as v from 'valibot';
import { BrtTimestamp, Money, TransactionIdentity } from '../../schemas/fields';
import { named } from '../../schemas/named';
import { CreateCashOutSchema } from '../cash-out/schemas';

/** Items per batch: what one object accepts in one bounded transaction. */
export const MAX_BATCH_ITEMS = 1_000;

/** POST /cash-out/batch body: each item exactly a POST /cash-out body. */
export const CreateCashOutBatchSchema = named(
  'CreateCashOutBatch',
  v.strictObject({
    items: v.pipe(
      v.array(CreateCashOutSchema, 'items must be an array of Cash-Outs'),
      v.minLength(1, 'items must have at least 1 Cash-Out'),
      v.maxLength(MAX_BATCH_ITEMS, `items must have at most ${MAX_BATCH_ITEMS} Cash-Outs`),
    ),
  }),
);

/** The batch's id as documented. */
export const BatchId = v.pipe(
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

export type CashOutBatchAcceptedBody = v.InferOutput<typeof CashOutBatchAccepted>;

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

export type CashOutBatchBody = v.InferOutput<typeof CashOutBatch>;
