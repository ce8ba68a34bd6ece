/**
 * The webhook endpoint service: an account's endpoints (create, list, get, change, delete,
 * rotate the secret, send a test event) and their delivery log (list, redeliver one). The
 * rules: at most {@link MAX_ENDPOINTS} endpoints; a URL of the right shape (at most 2,000
 * characters as stored) whose host is not a refused address or local name when saved, and
 * resolves only to addresses the operator allows at each delivery (host/webhooks/target.ts); the secret shown by create and rotate only.
 * @module
 */
import type { Clock, Ids } from '../../engine/index.js';
import type { Db } from '../db/sql.js';
import {
  getWebhookDelivery,
  listWebhookDeliveries,
  redeliverWebhook,
  type DeliveryStatus,
} from '../db/webhook-deliveries.js';
import {
  countWebhookEndpoints,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  type WebhookEndpoint,
} from '../db/webhook-endpoints.js';
import {
  nudgeWebhookWorkers,
  recordTestEvent,
  TEST_EVENT_TYPE,
  WEBHOOK_EVENT_TYPES,
} from '../db/webhook-outbox.js';
import { problem } from '../errors.js';
import type {
  WebhookDeliveryOut,
  WebhookDeliveryPage,
  WebhookEndpointIn,
  WebhookEndpointOut,
  WebhookEndpointPage,
  WebhookEndpointPatchIn,
  WebhookEndpointSecretOut,
} from '../generated/openapi.js';
import { cursorKey, pageRequest, pageResponse, type PageQuery } from '../paging.js';
import type { WebhookConfig } from './config.js';
import { deliveryOut, endpointOut } from './present.js';
import { MAX_ENDPOINTS, PREVIOUS_SECRET_GRACE_MS, TEST_EVENTS_PER_HOUR } from './rules.js';
import { newWebhookSecret } from './signing.js';
import type { SecretBox } from './secret-box.js';
import { checkSavedHost, checkUrlShape } from './target.js';

/** What {@link createWebhookService} needs. */
export interface WebhookServiceDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  config: WebhookConfig;
  /** Seals secrets for storage, opens them for the hint (./secret-box.ts). */
  secrets: SecretBox;
}

/** The delivery log's query. */
export type DeliveryQuery = PageQuery & { status?: DeliveryStatus };

/** The webhook operations of an account. */
export interface WebhookService {
  list(accountId: string, query: PageQuery): Promise<WebhookEndpointPage>;
  create(accountId: string, body: WebhookEndpointIn): Promise<WebhookEndpointSecretOut>;
  get(accountId: string, endpointId: string): Promise<WebhookEndpointOut>;
  update(
    accountId: string,
    endpointId: string,
    body: WebhookEndpointPatchIn,
  ): Promise<WebhookEndpointOut>;
  remove(accountId: string, endpointId: string): Promise<void>;
  rotateSecret(accountId: string, endpointId: string): Promise<WebhookEndpointSecretOut>;
  /** Queues a webhook.test event for the endpoint; its delivery. */
  test(accountId: string, endpointId: string): Promise<WebhookDeliveryOut>;
  deliveries(
    accountId: string,
    endpointId: string,
    query: DeliveryQuery,
  ): Promise<WebhookDeliveryPage>;
  redeliver(accountId: string, endpointId: string, deliveryId: string): Promise<WebhookDeliveryOut>;
}

