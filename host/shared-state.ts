/**
 * The state several hosts must share (docs/decisions/0013-shared-state.md), picked
 * once per app by the database's dialect: on SQLite (one process owns the database) in
 * process memory; on PostgreSQL (several hosts on one database) in the database. Built in
 * host/compose.ts and handed to the modules that count, queue or claim.
 * @module
 */
import {
  createMemoryKeyedQueues,
  createPgKeyedQueues,
  type KeyedQueues,
} from './rate-limit/one-at-a-time.js';
import {
  createIdempotencyStore,
  createSharedIdempotencyStore,
  type IdempotencyStore,
} from './db/idempotency.js';
import type { PostgresDb, SqliteDb } from './db/sql.js';
import { createDbWindowStore, createMemoryWindowStore } from './rate-limit/windows.js';
import { realTimeWindows, type RealTimeWindows } from './rate-limit/real-time.js';

/** Shared (or, on SQLite, per-process) state. */
export interface SharedState {
  /**
   * Rate-limit windows (host/rate-limit/windows.ts), on time that really passes once the root
   * calls `countRealTime` (host/rate-limit/real-time.ts).
   */
  readonly rateWindows: RealTimeWindows;
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
      ? {
          windows: createDbWindowStore(db),
          queues: createPgKeyedQueues(db),
          idempotency: createSharedIdempotencyStore(db),
        }
      : {
          windows: createMemoryWindowStore(),
          queues: createMemoryKeyedQueues(),
          idempotency: createIdempotencyStore(db),
        };
  return {
    rateWindows: realTimeWindows(parts.windows),
    queues: parts.queues,
    idempotency: parts.idempotency,
    close: () => parts.queues.close(),
  };
}
