/** The engine's SQLite store, as the host uses it (it lives in `engine/sqlite`). @module */
export { createSqliteStore } from '../../engine/sqlite/index.js';
export type { SqliteStore, SqliteStoreOptions } from '../../engine/sqlite/index.js';
