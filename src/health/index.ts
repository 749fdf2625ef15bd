// Public surface of the PIX health engine for the worker, the Durable Object and the replay CLI.

export { FAILURE_CODES } from '../domain/failure-codes';
export { Analyzer, type AnalyzerSnapshot, type AnalyzerStats } from './analyzer';
export { type AnalyzerConfig, DEFAULT_CONFIG, type WindowReport } from './config';
export { futureProblem, IMPORT_HISTORY_MS, importTimeProblem, MAX_AHEAD_MS } from './intake';
export { type ParseResult, parseInstant, parseObservation } from './observation';
export { formatChange, type ReplayOptions, ReplaySession, type ReplaySummary } from './replay';
export {
  type BlockStatus,
  type ClientScope,
  type HealthPicture,
  healthPicture,
  isDirectDependency,
  isVisibleTo,
  toPublicEvidence,
  toPublicIncident,
} from './scope';
export type * from './types';
export { WINDOW_MS } from './window';
