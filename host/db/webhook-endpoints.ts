/**
 * Outbound webhook endpoints (migration 0020): queries on `webhook_endpoints`. The signing
 * secrets are stored as the caller gives them: sealed by host/webhooks/secret-box.ts, which
 * also opens them (this module never sees them readable, except rows stored before sealing). Not the provider's inbound webhooks
 * (host/db/webhook-events.ts).
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** One stored endpoint. */
export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  description: string;
  eventTypes: string[];
  secret: string;
  /** The secret before the last rotation, which also signs until `previousSecretUntil`. */
  previousSecret: string | null;
  previousSecretUntil: EpochMs | null;
  enabled: boolean;
  /** `failing`: turned off by the service after failing for days; null otherwise. */
  disabledReason: 'failing' | null;
  /** First failed attempt since the last success, or null. */
  failingSince: EpochMs | null;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

interface Row {
  id: string;
  account_id: string;
  url: string;
  description: string;
  event_types: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  enabled: number;
  disabled_reason: 'failing' | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

const fromRow = (r: Row): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  url: r.url,
  description: r.description,
  eventTypes: JSON.parse(r.event_types) as string[],
  secret: r.secret,
  previousSecret: r.previous_secret,
  previousSecretUntil: r.previous_secret_until,
  enabled: r.enabled === 1,
  disabledReason: r.disabled_reason,
  failingSince: r.failing_since,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const COLUMNS =
  'id, account_id, url, description, event_types, secret, previous_secret, previous_secret_until, enabled, disabled_reason, failing_since, created_at, updated_at';

/** Stores a new endpoint. */
export async function insertWebhookEndpoint(
  db: Db,
  e: Pick<
    WebhookEndpoint,
    'id' | 'accountId' | 'url' | 'description' | 'eventTypes' | 'secret' | 'enabled' | 'createdAt'
  >,
): Promise<WebhookEndpoint> {
  await db.run(
    `INSERT INTO webhook_endpoints (id, account_id, url, description, event_types, secret, enabled, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      e.id,
      e.accountId,
      e.url,
      e.description,
      JSON.stringify(e.eventTypes),
      e.secret,
      e.enabled ? 1 : 0,
      e.createdAt,
      e.createdAt,
    ],
  );
  return {
    ...e,
    previousSecret: null,
    previousSecretUntil: null,
    disabledReason: null,
    failingSince: null,
    updatedAt: e.createdAt,
  };
}

/** How many endpoints the account has. */
export async function countWebhookEndpoints(db: Db, accountId: string): Promise<number> {
  return (await db.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ?',
    [accountId],
  ))!.n;
}

/** The account's endpoint with this id. */
export async function getWebhookEndpoint(
  db: Db,
  accountId: string,
  id: string,
): Promise<WebhookEndpoint | undefined> {
  const r = await db.get<Row>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ? AND account_id = ?`,
    [id, accountId],
  );
  return r && fromRow(r);
}

/** An endpoint by id alone (the delivery worker). */
export async function findWebhookEndpoint(
  db: Db,
  id: string,
): Promise<WebhookEndpoint | undefined> {
  const r = await db.get<Row>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ?`, [id]);
  return r && fromRow(r);
}

/** One page of the account's endpoints, newest first (created_at, then id, both descending). */
export async function listWebhookEndpoints(
  db: Db,
  accountId: string,
  limit: number,
  after: { createdAt: EpochMs; id: string } | null,
): Promise<WebhookEndpoint[]> {
  const rows = after
    ? await db.all<Row>(
        `SELECT ${COLUMNS} FROM webhook_endpoints WHERE account_id = ? AND (created_at < ? OR (created_at = ? AND id < ?))
         ORDER BY created_at DESC, id DESC LIMIT ?`,
        [accountId, after.createdAt, after.createdAt, after.id, limit],
      )
    : await db.all<Row>(
        `SELECT ${COLUMNS} FROM webhook_endpoints WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
        [accountId, limit],
      );
  return rows.map(fromRow);
}

/** What an update may change. */
export interface WebhookEndpointChange {
  url?: string;
  description?: string;
  eventTypes?: string[];
  /** Turning on clears the failure record (`disabled_reason`, `failing_since`). */
  enabled?: boolean;
}

/** Applies `change`; the endpoint after it, or undefined when the account has no such endpoint. */
export async function updateWebhookEndpoint(
  db: Db,
  accountId: string,
  id: string,
  change: WebhookEndpointChange,
  now: EpochMs,
): Promise<WebhookEndpoint | undefined> {
  const enabled = change.enabled === undefined ? null : change.enabled ? 1 : 0;
  const r = await db.run(
    `UPDATE webhook_endpoints SET url = COALESCE(CAST(@url AS text), url),
       description = COALESCE(CAST(@description AS text), description),
       event_types = COALESCE(CAST(@types AS text), event_types),
       enabled = COALESCE(CAST(@enabled AS bigint), enabled),
       disabled_reason = CASE WHEN CAST(@enabled AS bigint) IS NULL THEN disabled_reason ELSE NULL END,
       failing_since = CASE WHEN CAST(@enabled AS bigint) = 1 THEN NULL ELSE failing_since END,
       updated_at = @now
     WHERE id = @id AND account_id = @accountId`,
    {
      id,
      accountId,
      now,
      url: change.url ?? null,
      description: change.description ?? null,
      types: change.eventTypes === undefined ? null : JSON.stringify(change.eventTypes),
      enabled,
    },
  );
  return r.changes === 1 ? getWebhookEndpoint(db, accountId, id) : undefined;
}

