/**
 * A throwaway schema on a test PostgreSQL server, for tests that need tables of their own on a
 * server others share (scripts/with-pg.sh starts one).
 * @module
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * A new schema on the PostgreSQL server at `base`: `url` connects with it as the search path
 * (and `options`, more `-c name=value` settings, after it); `drop` removes it and its tables.
 */
export async function throwawaySchema(
  base: string,
  options = '',
): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema} ${options}`.trim());
  return { url: url.toString(), drop: () => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`) };
}
