/** What the batch Cash-Out operations share: the batch's id as documented. */
import * as v from 'valibot';

export const BatchId = v.pipe(
  v.string(),
  v.uuid(),
  v.description('Identifies the batch for GET /cash-out/batch/{batchId}.'),
  v.examples(['0b7e4c52-1a7f-4d0e-9c3b-2f6a8d1e5b90']),
);
