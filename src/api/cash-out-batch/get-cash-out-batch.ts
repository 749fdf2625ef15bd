/** GET /cash-out/batch/{batchId} (docs/contract.md, Batch Cash-Out): where the batch's Cash-Outs are now. */
import * as v from 'valibot';
import { ledgerOf } from '../../../durable-objects/stubs';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { pathId } from '../../http/transaction-reads';
import { example, type Out } from '../../openapi/examples';
import { parameter } from '../../openapi/parameters';
import { TAG } from '../cash-out/shared';
import { route } from '../route-table';
import { CashOutBatch } from './schemas';

const cashOutBatch: Out<typeof CashOutBatch> = {
  batchId: '0b7e4c52-1a7f-4d0e-9c3b-2f6a8d1e5b90',
  createdAt: '2026-11-27T09:00:00.000-03:00',
  count: 2,
  amount: 225.5,
  byStatus: { PROCESSING: 0, PENDING: 0, COMPLETED: 1, CANCELLED: 1, REFUNDED: 0 },
};

async function handleGetCashOutBatch({
  request,
  env,
  principal,
}: Input<{ principal: true }>): Promise<Response> {
  const id = pathId(request, 'batchId');
  // Another client's batch answers exactly like one that does not exist.
  const [batch] =
    id === undefined ? [] : await ledgerOf(env, principal.clientId).cashOutBatches({ batchId: id });
  if (!batch) throw new ProblemError('CASHOUT_NOT_FOUND', 'No Cash-Out batch matches this id');
  return json(batch);
}

export const getCashOutBatch = route(
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
        examples: { batch: example('One completed, one cancelled', cashOutBatch) },
      },
    },
    errors: ['CASHOUT_NOT_FOUND'],
  },
  handleGetCashOutBatch,
);
