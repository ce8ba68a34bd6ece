/**
 * Random ids: the {@link Ids} port on the platform's `crypto.randomUUID()` (version 4 UUIDs),
 * the ids `createRuntime` uses when it is given none.
 * @module
 */
import type { Ids } from '../ports.js';

/**
 * Creates an {@link Ids} that makes random (v4) UUIDs with the global `crypto.randomUUID()`.
 *
 * @example
 * const runtime = createRuntime({ ids: randomIds(), store, telephony }); // the same as leaving ids out
 */
export function randomIds(): Ids {
  return { uuid: () => globalThis.crypto.randomUUID() };
}
