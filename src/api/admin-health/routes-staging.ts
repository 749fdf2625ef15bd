/** The admin-health resource's staging-only operation (closing the analyzer's windows now), staging entry only. */
import { bindStagingRoutes } from '../route-table';
import { advanceAnalyzerOperations } from './advance-analyzer';
import { handleAdvanceAnalyzer } from './handlers';

export const adminHealthStagingRoutes = bindStagingRoutes(advanceAnalyzerOperations, {
  advanceHealthAnalyzer: handleAdvanceAnalyzer,
});
