/**
 * Conformance suites and test helpers for embedders and adapter authors:
 * `import { runStoreConformance } from '@wakeup/engine/testing'`.
 * This entry imports `node:test`; never import it from production code. The in-process
 * stand-ins (VirtualClock, MemoryStore, MemoryTelephony) are in `engine/sim`.
 * @module
 * @packageDocumentation
 */
export {
  runStoreConformance,
  sampleAttempt,
  sampleOccurrence,
  sampleSeries,
} from './store-conformance.js';
export type { StoreHarness } from './store-conformance.js';
export { runTelephonyConformance } from './telephony-conformance.js';
export type { TelephonyHarness } from './telephony-conformance.js';
