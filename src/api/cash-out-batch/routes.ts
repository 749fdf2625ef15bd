/** The batch Cash-Out resource's operations, in the document's order; one file each. */
import type { Route } from '../route-table';
import { createCashOutBatch } from './create-cash-out-batch';
import { getCashOutBatch } from './get-cash-out-batch';

export const cashOutBatchRoutes: Route[] = [createCashOutBatch, getCashOutBatch];
