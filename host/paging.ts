/**
 * Cursor paging for list endpoints marked paged: query `cursor` and `limit` (1 to 200,
 * default 50; the schema validates the bounds) and a `{items, next_cursor}` answer.
 *
 * The cursor is opaque to clients: base64url of a small JSON array holding the sort key of
 * the last item of the page. Lists order by a total key (e.g. created_at then id), so a
 * page never skips or repeats a row even when rows are added between pages. A cursor is
 * only a position: queries still filter by the caller's account, so a forged cursor cannot
 * reach another account's rows.
 *
 * @example
 * const page = pageRequest(query);
 * const rows = listApiKeys(db, accountId, page.limit + 1, afterFrom(page.after));
 * return { status: 200, body: pageResponse(rows, page.limit, (k) => [k.createdAt, k.id], toApiKeyOut) };
 * @module
 */
import { invalid } from './errors.js';

/** Default and maximum page sizes. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** A decoded page request: fetch `limit + 1` rows after `after` to learn whether more exist. */
export interface PageRequest {
  limit: number;
  /** Sort key of the last item already seen, or null for the first page. */
  after: unknown[] | null;
}

/** The paging part of a validated list query. */
export type PageQuery = { cursor?: string | null; limit?: number };

/** Reads `limit` and `cursor` from a validated query. */
export function pageRequest(query: PageQuery): PageRequest {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw invalid({
      field: 'limit',
      in: 'query',
      code: limit > MAX_LIMIT ? 'maximum' : 'minimum',
      message: 'must be 1 to 200',
    });
  }
  const cursor = query.cursor;
  return { limit, after: cursor ? decodeCursor(cursor) : null };
}

/** Encodes a sort key as an opaque cursor. */
export function encodeCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** Decodes a cursor, or throws 400 validation_error naming `cursor`. */
export function decodeCursor(cursor: string): unknown[] {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(value) || value.length === 0) throw new Error('not a key');
    return value;
  } catch {
    throw invalid({
      field: 'cursor',
      in: 'query',
      code: 'invalid',
      message: 'is not a cursor this list gave out',
    });
  }
}

/**
 * Builds `{items, next_cursor}` from up to `limit + 1` rows: the extra row only says that
 * another page exists.
 */
export function pageResponse<Row, Out>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => unknown[],
  toOut: (row: Row) => Out,
): { items: Out[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map(toOut),
    next_cursor: more && last !== undefined ? encodeCursor(keyOf(last)) : null,
  };
}

/**
 * Checks a decoded cursor against the expected key shape (`['number', 'string']`), throwing
 * the same validation_error as an undecodable one.
 */
export function cursorKey<T extends unknown[]>(
  after: unknown[] | null,
  types: Array<'number' | 'string'>,
): T | null {
  if (after === null) return null;
  if (
    after.length !== types.length ||
    after.some((v, i) => typeof v !== types[i] || (typeof v === 'number' && !Number.isFinite(v)))
  ) {
    throw invalid({
      field: 'cursor',
      in: 'query',
      code: 'invalid',
      message: 'is not a cursor this list gave out',
    });
  }
  return after as T;
}
