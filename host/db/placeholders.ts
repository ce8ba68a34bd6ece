/**
 * Placeholders for PostgreSQL: the host writes `?` or `@name` as better-sqlite3 takes them, and
 * each text is translated once (cached) to `$1..$n` with the name of its prepared statement.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Params } from './db.js';

/** A text translated for PostgreSQL: `$n` placeholders, and the names in `$n` order when named. */
export interface PgText {
  text: string;
  /**
   * The name of its prepared statement: node-postgres prepares a named statement once per
   * pooled connection and then only binds and executes it (no Parse per query: docs/decisions/0019).
   */
  name: string;
  /** Positional: how many `?`. */
  count: number;
  /** Named: the parameter names, `$1` first; null for positional texts. */
  names: readonly string[] | null;
}

const IDENT_START = /[A-Za-z_]/;
const IDENT = /[A-Za-z0-9_]/;
const translated = new Map<string, PgText>();

/**
 * Translates `?` and `@name` placeholders to PostgreSQL's `$n`, skipping string literals
 * (`'…'`, `E'…'`), quoted identifiers (`"…"`), dollar-quoted strings and comments. Cached per text.
 */
export function toPostgres(text: string): PgText {
  const cached = translated.get(text);
  if (cached) return cached;
  let out = '';
  let count = 0;
  const names: string[] = [];
  const index = new Map<string, number>();
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= n) break;
        if (text[j] === c) {
          if (text[j + 1] === c) j += 2;
          else break;
        } else if (c === "'" && text[j] === '\\' && (text[i - 1] === 'E' || text[i - 1] === 'e'))
          j += 2;
        else j++;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && text[i + 1] === '-') {
      const j = text.indexOf('\n', i);
      const end = j < 0 ? n : j;
      out += text.slice(i, end);
      i = end;
    } else if (c === '/' && text[i + 1] === '*') {
      const j = text.indexOf('*/', i + 2);
      const end = j < 0 ? n : j + 2;
      out += text.slice(i, end);
      i = end;
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(text.slice(i, i + 64))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i, i + 64))![0];
      const j = text.indexOf(tag, i + tag.length);
      const end = j < 0 ? n : j + tag.length;
      out += text.slice(i, end);
      i = end;
    } else if (c === '?') {
      count++;
      out += `$${count}`;
      i++;
    } else if (c === '@' && IDENT_START.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < n && IDENT.test(text[j]!)) j++;
      const name = text.slice(i + 1, j);
      let k = index.get(name);
      if (k === undefined) {
        names.push(name);
        k = names.length;
        index.set(name, k);
      }
      out += `$${k}`;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  if (count > 0 && names.length > 0)
    throw new Error(`sql: a text mixes ? and @name placeholders: ${text}`);
  const name = `wk_${createHash('sha1').update(out).digest('base64url').slice(0, 20)}`;
  const result: PgText = { text: out, name, count, names: names.length > 0 ? names : null };
  translated.set(text, result);
  return result;
}

/** The values for a translated text, in `$n` order. */
export function pgValues(t: PgText, params: Params | undefined, text: string): unknown[] {
  if (t.names) {
    if (params === undefined || Array.isArray(params))
      throw new Error(`sql: named parameters expected: ${text}`);
    const named = params as Readonly<Record<string, unknown>>;
    return t.names.map((name) => {
      if (!(name in named)) throw new Error(`sql: missing named parameter @${name}: ${text}`);
      return pgValue(named[name]);
    });
  }
  const list =
    params === undefined ? [] : Array.isArray(params) ? (params as readonly unknown[]) : null;
  if (list === null) throw new Error(`sql: positional parameters expected: ${text}`);
  if (list.length !== t.count)
    throw new Error(`sql: ${t.count} parameters expected, ${list.length} given: ${text}`);
  return list.map(pgValue);
}

// better-sqlite3 refuses booleans, so callers pass 0/1; undefined is null on both.
const pgValue = (v: unknown): unknown => (v === undefined ? null : v);
