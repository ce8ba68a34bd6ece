/**
 * The engine runtime: occurrence and attempt machines, the timer wheel and the dispatcher.
 * @module
 */
export * from '../wheel/index.js';
