/**
 * The DDL of the engine's table definitions (./define.ts) in either dialect, as idempotent
 * statements (`CREATE … IF NOT EXISTS`): every SQLite table STRICT; on PostgreSQL the
 * collations and the columns and index shapes that are PostgreSQL's own.
 * @module
 */
import { columnsOf, type Column, type Dialect, type LogicalType, type Table } from './define.js';

const TYPES: Record<LogicalType, Record<Dialect, string>> = {
  text: { sqlite: 'TEXT', postgres: 'text' },
  int: { sqlite: 'INTEGER', postgres: 'integer' },
  int64: { sqlite: 'INTEGER', postgres: 'bigint' },
  epoch_ms: { sqlite: 'INTEGER', postgres: 'bigint' },
  boolean: { sqlite: 'INTEGER', postgres: 'boolean' },
  json: { sqlite: 'TEXT', postgres: 'jsonb' },
};

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

function columnSql<R>(c: Column<R>, dialect: Dialect): string {
  const parts = [TYPES[c.type][dialect]];
  if (c.identity) return [...parts, 'GENERATED ALWAYS AS IDENTITY'].join(' ');
  if (c.collate && dialect === 'postgres') parts.push(`COLLATE "${c.collate}"`);
  if (c.primaryKey) parts.push('PRIMARY KEY');
  else if (!c.nullable) parts.push('NOT NULL');
  if (c.default !== undefined) parts.push(`DEFAULT ${c.default}`);
  if (c.references)
    parts.push(`REFERENCES ${c.references.table}(${c.references.column}) ON DELETE CASCADE`);
  if (c.oneOf) parts.push(`CHECK (${c.name} IN (${c.oneOf.map(quote).join(', ')}))`);
  return parts.join(' ');
}

/** The statements that create `t` and its indexes in `dialect` when absent. */
export function renderTable<R>(t: Table<R>, dialect: Dialect): string {
  if (t.only !== undefined && t.only !== dialect)
    throw new Error(`${t.name} is a ${t.only} table only`);
  const columns = columnsOf(t, dialect);
  const width = Math.max(...columns.map((c) => c.name.length));
  const lines = columns.map((c, i) => {
    const line = `  ${c.name.padEnd(width)}  ${columnSql(c, dialect)}${i < columns.length - 1 ? ',' : ''}`;
    return c.note ? `${line}  -- ${c.note}` : line;
  });
  const out = [
    `CREATE TABLE IF NOT EXISTS ${t.name} (\n${lines.join('\n')}\n)${dialect === 'sqlite' ? ' STRICT' : ''};`,
  ];
  for (const ix of t.indexes) {
    const on = (dialect === 'postgres' ? ix.postgres?.on : undefined) ?? ix.on;
    const where = (dialect === 'postgres' ? ix.postgres?.where : undefined) ?? ix.where;
    if (ix.note) out.push(`-- ${ix.note}`);
    out.push(
      `CREATE INDEX IF NOT EXISTS ${ix.name} ON ${t.name} (${on.join(', ')})${where ? ` WHERE ${where}` : ''};`,
    );
  }
  return out.join('\n') + '\n';
}

/** The statements for several tables, in order (a referenced table before the one that references it). */
export function renderTables(tables: readonly Table<any>[], dialect: Dialect): string {
  return '\n' + tables.map((t) => renderTable(t, dialect)).join('\n');
}
