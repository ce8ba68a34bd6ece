/**
 * The state several hosts must share (issue 17, docs/decisions/0013-shared-state.md), picked
 * once per app by the database's dialect: on SQLite (one process owns the database) in
 * process memory; on PostgreSQL (several hosts on one database) in the database. Built in
 * host/compose.ts and handed to the modules that count, queue or claim.
 * @module
 */
import { createMemoryKeyedQueues, createPgKeyedQueues, type KeyedQueues } from './rate-limit/one-at-a-time.js';
import { createIdempotencyStore, createSharedIdempotencyStore, type IdempotencyStore } from './db/idempotency.js';
import type { PostgresDb, SqliteDb } from './db/sql.js';
import { createDbWindowStore, createMemoryWindowStore, type WindowStore } from './rate-limit/windows.js';

/** Shared (or, on SQLite, per-process) state. */
export interface SharedState {
  /** Rate-limit windows (host/rate-limit/windows.ts). */
  readonly rateWindows: WindowStore;
  /** Keyed one-at-a-time queues for code checks (host/rate-limit/one-at-a-time.ts). */
  readonly queues: KeyedQueues;
  /** Idempotency records and the claims of requests in flight (host/db/idempotency.ts). */
  readonly idempotency: IdempotencyStore;
  /** Frees what the implementations hold (the advisory-lock pool); before the database closes. */
  close(): Promise<void>;
}

/** Memory on SQLite, the database on PostgreSQL. */
export function createSharedState(db: SqliteDb | PostgresDb): SharedState {
  const parts =
    db.dialect === 'postgres'
      ? { rateWindows: createDbWindowStore(db), queues: createPgKeyedQueues(db), idempotency: createSharedIdempotencyStore(db) }
      : { rateWindows: createMemoryWindowStore(), queues: createMemoryKeyedQueues(), idempotency: createIdempotencyStore(db) };
  return { ...parts, close: () => parts.queues.close() };
}
