/** The public resource's staging-only operations (the simulated open-finance consent), staging entry only. */
import { bindRoutes, stagingOnly } from '../route-table';
import {
  handleOpenFinanceAuthorize,
  handleOpenFinanceDecline,
  handleOpenFinancePage,
} from './handlers-open-finance';
import { publicOperations } from './openapi';

export const publicStagingRoutes = bindRoutes(stagingOnly(publicOperations), {
  openFinancePage: handleOpenFinancePage,
  openFinanceAuthorize: handleOpenFinanceAuthorize,
  openFinanceDecline: handleOpenFinanceDecline,
});
