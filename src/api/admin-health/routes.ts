/**
 * The admin-health resource's route table: each production operation of ./openapi bound to its
 * handler (the staging-only ones: ./routes-staging.ts).
 */
import { bindRoutes, productionOnly } from '../route-table';
import { handleAnalyzerState, handleImportObservations } from './handlers';
import { adminHealthOperations } from './openapi';

export const adminHealthRoutes = bindRoutes(productionOnly(adminHealthOperations), {
  importHealthObservations: handleImportObservations,
  getHealthAnalyzer: handleAnalyzerState,
});
