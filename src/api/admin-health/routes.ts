/**
 * The analyzer's operator operations, in the document's order; the staging-only advance is
 * documented here and routed by ./routes-staging.ts alone.
 */
import { type Entry, stagingOnly } from '../route-table';
import { advanceAnalyzerOperations } from './advance-analyzer';
import { getHealthAnalyzer } from './get-health-analyzer';
import { importHealthObservations } from './import-health-observations';

export const adminHealthRoutes: Entry[] = [
  importHealthObservations,
  getHealthAnalyzer,
  ...stagingOnly(advanceAnalyzerOperations),
];
