/**
 * Request validation with the validators `schema/load.ts` compiles per operationId.
 *
 * Text that is not well-formed UTF-16 (a lone surrogate, which JSON's `\uD800` escape can
 * carry but no database stores faithfully: SQLite and PostgreSQL would keep U+FFFD instead) is
 * refused first, in every string and every object key, with 400 validation_error (404 in a
 * path), before the schema: the server never stores something other than what it accepted.
 *
 * Failures become one problem: the first specific catalogue code (`x-error-code`) when the
 * schema names one, with the field it names and a detail sentence about that field (no
 * `errors` array: the spec keeps that for validation_error); else validation_error, with
 * every item in `errors`. A path parameter
 * that fails without a specific code answers 404 not_found: nothing can be at that path.
 * @module
 */
import type { ValidateFunction } from 'ajv';
import { toValidationItems } from '../../schema/load.js';
import type { ValidationErrorItem } from '../../schema/load.js';
import { isErrorCode, problem, type ErrorCode } from '../errors.js';

/** Where the value came from. */
export type Where = 'body' | 'query' | 'path';

/**
 * Validates `value` (the query validator coerces and fills defaults in place, so pass a
 * copy you own) and returns it, or throws the problem.
 */
export function check<T>(validate: ValidateFunction | undefined, value: T, where: Where): T {
  if (!validate) return value;
  const illFormed = firstIllFormed(value, []);
  if (illFormed !== null) {
    if (where === 'path') throw problem('not_found', { detail: 'Nothing is at this path.' });
    const message = 'is not well-formed text (it holds a lone UTF-16 surrogate)';
    throw problem('validation_error', {
      detail: `${illFormed || `the ${where}`} ${message}.`,
      ...(illFormed ? { field: illFormed } : {}),
      errors: [{ field: illFormed, in: where, code: 'invalid', message }],
    });
  }
  if (validate(value)) {
    const unfit = firstUnfit(value, []);
    if (unfit === null) return value;
    if (where === 'path') throw problem('not_found', { detail: 'Nothing is at this path.' });
    const { field, message } = unfit;
    throw problem('validation_error', {
      detail: `${field || `the ${where}`} ${message}.`,
      ...(field ? { field } : {}),
      errors: [{ field, in: where, code: 'invalid', message }],
    });
  }
  const { code, items, decidedBy } = toValidationItems(validate.errors ?? [], where);
  if (code === 'validation_error' || !decidedBy || !isErrorCode(code)) {
    if (where === 'path') throw problem('not_found', { detail: 'Nothing is at this path.' });
    throw problem('validation_error', {
      detail: describe(items),
      field: items[0]?.field || undefined,
      errors: items,
    });
  }
  return raise(code, decidedBy);
}

/**
 * What no schema can say: Ajv coerces "Infinity" and "1e400" to numbers that pass `maximum`
 * (and JSON.parse reads 1e400 as Infinity), and a NUL character is a valid JSON string that
 * PostgreSQL text cannot hold. Both are refused on every database alike. Returns the dotted
 * path of the first such value and why, or null (depth bounded by the body reader).
 */
function firstUnfit(value: unknown, path: string[]): { field: string; message: string } | null {
  if (typeof value === 'number')
    return Number.isFinite(value)
      ? null
      : { field: path.join('.'), message: 'must be a finite number' };
  if (typeof value === 'string')
    return value.includes('\0')
      ? { field: path.join('.'), message: 'must not contain a NUL character' }
      : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const found = firstUnfit(v, [...path, k]);
    if (found !== null) return found;
  }
  return null;
}

/** A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The dotted path of the first string value or key that is not well-formed UTF-16, or null. */
function firstIllFormed(value: unknown, path: string[]): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path.join('.') : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    // The key is named with U+FFFD in place of its surrogate: the answer never echoes ill-formed text.
    if (LONE_SURROGATE.test(k))
      return [...path, k.replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD')].join('.');
    const found = firstIllFormed(v, [...path, k]);
    if (found !== null) return found;
  }
  return null;
}

function raise(code: ErrorCode, item: ValidationErrorItem): never {
  throw problem(code, { detail: describe([item]), ...(item.field ? { field: item.field } : {}) });
}

function describe(items: ValidationErrorItem[]): string {
  const parts = items
    .slice(0, 5)
    .map((i) => (i.field ? `${i.field} ${i.message}` : `the ${i.in} ${i.message}`));
  const more = items.length > 5 ? ` (and ${items.length - 5} more)` : '';
  return `${parts.join('; ')}${more}.`;
}

/** A plain copy of Koa's parsed query (so validation can coerce it in place). */
export function queryObject(
  query: Record<string, string | string[] | undefined>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) if (v !== undefined) out[k] = v;
  return out;
}
