/** The batch Cash-Out resource's route table: each operation of ./openapi bound to its handler. */
import { bindRoutes } from '../route-table';
import { handleCreateCashOutBatch, handleGetCashOutBatch } from './handlers';
import { cashOutBatchOperations } from './openapi';

export const cashOutBatchRoutes = bindRoutes(cashOutBatchOperations, {
  createCashOutBatch: handleCreateCashOutBatch,
  getCashOutBatch: handleGetCashOutBatch,
});
