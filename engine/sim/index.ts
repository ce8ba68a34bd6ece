/**
 * The engine's simulation entry: `import { VirtualClock, MemoryStore, MemoryTelephony } from '@wakeup/engine/sim'`.
 *
 * Working in-process stand-ins for the ports, safe in production code: a clock moved by hand
 * (the host's WAKEUP_CLOCK=virtual), an in-memory store (embedding without a database) and a
 * simulated phone network (the host's default telephony). Imports no test framework; the
 * conformance suites live in `engine/testing`.
 * @module
 * @packageDocumentation
 */
export { VirtualClock } from './virtual-clock.js';
export {
  MemoryStore,
  cloneAttempt,
  cloneOccurrence,
  cloneSeries,
  type MemoryTransaction,
} from './memory-store.js';
export { MemoryTelephony } from './memory-telephony.js';
export type { MemoryTelephonyOptions, PhoneBehaviour, SimulatedCall } from './memory-telephony.js';
