/**
 * The outbound webhook outbox (migration 0020; docs/decisions/0023): events written in the
 * transaction of the change they report, each with its deliveries (one per enabled endpoint of
 * the account that subscribes to its type) in the same statements, so that nothing is left to
 * do in the background for an account without endpoints. The delivery worker
 * (host/webhooks/worker.ts) sends the deliveries.
 *
 * An event's id is its `webhook-id`: derived from a key naming what it reports (an occurrence
 * and its final status, a key-9 call, ...), so that writing the same event again (a unit of
 * work computed twice, a change applied twice) is a no-op and a receiver deduplicates on it.
 *
 * Whoever records an event inside a transaction: {@link recordEvent} with the transaction's
 * handle. The worker is nudged after the write (in this process; other hosts poll).
 * @module
 */
import { createHash } from 'node:crypto';
import type { EpochMs } from '../../engine/index.js';
import { isoInstant } from '../instant.js';
import type { Db } from './sql.js';

/** Every event type an endpoint may subscribe to (schema WebhookEventType). */
export const WEBHOOK_EVENT_TYPES = [
  'occurrence.confirmed',
  'occurrence.missed',
  'occurrence.unconfirmed',
  'occurrence.failed',
  'occurrence.cancelled',
  'calls.revoked',
  'phone_number.blocked',
  'phone_number.unblocked',
  'schedule.completed',
  'contact.told',
] as const;

/** A subscribable event type. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The event POST /webhook-endpoints/{id}/test sends (to that endpoint only, whatever it subscribes to). */
export const TEST_EVENT_TYPE = 'webhook.test';

/** One event to record. */
export interface NewWebhookEvent {
  accountId: string;
  type: WebhookEventType | typeof TEST_EVENT_TYPE;
  /**
   * Names what the event reports, e.g. `occurrence:<id>:confirmed`: the same key gives the same
   * `webhook-id`, and recording it again changes nothing.
   */
  key: string;
  /** When it happened (the payload's `timestamp`). */
  at: EpochMs;
  /** The payload's `data`. */
  data: Record<string, unknown>;
}

