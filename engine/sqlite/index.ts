/**
 * The engine's Store on SQLite (better-sqlite3), importable without the HTTP host:
 * `import { createSqliteStore } from '@wakeup/engine/sqlite'`. better-sqlite3 is this entry's
 * only extra dependency (an optional peer of the package).
 * @module
 * @packageDocumentation
 */
export { createSqliteStore } from './store.js';
export type { SqliteStore, SqliteStoreOptions } from './store.js';
export { createSqliteReads } from './reads.js';
export type { SqliteSettle } from './reads.js';
export { ensureEngineSchema, ENGINE_SCHEMA_SQL } from './schema.js';
export { OCCURRENCE_COLUMNS, occurrenceToRow, rowToOccurrence } from './rows.js';
export type { OccurrenceRow } from './rows.js';
export { ATTEMPT_COLUMNS, attemptToRow, rowToAttempt } from './rows.js';
export { SERIES_COLUMNS, seriesToRow, rowToSeries } from './rows.js';
