// The PIX traffic simulator (tests, scripts, benchmarks; never bundled into the worker).
export * from './faults';
export * from './generator';
export { poisson } from './random';
export * from './scenarios';
export * from './world';
