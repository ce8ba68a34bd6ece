/**
 * Idempotency records: the first successful response of an Idem request, kept 24 hours per
 * scope (account) and key, and the claim of a request running under a key. See
 * `host/http/idempotency.ts` for the protocol.
 *
 * Two {@link IdempotencyStore}s on the same table `idempotency_keys`:
 * - {@link createIdempotencyStore} (SQLite, one process owns the database): the requests in
 *   flight are a table in process memory, and a duplicate awaits the first one's promise.
 * - {@link createSharedIdempotencyStore} (PostgreSQL, several hosts): a running request is a
 *   claim row (`state = 'running'`, a random `claim` token, `expires_at` = now +
 *   {@link IDEMPOTENCY_CLAIM_MS} so that a crashed host's claim lapses), inserted with
 *   `ON CONFLICT … DO UPDATE … WHERE expires_at <= now` (only a lapsed row is taken over);
 *   a duplicate on any host sees the claim and polls. Keeping the response turns the claim
 *   row into the kept record, only while the claim is still this run's (the token fences a
 *   run whose claim lapsed and was taken over); a run that keeps nothing deletes its claim.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { EpochMs } from '../../engine/index.js';
import type { Db } from './sql.js';

/** A stored response. */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  /** JSON text of the body, or null for an empty body. */
  body: string | null;
  createdAt: EpochMs;
}

/** How long a claim holds a key on the shared store before another host may take it over. */
export const IDEMPOTENCY_CLAIM_MS = 2 * 60 * 1000;

/** What {@link IdempotencyStore.claim} found. */
export type IdempotencyClaim =
  /** The key is this run's: run, then `keep` or `release` with the token. */
  | { kind: 'claimed'; token: string }
  /** A response is kept under the key (its fingerprint may differ). */
  | { kind: 'kept'; record: IdempotencyRecord }
  /**
   * Another run holds the key: `settled` resolves when it ends (same process), or is null
   * (another host's claim: poll).
   */
  | { kind: 'running'; fingerprint: string; settled: Promise<void> | null };

/** The idempotency records and claims of one database, as the HTTP pipeline uses them. */
export interface IdempotencyStore {
  /** The kept response, or the key claimed for this run, or the run holding it. */
  claim(scope: string, key: string, fingerprint: string, now: EpochMs): Promise<IdempotencyClaim>;
  /** Keeps `record` for the run holding `token` until `expiresAt`, and drops expired records. */
  keep(
    scope: string,
    key: string,
    token: string,
    record: IdempotencyRecord,
    expiresAt: EpochMs,
    now: EpochMs,
  ): Promise<void>;
  /** Ends the claim without keeping a response (an error, or a throw). */
  release(scope: string, key: string, token: string): Promise<void>;
}

interface Row {
  fingerprint: string;
  status: number;
  headers: string;
  body: string | null;
  created_at: number;
  state: string;
  expires_at: number;
}

const toRecord = (r: Row): IdempotencyRecord => ({
  fingerprint: r.fingerprint,
  status: Number(r.status),
  headers: JSON.parse(r.headers) as Record<string, string>,
  body: r.body,
  createdAt: Number(r.created_at),
});

/** The live (unexpired) kept record for scope and key. */
export async function findIdempotencyRecord(
  db: Db,
  scope: string,
  key: string,
  now: EpochMs,
): Promise<IdempotencyRecord | undefined> {
  const r = await db.get<Row>(
    `SELECT fingerprint, status, headers, body, created_at, state, expires_at FROM idempotency_keys
     WHERE scope = ? AND key = ? AND expires_at > ? AND state = 'done'`,
    [scope, key, now],
  );
  return r && toRecord(r);
}

/**
 * Stores a response, replacing an expired record with the same key, and drops expired
 * records (cheap: indexed on expires_at).
 */
export async function saveIdempotencyRecord(
  db: Db,
  scope: string,
  key: string,
  record: IdempotencyRecord,
  expiresAt: EpochMs,
  now: EpochMs,
): Promise<void> {
  await db.run('DELETE FROM idempotency_keys WHERE expires_at <= ?', [now]);
  await db.run(
    `INSERT INTO idempotency_keys (scope, key, fingerprint, status, headers, body, created_at, expires_at, state, claim)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'done', NULL)
     ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
       headers = excluded.headers, body = excluded.body, created_at = excluded.created_at,
       expires_at = excluded.expires_at, state = 'done', claim = NULL`,
    [
      scope,
      key,
      record.fingerprint,
      record.status,
      JSON.stringify(record.headers),
      record.body,
      record.createdAt,
      expiresAt,
    ],
  );
}

