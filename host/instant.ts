/**
 * Instants at the HTTP edge: epoch milliseconds in, ISO 8601 UTC strings ending in Z out.
 * @module
 */
import type { EpochMs } from '../engine/index.js';

/** `2027-03-14T06:00:00Z` (milliseconds dropped when zero, kept otherwise). */
export function isoInstant(ms: EpochMs): string {
  const s = new Date(ms).toISOString();
  return s.endsWith('.000Z') ? s.slice(0, -5) + 'Z' : s;
}

/** {@link isoInstant} for nullable values. */
export function isoInstantOrNull(ms: EpochMs | null | undefined): string | null {
  return ms === null || ms === undefined ? null : isoInstant(ms);
}
