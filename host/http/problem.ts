/**
 * Problems (RFC 9457): the one error type handlers throw, and its wire form.
 *
 * Every error the API answers is a catalogue code from `schema/openapi.yaml`
 * (`x-error-codes`, read through `schema/load.ts`): the status and title come from there, so
 * a handler only names the code and says what went wrong in `detail`. Clients branch on
 * `code`; `type` links to the code's entry on the `/docs/errors` page.
 * @module
 */
import { getErrorCatalogue } from '../../schema/load.js';
import type { CatalogueEntry, ValidationErrorItem } from '../../schema/load.js';

/** One item of a validation_error's `errors` array (schema `ValidationErrorItem`). */
export type ValidationItem = ValidationErrorItem;

/** What a thrown {@link ProblemError} carries. */
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

let byCode: Map<string, CatalogueEntry> | undefined;

/** The error catalogue by code (loaded once from the schema). */
export function catalogue(): ReadonlyMap<string, CatalogueEntry> {
  byCode ??= new Map(getErrorCatalogue().map((e) => [e.code, e]));
  return byCode;
}

/**
 * An error with a catalogue `code`. The error handler turns it into problem+json with the
 * code's status. Throwing a code missing from the catalogue is a programming error and
 * answers 500 internal_error (and a test catches it).
 */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
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
export function problem(code: string, init?: ProblemInit): ProblemError {
  return new ProblemError(code, init);
}

/** Shorthand for a validation_error with one item. */
export function invalid(item: ValidationItem): ProblemError {
  return new ProblemError('validation_error', {
    detail: item.field ? `${item.field} ${item.message}.` : `The ${item.in} ${item.message}.`,
    ...(item.field ? { field: item.field } : {}),
    errors: [item],
  });
}

/** The problem+json body of an error response. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance: string;
  field?: string;
  errors?: ValidationItem[];
}

/**
 * Builds the wire body. `site` is the public origin, `instance` the request path.
 * Unknown codes become internal_error so that nothing uncatalogued reaches a client.
 */
export function toProblemBody(err: ProblemError, site: string, instance: string): ProblemBody {
  const entry = catalogue().get(err.code);
  if (!entry) return internalProblemBody(site, instance);
  const body: ProblemBody = {
    type: `${site}/docs/errors#${entry.code}`,
    title: entry.title,
    status: entry.status,
    detail: err.detail ?? entry.description,
    code: entry.code,
    instance,
  };
  if (err.field !== undefined) body.field = err.field;
  if (entry.code === 'validation_error') body.errors = err.errors ?? [];
  else if (err.errors) body.errors = err.errors;
  return body;
}

/** The body of a 500: the same words for every failure, never its cause. */
export function internalProblemBody(site: string, instance: string): ProblemBody {
  return {
    type: `${site}/docs/errors#internal_error`,
    title: catalogue().get('internal_error')?.title ?? 'Internal error',
    status: 500,
    detail: 'The server failed unexpectedly; the change may not have been applied. Try again later.',
    code: 'internal_error',
    instance,
  };
}
