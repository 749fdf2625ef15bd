/** The cash-in resource's route table: each operation of ./openapi bound to its handler. */
import { bindRoutes } from '../route-table';
import {
  handleCancelCashIn,
  handleCashInSummary,
  handleCreateCashIn,
  handleGetCashIn,
  handleListCashIns,
  handleRefundCashIn,
} from './handlers';
import { cashInOperations } from './openapi';

export const cashInRoutes = bindRoutes(cashInOperations, {
  createCashIn: handleCreateCashIn,
  listCashIns: handleListCashIns,
  summarizeCashIns: handleCashInSummary,
  getCashIn: handleGetCashIn,
  refundCashIn: handleRefundCashIn,
  cancelCashIn: handleCancelCashIn,
});
