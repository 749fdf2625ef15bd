/** GET /cash-in (docs/contract.md, Lists, cursors and periods): the Cash-Ins of a period, by page. */
import { listHandler } from '../../http/transaction-reads';
import { example, type Out } from '../../openapi/examples';
import { page } from '../../openapi/responses';
import { listOperation } from '../../openapi/transaction-operations';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { CashIn, cashInPaid, KIND } from './shared';

const CashInPage = named('CashInPage', page(CashIn));

const cashInPage: Out<typeof CashInPage> = {
  items: [cashInPaid],
  nextCursor: 'eyJsIjoiY2FzaC1pbiJ9.c2lnbmF0dXJl',
};

export const listCashIns = route(
  listOperation(KIND, CashInPage, example('A page with more to come', cashInPage)),
  listHandler('cash-in'),
);
