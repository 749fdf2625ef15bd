/** The admin-health resource's staging-only operation (closing the analyzer's windows now), staging entry only. */
import { bindStagingRoutes } from '../route-table';
import { handleAdvanceAnalyzer } from './handlers';
import { adminHealthOperations } from './openapi';

export const adminHealthStagingRoutes = bindStagingRoutes(adminHealthOperations, {
  advanceHealthAnalyzer: handleAdvanceAnalyzer,
});
