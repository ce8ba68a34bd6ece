/**
 * The engine runtime: occurrence and attempt machines, the timer wheel, pacing and the
 * dispatcher that drives them through the ports.
 * @module
 */
export { createRuntime } from './runtime.js';
export type {
  AmendResult,
  CancelResult,
  NewCall,
  NewOccurrence,
  OccurrencePatch,
  PlaceCallOutcome,
  Runtime,
  RuntimeDeps,
  RuntimeStats,
  SaveSeriesResult,
  SeriesInput,
  SeriesNext,
  StartOptions,
} from './types.js';
export { resolveRuntimeOptions } from './options.js';
export type { PacingOptions, ResolvedRuntimeOptions, RuntimeOptions } from './options.js';
export { DEFAULT_RETRY_POLICY, RETRY_POLICY_BOUNDS, resolveRetryPolicy } from './retry-policy.js';
export type { RetryPolicyInput } from './retry-policy.js';
export { EngineError, PlacementDeferred } from './errors.js';
export type { RuntimeEventMap, RuntimeListener } from './events.js';
export { callState } from './call-state.js';
export type { CallState } from './call-state.js';
export { Pacer } from './pacer.js';
export * from '../machines/index.js';
export * from '../wheel/index.js';
