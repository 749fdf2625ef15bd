/** GET /cash-out (docs/contract.md, Lists, cursors and periods): the Cash-Outs of a period, by page. */
import type * as v from 'valibot';
import { listHandler } from '../../http/transaction-reads';
import { example } from '../../openapi/examples';
import { page } from '../../openapi/responses';
import { listOperation } from '../../openapi/transaction-operations';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { CashOut, cashOutCancelled, cashOutCompleted, KIND } from './shared';

const CashOutPage = named('CashOutPage', page(CashOut));

export type CashOutPageBody = v.InferOutput<typeof CashOutPage>;

export const listCashOuts = route(
  listOperation(KIND, CashOutPage, example('Last page', { items: [cashOutCompleted, cashOutCancelled] })),
  listHandler('cash-out'),
);
