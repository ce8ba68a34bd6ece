/** Occurrence rows: the engine's SQLite mappers (they live in `engine/sqlite`). @module */
export { OCCURRENCE_COLUMNS, occurrenceToRow, rowToOccurrence } from '../../engine/sqlite/index.js';
export type { OccurrenceRow } from '../../engine/sqlite/index.js';
