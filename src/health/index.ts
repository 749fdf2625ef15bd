// Public surface of the PIX health engine for the worker, the Durable Object and the replay CLI.

export { FAILURE_CODES } from '../domain/failure-codes';
export { Analyzer, type AnalyzerSnapshot, type AnalyzerStats } from './analyzer';
export { type AnalyzerConfig, DEFAULT_CONFIG, type WindowReport } from './config';
export { formatChange, type ReplayOptions, ReplaySession, type ReplaySummary } from './surface/replay';
export {
  type BlockStatus,
  type ClientScope,
  type HealthPicture,
  healthPicture,
  isDirectDependency,
  isVisibleTo,
  toPublicEvidence,
  toPublicIncident,
} from './surface/scope';
export type * from './types';
export { futureProblem, IMPORT_HISTORY_MS, importTimeProblem, MAX_AHEAD_MS } from './windows/intake';
export { type ParseResult, parseInstant, parseObservation } from './windows/observation';
export { WINDOW_MS } from './windows/window';
