/** The cash-out resource's route table: each operation of ./openapi bound to its handler. */
import { bindRoutes } from '../route-table';
import { handleCashOutSummary, handleCreateCashOut, handleGetCashOut, handleListCashOuts } from './handlers';
import { cashOutOperations } from './openapi';

export const cashOutRoutes = bindRoutes(cashOutOperations, {
  createCashOut: handleCreateCashOut,
  listCashOuts: handleListCashOuts,
  summarizeCashOuts: handleCashOutSummary,
  getCashOut: handleGetCashOut,
});
