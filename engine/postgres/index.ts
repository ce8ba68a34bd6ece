/**
 * The engine's Store on PostgreSQL (node-postgres), importable without the HTTP host:
 * `import { createPostgresStore, ensurePostgresEngineSchema } from '@wakeup/engine/postgres'`.
 * `pg` is this entry's only extra dependency (an optional peer of the package). Several
 * processes may share one database: they claim due work by leases (`DueQuery.lease`).
 * @module
 * @packageDocumentation
 */
export { createPostgresStore } from './store.js';
export type { PostgresStore, PostgresStoreOptions } from './store.js';
export { createPostgresReads } from './reads.js';
export { ensurePostgresEngineSchema, POSTGRES_ENGINE_SCHEMA_SQL } from './schema.js';
export {
  ATTEMPT_COLUMNS,
  attemptToRow,
  OCCURRENCE_COLUMNS,
  occurrenceToRow,
  rowToAttempt,
  rowToOccurrence,
  rowToSeries,
  SERIES_COLUMNS,
  seriesToRow,
} from './rows.js';
export type { PooledConnection, Queryable, Row } from './rows.js';
