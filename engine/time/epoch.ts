/**
 * The engine's instant type, at the bottom of the import graph: the time functions and the
 * ports (`engine/ports.ts`, which re-exports it) both use it.
 * @module
 */

/** Milliseconds since 1970-01-01T00:00:00Z. */
export type EpochMs = number;
