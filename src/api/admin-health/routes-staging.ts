/** The admin-health resource's staging-only operation (closing the analyzer's windows now), staging entry only. */
import { bindRoutes, stagingOnly } from '../route-table';
import { handleAdvanceAnalyzer } from './handlers';
import { adminHealthOperations } from './openapi';

export const adminHealthStagingRoutes = bindRoutes(stagingOnly(adminHealthOperations), {
  advanceHealthAnalyzer: handleAdvanceAnalyzer,
});
