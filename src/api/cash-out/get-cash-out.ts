/** GET /cash-out/{id} (docs/contract.md, Lookup by id): one Cash-Out by any of its ids. */
import { getHandler } from '../../http/transaction-reads';
import { example } from '../../openapi/examples';
import { cashOutIdParameter } from '../../openapi/parameters';
import { getOperation } from '../../openapi/transaction-operations';
import { route } from '../route-table';
import { CashOut, cashOutCancelled, cashOutCompleted, KIND } from './shared';

export const getCashOut = route(
  getOperation(
    KIND,
    CashOut,
    cashOutIdParameter,
    'The Cash-Out.',
    {
      completed: example('Completed', cashOutCompleted),
      cancelled: example('Cancelled after the 202', cashOutCancelled),
    },
    'CASHOUT_NOT_FOUND',
  ),
  getHandler('cash-out'),
);
