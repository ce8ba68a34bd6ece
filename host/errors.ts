/**
 * The application's one error type, at the ground floor of host/: domain code (schedules,
 * calls, phone, auth, account, ...) throws an {@link AppError} naming a catalogue code from
 * `schema/openapi.yaml` (`x-error-codes`) and says what went wrong in `detail`. It knows
 * nothing of HTTP: `http/error-handler.ts` alone turns it (and the engine's EngineError, and
 * validation failures) into problem+json with the code's status.
 * @module
 */
import type { ValidationErrorItem } from '../schema/load.js';

/** One item of a validation_error's `errors` array (schema `ValidationErrorItem`). */
export type ValidationItem = ValidationErrorItem;

/** What a thrown {@link AppError} carries. */
export interface ProblemInit {
  /** Human sentence; clients must not parse it. Defaults to the catalogue description. */
  detail?: string;
  /** The request field at fault, when known (dotted path). */
  field?: string;
  /** validation_error (and a specific code decided by validation): one item per problem. */
  errors?: ValidationItem[];
  /** Extra response headers, e.g. Retry-After or Allow. */
  headers?: Record<string, string>;
}

/**
 * An error with a catalogue `code`. The HTTP error handler turns it into problem+json with the
 * code's status. Throwing a code missing from the catalogue is a programming error and
 * answers 500 internal_error (and a test catches it).
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: string;
  readonly detail: string | undefined;
  readonly field: string | undefined;
  readonly errors: ValidationItem[] | undefined;
  readonly headers: Record<string, string>;

  constructor(code: string, init: ProblemInit = {}) {
    super(init.detail ? `${code}: ${init.detail}` : code);
    this.code = code;
    this.detail = init.detail;
    this.field = init.field;
    this.errors = init.errors;
    this.headers = init.headers ?? {};
  }
}

/** Shorthand: `throw problem('not_found', { detail: 'No API key with that id.' })`. */
export function problem(code: string, init?: ProblemInit): AppError {
  return new AppError(code, init);
}

/** Shorthand for a validation_error with one item. */
export function invalid(item: ValidationItem): AppError {
  return new AppError('validation_error', {
    detail: item.field ? `${item.field} ${item.message}.` : `The ${item.in} ${item.message}.`,
    ...(item.field ? { field: item.field } : {}),
    errors: [item],
  });
}
