/**
 * Engine errors carry a stable `code` (the API's error code where one exists) and, for
 * invalid input, the offending field's dotted path.
 * @module
 */

/** An error raised by the engine, with a stable code and an optional field path. */
export class EngineError extends Error {
  /** Realm-safe check (works across copies of the module). */
  static is(err: unknown): err is EngineError {
    return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'EngineError';
  }

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
