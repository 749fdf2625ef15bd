/** The account resource's operations, in the document's order; one file each (both rebalances in one). */
import type { Route } from '../route-table';
import { getBalance } from './get-balance';
import { getStatement } from './get-statement';
import { sweep, topUp } from './rebalance';

export const accountRoutes: Route[] = [getBalance, topUp, sweep, getStatement];
