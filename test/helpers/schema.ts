/**
 * A database's schema as plain data, to compare two databases made different ways (the
 * engine's tables rendered from their definitions against the DDL written before, a new
 * service database against one made by the old migrations): what the database itself reports,
 * not the text that made it.
 * - SQLite: per table PRAGMA table_list (strict), table_xinfo (names, order, types, NOT NULL,
 *   defaults, primary key), foreign_key_list, the CHECK clauses of its CREATE statement, and
 *   per index index_list (unique, origin, partial), index_xinfo and its CREATE INDEX statement
 *   (whitespace and comments normalised).
 * - PostgreSQL: information_schema.columns, pg_indexes and pg_constraint of one schema.
 */
import type Sqlite from 'better-sqlite3';
import type pg from 'pg';

/** `sql` without comments, its whitespace collapsed (none inside parentheses' edges). */
export function normalizeSql(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')')
    .trim();
}

/** The CHECK (…) clauses of a CREATE TABLE statement, normalised, in order. */
export function checkClauses(sql: string): string[] {
  const text = normalizeSql(sql);
  const out: string[] = [];
  const re = /\bCHECK\s*\(/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let depth = 0;
    let quoted = false;
    let i = m.index + m[0].length - 1;
    for (; i < text.length; i++) {
      const ch = text[i];
      if (ch === "'") quoted = !quoted;
      else if (!quoted && ch === '(') depth++;
      else if (!quoted && ch === ')' && --depth === 0) break;
    }
    out.push(text.slice(m.index, i + 1));
  }
  return out;
}

/** The schema of `tables` (default: every table but SQLite's own). */
export function sqliteSchema(
  db: Sqlite.Database,
  tables?: readonly string[],
): Record<string, unknown> {
  const names =
    tables ??
    (db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[]);
  const sqlOf = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck();
  const out: Record<string, unknown> = {};
  for (const t of [...names].sort()) {
    const [list] = db.pragma(`table_list("${t}")`) as {
      type: string;
      ncol: number;
      wr: number;
      strict: number;
    }[];
    if (!list) throw new Error(`no table ${t}`);
    const indexes = (
      db.pragma(`index_list("${t}")`) as {
        name: string;
        unique: number;
        origin: string;
        partial: number;
      }[]
    )
      .map((ix) => ({
        name: ix.name,
        unique: ix.unique,
        origin: ix.origin,
        partial: ix.partial,
        columns: db.pragma(`index_xinfo("${ix.name}")`),
        sql: normalizeSql((sqlOf.get(ix.name) as string | null) ?? ''), // '' for the primary key's own index
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    out[t] = {
      table: { type: list.type, ncol: list.ncol, wr: list.wr, strict: list.strict },
      columns: db.pragma(`table_xinfo("${t}")`),
      foreignKeys: db.pragma(`foreign_key_list("${t}")`),
      checks: checkClauses(sqlOf.get(t) as string),
      indexes,
    };
  }
  return out;
}

/** The schema of the tables of PostgreSQL schema `schema` (names qualified by it are shown unqualified). */
export async function postgresSchema(
  client: pg.ClientBase,
  schema: string,
): Promise<Record<string, unknown>> {
  const unqualify = (s: string) => s.replaceAll(`${schema}.`, '');
  const columns = await client.query(
    `SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default, collation_name, is_identity
     FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
    [schema],
  );
  const indexes = await client.query(
    'SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname',
    [schema],
  );
  const constraints = await client.query(
    `SELECT c.relname AS table_name, con.conname, con.contype, pg_get_constraintdef(con.oid) AS def
     FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 ORDER BY c.relname, con.conname`,
    [schema],
  );
  return {
    columns: columns.rows,
    indexes: indexes.rows.map((r: { indexdef: string }) => ({
      ...r,
      indexdef: unqualify(r.indexdef),
    })),
    constraints: constraints.rows.map((r: { def: string }) => ({ ...r, def: unqualify(r.def) })),
  };
}
