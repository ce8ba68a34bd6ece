/**
 * Problems (RFC 9457): the wire form of an {@link AppError}.
 *
 * Every error the API answers is a catalogue code from `schema/openapi.yaml`
 * (`x-error-codes`, read through `schema/load.ts`): the status and title come from there, so
 * domain code only names the code and says what went wrong in `detail`. Clients branch on
 * `code`; `type` links to the code's entry on the `/docs/errors` page.
 * @module
 */
import { getErrorCatalogue } from '../../schema/load.js';
import type { CatalogueEntry } from '../../schema/load.js';
import type { AppError, ValidationItem } from '../errors.js';

let byCode: Map<string, CatalogueEntry> | undefined;

/** The error catalogue by code (loaded once from the schema). */
export function catalogue(): ReadonlyMap<string, CatalogueEntry> {
  byCode ??= new Map(getErrorCatalogue().map((e) => [e.code, e]));
  return byCode;
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
export function toProblemBody(err: AppError, site: string, instance: string): ProblemBody {
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
  // The spec: `errors` appears only on validation_error.
  if (entry.code === 'validation_error') body.errors = err.errors ?? [];
  return body;
}

/** The body of a 500: the same words for every failure, never its cause. */
export function internalProblemBody(site: string, instance: string): ProblemBody {
  return {
    type: `${site}/docs/errors#internal_error`,
    title: catalogue().get('internal_error')?.title ?? 'Internal error',
    status: 500,
    detail:
      'The server failed unexpectedly; the change may not have been applied. Try again later.',
    code: 'internal_error',
    instance,
  };
}
