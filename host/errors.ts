/**
 * The application's one error type, at the ground floor of host/: domain code (schedules,
 * calls, phone, auth, account, ...) throws an {@link AppError} naming a catalogue code from
 * `schema/openapi.yaml` (`x-error-codes`) and says what went wrong in `detail`. It knows
 * nothing of HTTP: `http/error-handler.ts` alone turns it (and the engine's EngineError, and
 * validation failures) into problem+json with the code's status.
 * @module
 */
import { getErrorCatalogue, type ValidationErrorItem } from '../schema/load.js';
import type { ErrorCode } from './generated/openapi.js';

export type { ErrorCode };

/** One item of a validation_error's `errors` array (schema `ValidationErrorItem`). */
export type ValidationItem = ValidationErrorItem;

/** What a thrown {@link AppError} carries. */
export interface ProblemInit {
  /** Human sentence; clients must not parse it. Defaults to the catalogue description. */
  detail?: string;
  /** The request field at fault, when known (dotted path). */
  field?: string;
  /** validation_error only: one item per problem (any other code never carries `errors`). */
  errors?: ValidationItem[];
  /** Extra response headers, e.g. Retry-After or Allow. */
  headers?: Record<string, string>;
}

/**
 * An error with a catalogue `code` (the type checker refuses any other: `ErrorCode` is
 * generated from the schema). The HTTP error handler turns it into problem+json with the
 * code's status.
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly field: string | undefined;
  readonly errors: ValidationItem[] | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, init: ProblemInit = {}) {
    super(init.detail ? `${code}: ${init.detail}` : code);
    this.code = code;
    this.detail = init.detail;
    this.field = init.field;
    this.errors = init.errors;
    this.headers = init.headers ?? {};
  }
}

/** Shorthand: `throw problem('not_found', { detail: 'No API key with that id.' })`. */
export function problem(code: ErrorCode, init?: ProblemInit): AppError {
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

let codes: ReadonlySet<string> | undefined;

/** Whether `code` is in the catalogue (for codes that arrive as plain strings, e.g. from the engine). */
export function isErrorCode(code: string): code is ErrorCode {
  codes ??= new Set(getErrorCatalogue().map((e) => e.code));
  return codes.has(code);
}
