/**
 * Test doubles and conformance suites for embedders: `import { VirtualClock } from 'wakeup/engine/testing'`.
 * This entry imports `node:test` (through the conformance suites); never import it from
 * production code.
 * @module
 */
export { VirtualClock } from './virtual-clock.js';
export { MemoryStore, cloneAttempt, cloneOccurrence } from './memory-store.js';
export { MemoryTelephony } from './memory-telephony.js';
export type { MemoryTelephonyOptions, PhoneBehaviour, SimulatedCall } from './memory-telephony.js';
export { runStoreConformance, sampleAttempt, sampleOccurrence } from './store-conformance.js';
export type { StoreHarness } from './store-conformance.js';
export { runTelephonyConformance } from './telephony-conformance.js';
export type { TelephonyHarness } from './telephony-conformance.js';
