/**
 * Test doubles and conformance suites for embedders: `import { VirtualClock } from 'wakeup/engine/testing'`.
 * @module
 */
export { VirtualClock } from './virtual-clock.js';
