/** GET /cash-in/{id} (docs/contract.md, Lookup by id): one Cash-In by any of its ids. */
import { getHandler } from '../../http/transaction-reads';
import { example } from '../../openapi/examples';
import { cashInIdParameter } from '../../openapi/parameters';
import { getOperation } from '../../openapi/transaction-operations';
import { route } from '../route-table';
import { CashIn, cashInAwaiting, cashInPaid, cashInRefunded, KIND } from './shared';

export const getCashIn = route(
  getOperation(
    KIND,
    CashIn,
    cashInIdParameter,
    'The Cash-In (without `pixData`/`openFinanceData`).',
    {
      awaiting: example('Awaiting payment', cashInAwaiting),
      paid: example('Paid', cashInPaid),
      refunded: example('Refunded', cashInRefunded),
    },
    'CASHIN_NOT_FOUND',
  ),
  getHandler('cash-in'),
);
