/** The account resource's route table: each operation of ./openapi bound to its handler. */
import { bindRoutes } from '../route-table';
import { handleBalance, handleStatement, handleSweep, handleTopUp } from './handlers';
import { accountOperations } from './openapi';

export const accountRoutes = bindRoutes(accountOperations, {
  getBalance: handleBalance,
  getStatement: handleStatement,
  topUp: handleTopUp,
  sweep: handleSweep,
});