/** Creates the service. */
export function createWebhookService(deps: WebhookServiceDeps): WebhookService {
  const { db, clock, ids } = deps;
  const box = deps.secrets;
  /** The endpoint with its secrets opened (the hint is made from the readable one). */
  const opened = (e: WebhookEndpoint): WebhookEndpoint => ({
    ...e,
    secret: box.open(e.secret),
    previousSecret: e.previousSecret === null ? null : box.open(e.previousSecret),
  });

  const notFound = () => problem('not_found', { detail: 'No webhook endpoint with that id.' });
  const endpoint = async (accountId: string, id: string): Promise<WebhookEndpoint> => {
    const e = await getWebhookEndpoint(db, accountId, id);
    if (!e) throw notFound();
    return e;
  };
  const enabled = async (accountId: string, id: string): Promise<WebhookEndpoint> => {
    const e = await endpoint(accountId, id);
    if (!e.enabled)
      throw problem('webhook_endpoint_disabled', {
        detail: 'The endpoint is turned off: turn it on first.',
      });
    return e;
  };

  /** The URL as stored, or 400 invalid_webhook_url / webhook_target_not_allowed. */
  async function checkedUrl(raw: string): Promise<string> {
    const shape = checkUrlShape(raw, deps.config);
    if (!shape.ok)
      throw problem('invalid_webhook_url', { field: 'url', detail: `The URL ${shape.reason}.` });
    if (!checkSavedHost(shape.url.hostname, deps.config)) {
      throw problem('webhook_target_not_allowed', {
        field: 'url',
        detail:
          "The URL's host is a local name or a non-public address; this server sends only to public ones. " +
          'A name is resolved at each delivery, where it must resolve to public addresses only.',
      });
    }
    return shape.url.href;
  }

  return {
    async list(accountId, query) {
      const page = pageRequest(query);
      const after = cursorKey<[number, string]>(page.after, ['number', 'string']);
      const rows = await listWebhookEndpoints(
        db,
        accountId,
        page.limit + 1,
        after && { createdAt: after[0], id: after[1] },
      );
      const now = clock.now();
      return pageResponse(
        rows,
        page.limit,
        (e) => [e.createdAt, e.id],
        (e) => endpointOut(opened(e), now),
      );
    },

    async create(accountId, body) {
      const url = await checkedUrl(body.url);
      const now = clock.now();
      const secret = newWebhookSecret();
      const created = await db.tx(async (tx) => {
        if ((await countWebhookEndpoints(tx, accountId)) >= MAX_ENDPOINTS) {
          throw problem('webhook_endpoint_limit', {
            detail: `An account may have ${MAX_ENDPOINTS} webhook endpoints; delete one first.`,
          });
        }
        return insertWebhookEndpoint(tx, {
          id: ids.uuid(),
          accountId,
          url,
          description: (body.description ?? '').trim(),
          eventTypes: body.event_types ?? [...WEBHOOK_EVENT_TYPES],
          secret: box.seal(secret),
          enabled: body.enabled ?? true,
          createdAt: now,
        });
      });
      return { ...endpointOut({ ...created, secret }, now), secret };
    },

    async get(accountId, endpointId) {
      return endpointOut(opened(await endpoint(accountId, endpointId)), clock.now());
    },

    async update(accountId, endpointId, body) {
      await endpoint(accountId, endpointId);
      const url = body.url === undefined ? undefined : await checkedUrl(body.url);
      const now = clock.now();
      const updated = await updateWebhookEndpoint(
        db,
        accountId,
        endpointId,
        {
          ...(url !== undefined ? { url } : {}),
          ...(body.description !== undefined ? { description: body.description.trim() } : {}),
          ...(body.event_types !== undefined ? { eventTypes: body.event_types } : {}),
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        },
        now,
      );
      if (!updated) throw notFound();
      // Turned on again: deliveries that waited go out now.
      if (body.enabled === true) nudgeWebhookWorkers();
      return endpointOut(opened(updated), now);
    },

    async remove(accountId, endpointId) {
      if (!(await deleteWebhookEndpoint(db, accountId, endpointId))) throw notFound();
    },

    async rotateSecret(accountId, endpointId) {
      await endpoint(accountId, endpointId);
      const now = clock.now();
      const secret = newWebhookSecret();
      const rotated = await rotateWebhookSecret(
        db,
        accountId,
        endpointId,
        box.seal(secret),
        now + PREVIOUS_SECRET_GRACE_MS,
        now,
      );
      if (!rotated) throw notFound();
      return { ...endpointOut(opened(rotated), now), secret };
    },

    async test(accountId, endpointId) {
      await enabled(accountId, endpointId);
      const now = clock.now();
      const recorded = await recordTestEvent(
        db,
        {
          accountId,
          type: TEST_EVENT_TYPE,
          key: `${TEST_EVENT_TYPE}:${ids.uuid()}`,
          at: now,
          endpointId,
          data: {
            endpoint_id: endpointId,
            message: 'A test event: this endpoint receives and verifies deliveries.',
          },
        },
        { max: TEST_EVENTS_PER_HOUR, since: now - 3_600_000 },
      );
      if (!recorded.ok) {
        const wait = Math.max(1, Math.ceil((recorded.oldestAt + 3_600_000 - now) / 1000));
        throw problem('rate_limited', {
          detail: `An endpoint gets at most ${TEST_EVENTS_PER_HOUR} test events an hour. Try again in ${wait} seconds.`,
          headers: { 'Retry-After': String(wait) },
        });
      }
      return deliveryOut(
        (await getWebhookDelivery(db, accountId, endpointId, recorded.deliveryId))!,
      );
    },

    async deliveries(accountId, endpointId, query) {
      await endpoint(accountId, endpointId);
      const page = pageRequest(query);
      const after = cursorKey<[number, string]>(page.after, ['number', 'string']);
      const rows = await listWebhookDeliveries(
        db,
        accountId,
        endpointId,
        page.limit + 1,
        after && { createdAt: after[0], id: after[1] },
        query.status ?? null,
      );
      return pageResponse(rows, page.limit, (d) => [d.createdAt, d.id], deliveryOut);
    },

    async redeliver(accountId, endpointId, deliveryId) {
      await enabled(accountId, endpointId);
      if (!(await redeliverWebhook(db, accountId, endpointId, deliveryId, clock.now()))) {
        throw problem('not_found', { detail: 'No delivery with that id on this endpoint.' });
      }
      nudgeWebhookWorkers();
      return deliveryOut((await getWebhookDelivery(db, accountId, endpointId, deliveryId))!);
    },
  };
}
