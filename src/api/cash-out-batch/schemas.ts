import * as v from 'valibot';
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
