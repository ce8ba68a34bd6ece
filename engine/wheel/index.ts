/** The timer wheel. @module */
export { TimerWheel, WheelTimer } from './timer-wheel.js';
export type { TimerWheelOptions } from './timer-wheel.js';
