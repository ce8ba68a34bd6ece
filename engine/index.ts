/**
 * The wake-up call engine: time zones and recurrence, occurrence and attempt machines, a
 * timer wheel and a dispatcher, reaching the world only through the ports in `ports.ts`.
 * This file is the only public entry; everything exported here is documented API.
 * @module
 */
export type * from './ports.js';
export * from './time/index.js';
export * from './runtime/index.js';
