/** The timer wheel. @module */
export { TimerWheel } from './timer-wheel.js';
export type { TimerWheelOptions, WheelEntry } from './timer-wheel.js';
