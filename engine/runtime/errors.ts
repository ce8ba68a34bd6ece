import type { EpochMs } from '../time/epoch.js';

/**
 * Engine errors carry a stable `code` (the API's error code where one exists) and, for
 * invalid input, the offending field's dotted path.
 * @module
 */

/**
 * An error raised by the engine, with a stable code and an optional field path.
 *
 * @example
 * try {
 *   await runtime.schedule({ id, accountId, to, scheduledAt });
 * } catch (err) {
 *   if (!EngineError.is(err) || err.code !== 'already_exists') throw err; // already_exists: scheduled before
 * }
 */
export class EngineError extends Error {
  /** Realm-safe check (works across copies of the module). */
  static is(err: unknown): err is EngineError {
    return (
      typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'EngineError'
    );
  }

  /** Always `EngineError`: what `is` checks across copies of the module. */
  override readonly name = 'EngineError';

  constructor(
    /** Stable machine code, e.g. `invalid_retry_policy`. */
    readonly code: string,
    message: string,
    /** Dotted path of the offending value, e.g. `retry_policy.offsets_minutes.1`. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * What a `Telephony.placeCall` throws when it cannot place the call now but can later:
 * the number is being placed by another process, or a create whose outcome is unknown is
 * being waited out (a dead process's lock, say). The runtime gives the placement slot back,
 * so that calls to other numbers go on, and asks again at `retryAt` with the same request.
 * Not a failure: no retry is counted and no `effect:failed` is emitted.
 *
 * @example
 * throw new PlacementDeferred(clock.now() + 2_000, 'the number is being placed by another host');
 */
export class PlacementDeferred extends Error {
  /** Realm-safe check (works across copies of the module). */
  static is(err: unknown): err is PlacementDeferred {
    return (
      typeof err === 'object' &&
      err !== null &&
      (err as { name?: unknown }).name === 'PlacementDeferred'
    );
  }

  /** Always `PlacementDeferred`: what `is` checks across copies of the module. */
  override readonly name = 'PlacementDeferred';

  constructor(
    /** When to ask again (epoch ms, on the runtime's clock). */
    readonly retryAt: EpochMs,
    message = 'placement deferred',
  ) {
    super(message);
  }
}
