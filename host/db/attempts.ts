/** Attempt rows: the engine's SQLite mappers (they live in `engine/sqlite`). @module */
export { ATTEMPT_COLUMNS, attemptToRow, rowToAttempt } from '../../engine/sqlite/index.js';
