/** The Cash-In resource's operations, in the document's order; one file each. */
import type { Route } from '../route-table';
import { cancelCashIn } from './cancel-cash-in';
import { createCashIn } from './create-cash-in';
import { defendDispute } from './defend-dispute';
import { getCashIn } from './get-cash-in';
import { listCashIns } from './list-cash-ins';
import { listDisputes } from './list-disputes';
import { refundCashIn } from './refund-cash-in';
import { summarizeCashIns } from './summarize-cash-ins';

export const cashInRoutes: Route[] = [
  createCashIn,
  listCashIns,
  summarizeCashIns,
  getCashIn,
  refundCashIn,
  cancelCashIn,
  defendDispute,
  listDisputes,
];
