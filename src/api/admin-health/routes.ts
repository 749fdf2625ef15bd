/**
 * The admin-health resource's route table: each production operation of ./openapi bound to its
 * handler (the staging-only ones: ./routes-staging.ts).
 */
import { bindRoutes } from '../route-table';
import { handleAnalyzerState, handleImportObservations } from './handlers';
import { adminHealthOperations } from './openapi';

export const adminHealthRoutes = bindRoutes(adminHealthOperations, {
  importHealthObservations: handleImportObservations,
  getHealthAnalyzer: handleAnalyzerState,
});
