/** The Cash-Out resource's operations, in the document's order; one file each. */
import type { Route } from '../route-table';
import { createCashOut } from './create-cash-out';
import { getCashOut } from './get-cash-out';
import { listCashOuts } from './list-cash-outs';
import { summarizeCashOuts } from './summarize-cash-outs';

export const cashOutRoutes: Route[] = [createCashOut, listCashOuts, summarizeCashOuts, getCashOut];
