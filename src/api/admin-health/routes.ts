/** The admin-health resource's route table: each operation of ./openapi bound to its handler. */
import { bindRoutes } from '../route-table';
import { handleAdvanceAnalyzer, handleAnalyzerState, handleImportObservations } from './handlers';
import { adminHealthOperations } from './openapi';

export const adminHealthRoutes = bindRoutes(adminHealthOperations, {
  importHealthObservations: handleImportObservations,
  getHealthAnalyzer: handleAnalyzerState,
  advanceHealthAnalyzer: handleAdvanceAnalyzer,
});
