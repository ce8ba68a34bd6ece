/**
 * Counts the SQL statements this process runs and the rows they answer, for tests that guard a
 * path by counts (the test server runs in the test's process): better-sqlite3's statements
 * and `exec`, and node-postgres' queries.
 * @module
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Statements run and rows answered. */
export interface Counts {
  statements: number;
  rows: number;
}

/**
 * Starts counting the statements whose SQL text `only` accepts (all of them without it); `stop`
 * puts the drivers back.
 */
export function countStatements(only?: (sql: string) => boolean): {
  read(): Counts;
  stop(): void;
} {
  const counts: Counts = { statements: 0, rows: 0 };
  const undo: Array<() => void> = [];
  const patch = (
    proto: Record<string, unknown>,
    name: string,
    sqlOf: (self: unknown, args: unknown[]) => string,
    rowsOf: (result: unknown) => number,
  ) => {
    const original = proto[name] as (...args: unknown[]) => unknown;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      if (only && !only(sqlOf(this, args))) return original.apply(this, args);
      counts.statements++;
      const result = original.apply(this, args);
      if (result instanceof Promise) return result.then((r) => ((counts.rows += rowsOf(r)), r));
      counts.rows += rowsOf(result);
      return result;
    };
    undo.push(() => (proto[name] = original));
  };
  const Sqlite = require('better-sqlite3') as { prototype: Record<string, unknown> } & (new (
    f: string,
  ) => {
    prepare(s: string): object;
    close(): void;
  });
  const probe = new Sqlite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  const source = (self: unknown) => (self as { source: string }).source;
  const many = (r: unknown) => (Array.isArray(r) ? r.length : r === undefined ? 0 : 1);
  patch(statement, 'run', source, () => 0);
  patch(statement, 'get', source, many);
  patch(statement, 'all', source, many);
  // An iterator's rows are counted as they are read.
  const iterate = statement.iterate as (...args: unknown[]) => Iterable<unknown>;
  statement.iterate = function* (this: unknown, ...args: unknown[]) {
    if (only && !only(source(this))) return yield* iterate.apply(this, args);
    counts.statements++;
    for (const row of iterate.apply(this, args)) {
      counts.rows++;
      yield row;
    }
  };
  undo.push(() => (statement.iterate = iterate));
  patch(
    Sqlite.prototype,
    'exec',
    (_, args) => String(args[0]),
    () => 0,
  );
  // node-postgres answers by promise or, from its pool, by a callback: count the rows of both.
  const pg = require('pg') as { Client: { prototype: Record<string, unknown> } };
  const rowsOf = (r: unknown) =>
    r && typeof r === 'object' && 'rows' in r && Array.isArray(r.rows) ? r.rows.length : 0;
  const textOf = (args: unknown[]) => {
    const q = args[0] as string | { text?: string } | undefined;
    return typeof q === 'string' ? q : (q?.text ?? '');
  };
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    if (only && !only(textOf(args))) return query.apply(this, args);
    counts.statements++;
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (err: unknown, result: unknown) => {
        counts.rows += rowsOf(result);
        return (callback as (e: unknown, r: unknown) => unknown)(err, result);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    return result instanceof Promise
      ? result.then((r: unknown) => ((counts.rows += rowsOf(r)), r))
      : result;
  };
  undo.push(() => (pg.Client.prototype.query = query));
  return { read: () => ({ ...counts }), stop: () => undo.reverse().forEach((u) => u()) };
}