interface InFlight {
  fingerprint: string;
  token: string;
  done: Promise<void>;
  finish(): void;
}

/** {@link IdempotencyStore} on `db`, the runs in flight tracked in this process (SQLite). */
export function createIdempotencyStore(db: Db): IdempotencyStore {
  const table = new Map<string, InFlight>();
  let tokens = 0;
  const slotOf = (scope: string, key: string) => `${scope}\u0000${key}`;
  const end = (slot: string, token: string) => {
    const running = table.get(slot);
    if (running?.token !== token) return;
    table.delete(slot);
    running.finish();
  };
  return {
    async claim(scope, key, fingerprint, now) {
      const kept = await findIdempotencyRecord(db, scope, key, now);
      if (kept) return { kind: 'kept', record: kept };
      const slot = slotOf(scope, key);
      const running = table.get(slot);
      if (running)
        return { kind: 'running', fingerprint: running.fingerprint, settled: running.done };
      let finish!: () => void;
      const done = new Promise<void>((resolve) => (finish = resolve));
      const token = String(++tokens);
      table.set(slot, { fingerprint, token, done, finish });
      return { kind: 'claimed', token };
    },
    async keep(scope, key, token, record, expiresAt, now) {
      try {
        await saveIdempotencyRecord(db, scope, key, record, expiresAt, now);
      } finally {
        end(slotOf(scope, key), token);
      }
    },
    release(scope, key, token) {
      end(slotOf(scope, key), token);
      return Promise.resolve();
    },
  };
}

// Inserts a claim, or takes over a lapsed row (an expired record or a crashed host's claim).
const CLAIM = `INSERT INTO idempotency_keys (scope, key, fingerprint, status, headers, body, created_at, expires_at, state, claim)
VALUES (@scope, @key, @fingerprint, 0, '{}', NULL, @now, @until, 'running', @token)
ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = 0, headers = '{}', body = NULL,
  created_at = excluded.created_at, expires_at = excluded.expires_at, state = 'running', claim = excluded.claim
WHERE idempotency_keys.expires_at <= @now
RETURNING claim`;

/** {@link IdempotencyStore} whose runs in flight are claim rows in `db`, shared by every host. */
export function createSharedIdempotencyStore(db: Db): IdempotencyStore {
  return {
    async claim(scope, key, fingerprint, now) {
      for (;;) {
        const token = randomUUID();
        const mine = await db.get<{ claim: string }>(CLAIM, {
          scope,
          key,
          fingerprint,
          now,
          until: now + IDEMPOTENCY_CLAIM_MS,
          token,
        });
        if (mine) return { kind: 'claimed', token };
        const r = await db.get<Row>(
          'SELECT fingerprint, status, headers, body, created_at, state, expires_at FROM idempotency_keys WHERE scope = ? AND key = ?',
          [scope, key],
        );
        // Gone (released) or lapsed since the insert: claim again.
        if (!r || Number(r.expires_at) <= now) continue;
        if (r.state === 'done') return { kind: 'kept', record: toRecord(r) };
        return { kind: 'running', fingerprint: r.fingerprint, settled: null };
      }
    },
    async keep(scope, key, token, record, expiresAt, now) {
      await db.run(
        'DELETE FROM idempotency_keys WHERE expires_at <= ? AND NOT (scope = ? AND key = ?)',
        [now, scope, key],
      );
      // Fenced by the token: a run whose claim lapsed and was taken over keeps nothing.
      await db.run(
        `UPDATE idempotency_keys SET status = @status, headers = @headers, body = @body, created_at = @created,
           expires_at = @expires, state = 'done', claim = NULL
         WHERE scope = @scope AND key = @key AND claim = @token`,
        {
          status: record.status,
          headers: JSON.stringify(record.headers),
          body: record.body,
          created: record.createdAt,
          expires: expiresAt,
          scope,
          key,
          token,
        },
      );
    },
    async release(scope, key, token) {
      await db.run(
        "DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND claim = ? AND state = 'running'",
        [scope, key, token],
      );
    },
  };
}
