/** The operator books resource's route table: each operation of ./openapi bound to its handler. */
import { bindRoutes } from '../route-table';
import { handleGetReconciliation, handleListUnapplied } from './handlers';
import { adminBooksOperations } from './openapi';

export const adminBooksRoutes = bindRoutes(adminBooksOperations, {
  listUnappliedReceipts: handleListUnapplied,
  getReconciliationReport: handleGetReconciliation,
});