/** Deletes the endpoint and (by cascade) its deliveries. Returns false when the account has no such endpoint. */
export async function deleteWebhookEndpoint(
  db: Db,
  accountId: string,
  id: string,
): Promise<boolean> {
  return (
    (await db.run('DELETE FROM webhook_endpoints WHERE id = ? AND account_id = ?', [id, accountId]))
      .changes === 1
  );
}

/**
 * Replaces the secret; the old one keeps signing (a second signature) until `previousUntil`, so
 * a receiver can switch without losing deliveries.
 */
export async function rotateWebhookSecret(
  db: Db,
  accountId: string,
  id: string,
  secret: string,
  previousUntil: EpochMs,
  now: EpochMs,
): Promise<WebhookEndpoint | undefined> {
  const r = await db.run(
    `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ?, updated_at = ?
     WHERE id = ? AND account_id = ?`,
    [previousUntil, secret, now, id, accountId],
  );
  return r.changes === 1 ? getWebhookEndpoint(db, accountId, id) : undefined;
}

/** Erases the previous secrets whose grace period ended by `now` (they sign nothing more). */
export async function erasePreviousSecrets(db: Db, now: EpochMs): Promise<void> {
  await db.run(
    'UPDATE webhook_endpoints SET previous_secret = NULL, previous_secret_until = NULL WHERE previous_secret_until IS NOT NULL AND previous_secret_until <= ?',
    [now],
  );
}

/** Endpoints with a secret (or previous secret) stored without the sealed `prefix`. */
export async function listReadableSecrets(
  db: Db,
  prefix: string,
): Promise<Array<{ id: string; secret: string; previousSecret: string | null }>> {
  const rows = await db.all<{ id: string; secret: string; previous_secret: string | null }>(
    `SELECT id, secret, previous_secret FROM webhook_endpoints
     WHERE substr(secret, 1, ?) <> ? OR (previous_secret IS NOT NULL AND substr(previous_secret, 1, ?) <> ?)`,
    [prefix.length, prefix, prefix.length, prefix],
  );
  return rows.map((r) => ({ id: r.id, secret: r.secret, previousSecret: r.previous_secret }));
}

/** Replaces an endpoint's stored secrets when they are still `from` (a rotation meanwhile wins). */
export async function storeSecrets(
  db: Db,
  id: string,
  change: {
    from: { secret: string; previousSecret: string | null };
    to: { secret: string; previousSecret: string | null };
  },
): Promise<void> {
  await db.run(
    `UPDATE webhook_endpoints SET secret = ?, previous_secret = ?
     WHERE id = ? AND secret = ? AND (previous_secret = ? OR (previous_secret IS NULL AND CAST(? AS text) IS NULL))`,
    [
      change.to.secret,
      change.to.previousSecret,
      id,
      change.from.secret,
      change.from.previousSecret,
      change.from.previousSecret,
    ],
  );
}

/** A delivery succeeded: the endpoint is not failing. */
export async function markEndpointHealthy(db: Db, id: string): Promise<void> {
  await db.run(
    'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL',
    [id],
  );
}

/**
 * Counts a timed-out attempt (the slow lane's measure, host/webhooks/rules.ts), or resets the
 * count after an attempt that got an answer or failed at once.
 */
export async function noteEndpointTimeout(db: Db, id: string, timedOut: boolean): Promise<void> {
  if (timedOut)
    await db.run('UPDATE webhook_endpoints SET timeouts = timeouts + 1 WHERE id = ?', [id]);
  else
    await db.run('UPDATE webhook_endpoints SET timeouts = 0 WHERE id = ? AND timeouts <> 0', [id]);
}

/** A delivery failed: the start of the failure run (kept when one is going on). */
export async function markEndpointFailing(
  db: Db,
  id: string,
  at: EpochMs,
): Promise<EpochMs | null> {
  await db.run(
    'UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?) WHERE id = ?',
    [at, id],
  );
  return (
    (
      await db.get<{ failing_since: number | null }>(
        'SELECT failing_since FROM webhook_endpoints WHERE id = ?',
        [id],
      )
    )?.failing_since ?? null
  );
}

/**
 * Turns the endpoint off (reason `failing`) when it is still on and has failed every attempt
 * since `failingBefore` or earlier. Returns whether this call turned it off (exactly one caller
 * does, whichever host: it tells the owner).
 */
export async function disableFailingEndpoint(
  db: Db,
  id: string,
  failingBefore: EpochMs,
  now: EpochMs,
): Promise<boolean> {
  const r = await db.run(
    `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'failing', updated_at = ?
     WHERE id = ? AND enabled = 1 AND failing_since IS NOT NULL AND failing_since <= ?`,
    [now, id, failingBefore],
  );
  return r.changes === 1;
}

/** Deletes every endpoint of the account (account deletion: its deliveries stop at once). */
export async function deleteAccountWebhooks(db: Db, accountId: string): Promise<void> {
  await db.run('DELETE FROM webhook_endpoints WHERE account_id = ?', [accountId]);
  await db.run('DELETE FROM webhook_outbox WHERE account_id = ?', [accountId]);
}