/** The `webhook-id` of the event with this key: `evt_` and 32 hex digits. */
export function webhookEventId(key: string): string {
  return `evt_${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

/** The body sent for an event: `{id, type, timestamp, data}`. */
export function eventPayload(id: string, e: Pick<NewWebhookEvent, 'type' | 'at' | 'data'>): string {
  return JSON.stringify({ id, type: e.type, timestamp: isoInstant(e.at), data: e.data });
}

const recorded = new Set<() => void>();

/** Calls `fn` (soon, not synchronously) after each event this process records; returns the unsubscribe. */
export function onWebhookEventRecorded(fn: () => void): () => void {
  recorded.add(fn);
  return () => recorded.delete(fn);
}

/** Nudges the delivery workers of this process (after the caller's transaction, with luck; else their poll finds it). */
export function nudgeWebhookWorkers(): void {
  if (recorded.size === 0) return;
  setImmediate(() => {
    for (const fn of recorded) fn();
  });
}

/**
 * The id of an event's delivery to an endpoint: the md5 of `<event id>:<endpoint id>` written as
 * a UUID (PostgreSQL computes the same with `md5(...)::uuid`), so that a delivery is made once.
 */
export function webhookDeliveryId(eventId: string, endpointId: string): string {
  const h = createHash('md5').update(`${eventId}:${endpointId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A LIKE pattern matching a JSON array of strings that holds `type` (with `ESCAPE '\\'`). */
const holding = (type: string) => `%"${type.replace(/[\\%_]/g, '\\$&')}"%`;

/** PostgreSQL: the event and its deliveries in one statement (none when the event was stored before). */
const PG_RECORD = `WITH e AS (
    INSERT INTO webhook_outbox (id, account_id, type, payload, endpoint_id, created_at) VALUES (@id, @account, @type, @payload, NULL, @at)
    ON CONFLICT (id) DO NOTHING RETURNING id)
  INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status, next_attempt_at, created_at, updated_at)
  SELECT CAST(CAST(md5(e.id || ':' || p.id) AS uuid) AS text), e.id, p.id, @account, 'pending', @at, @at, @at
  FROM e JOIN webhook_endpoints p ON p.account_id = @account AND p.enabled = 1 AND p.event_types LIKE @pattern ESCAPE '\\'`;

/**
 * Records events (in the caller's transaction when `db` is its handle), each with a delivery
 * for every enabled endpoint of its account that subscribes to its type; an event whose id is
 * already stored is left as it is (its deliveries were made with it). Returns the ids.
 */
export async function recordEvents(
  db: Db,
  events: readonly NewWebhookEvent[],
  nudge = true,
): Promise<string[]> {
  const ids: string[] = [];
  for (const e of events) {
    const id = webhookEventId(e.key);
    ids.push(id);
    const payload = eventPayload(id, e);
    if (db.dialect === 'postgres') {
      await db.run(PG_RECORD, {
        id,
        account: e.accountId,
        type: e.type,
        payload,
        at: e.at,
        pattern: holding(e.type),
      });
      continue;
    }
    const stored = await db.run(
      `INSERT INTO webhook_outbox (id, account_id, type, payload, endpoint_id, created_at) VALUES (?, ?, ?, ?, NULL, ?)
       ON CONFLICT (id) DO NOTHING`,
      [id, e.accountId, e.type, payload, e.at],
    );
    if (stored.changes === 0) continue;
    const endpoints = await db.all<{ id: string }>(
      `SELECT id FROM webhook_endpoints WHERE account_id = ? AND enabled = 1 AND event_types LIKE ? ESCAPE '\\'`,
      [e.accountId, holding(e.type)],
    );
    for (const p of endpoints) {
      await db.run(
        `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)`,
        [webhookDeliveryId(id, p.id), id, p.id, e.accountId, e.at, e.at, e.at],
      );
    }
  }
  if (nudge && events.length > 0) nudgeWebhookWorkers();
  return ids;
}

/** {@link recordEvents} for one event; its id. */
export async function recordEvent(db: Db, event: NewWebhookEvent): Promise<string> {
  return (await recordEvents(db, [event]))[0]!;
}

/**
 * `contact.told`: a contact was texted about an occurrence. Call it with the
 * transaction handle that records the text, once per contact and occurrence.
 */
export async function recordContactTold(
  db: Db,
  e: {
    accountId: string;
    contactId: string;
    contactName: string;
    occurrenceId: string;
    scheduleId: string | null;
    /** The occurrence's final status that the text reported (missed, unconfirmed). */
    outcome: string;
    at: EpochMs;
  },
): Promise<string> {
  return recordEvent(db, {
    accountId: e.accountId,
    type: 'contact.told',
    key: `contact.told:${e.contactId}:${e.occurrenceId}`,
    at: e.at,
    data: {
      contact: { id: e.contactId, name: e.contactName },
      occurrence_id: e.occurrenceId,
      schedule_id: e.scheduleId,
      outcome: e.outcome,
      told_at: isoInstant(e.at),
    },
  });
}

/**
 * `phone_number.blocked` / `.unblocked` for every account holding the line (blocks belong to the
 * number, across accounts). Call it in the transaction that blocks or unblocks.
 */
export async function recordNumberEvent(
  db: Db,
  e: {
    e164: string;
    type: 'phone_number.blocked' | 'phone_number.unblocked';
    reason: string;
    source: string;
    at: EpochMs;
  },
): Promise<void> {
  const owners = await db.all<{ id: string; account_id: string; label: string }>(
    'SELECT id, account_id, label FROM phone_numbers WHERE e164 = ? AND deleted_at IS NULL',
    [e.e164],
  );
  const stamp = e.type === 'phone_number.blocked' ? 'blocked_at' : 'unblocked_at';
  await recordEvents(
    db,
    owners.map((n) => ({
      accountId: n.account_id,
      type: e.type,
      key: `${e.type}:${n.id}:${e.reason}:${e.at}`,
      at: e.at,
      data: {
        phone_number: { id: n.id, e164: e.e164, label: n.label },
        reason: e.reason,
        source: e.source,
        [stamp]: isoInstant(e.at),
      },
    })),
  );
}

/** What {@link recordTestEvent} did: the delivery's id, or the oldest test event of a full window. */
export type TestEventRecord = { ok: true; deliveryId: string } | { ok: false; oldestAt: EpochMs };

/**
 * Records a test event for one endpoint (whatever it subscribes to) with its delivery (POST
 * /webhook-endpoints/{id}/test), unless the endpoint already got `limit.max` test events since
 * `limit.since`. The count and the insert are one transaction, the endpoint's row locked on
 * PostgreSQL, so requests at once cannot pass the limit together.
 */
export async function recordTestEvent(
  db: Db,
  e: NewWebhookEvent & { endpointId: string },
  limit: { max: number; since: EpochMs },
): Promise<TestEventRecord> {
  const eventId = webhookEventId(e.key);
  const deliveryId = webhookDeliveryId(eventId, e.endpointId);
  const result = await db.tx(async (tx): Promise<TestEventRecord> => {
    if (tx.dialect === 'postgres')
      await tx.get('SELECT id FROM webhook_endpoints WHERE id = ? FOR UPDATE', [e.endpointId]);
    const recent = await tx.get<{ n: number; oldest: number | null }>(
      'SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM webhook_outbox WHERE endpoint_id = ? AND created_at > ?',
      [e.endpointId, limit.since],
    );
    if (Number(recent!.n) >= limit.max) return { ok: false, oldestAt: Number(recent!.oldest) };
    await tx.run(
      'INSERT INTO webhook_outbox (id, account_id, type, payload, endpoint_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [eventId, e.accountId, e.type, eventPayload(eventId, e), e.endpointId, e.at],
    );
    await tx.run(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status, next_attempt_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)`,
      [deliveryId, eventId, e.endpointId, e.accountId, e.at, e.at, e.at],
    );
    return { ok: true, deliveryId };
  });
  if (result.ok) nudgeWebhookWorkers();
  return result;
}

/** Deletes events (and by cascade their deliveries) recorded before `before`, at most `limit`; how many. */
export async function pruneWebhookOutbox(db: Db, before: EpochMs, limit = 1000): Promise<number> {
  return (
    await db.run(
      'DELETE FROM webhook_outbox WHERE id IN (SELECT id FROM webhook_outbox WHERE created_at < ? ORDER BY created_at LIMIT ?)',
      [before, limit],
    )
  ).changes;
}
