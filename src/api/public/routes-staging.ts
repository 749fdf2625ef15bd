/** The public resource's staging-only operations (the simulated open-finance consent), staging entry only. */
import { bindStagingRoutes } from '../route-table';
import {
  handleOpenFinanceAuthorize,
  handleOpenFinanceDecline,
  handleOpenFinancePage,
} from './handlers-open-finance';
import { openFinanceOperations } from './open-finance';

export const publicStagingRoutes = bindStagingRoutes(openFinanceOperations, {
  openFinancePage: handleOpenFinancePage,
  openFinanceAuthorize: handleOpenFinanceAuthorize,
  openFinanceDecline: handleOpenFinanceDecline,
});
