/**
 * Outbound webhook routes (a project addition): /webhook-endpoints (list, create),
 * /webhook-endpoints/{endpoint_id} (get, change, delete), its rotate-secret and test, its
 * delivery log and the redelivery of one event (rules in host/webhooks/service.ts).
 * @module
 */
import type { AppServices } from '../../services.js';
import { requirePrincipal } from '../context.js';
import type { Routes } from '../registrar.js';
import type { WebhookEndpointIn, WebhookEndpointPatchIn } from '../../generated/openapi.js';
import type { PageQuery } from '../../paging.js';
import type { DeliveryQuery } from '../../webhooks/service.js';

type EndpointParams = { endpoint_id: string };

/** Registers the webhook endpoint operations. */
export function register(routes: Routes, services: AppServices): void {
  const account = (principal: Parameters<typeof requirePrincipal>[0]) =>
    requirePrincipal(principal).accountId;

  routes.operation<unknown, PageQuery>('listWebhookEndpoints', async ({ principal, query }) => ({
    status: 200,
    body: await services.webhooks.list(account(principal), query),
  }));

  routes.operation<WebhookEndpointIn>('createWebhookEndpoint', async ({ principal, body }) => ({
    status: 201,
    body: await services.webhooks.create(account(principal), body),
    // The secret is shown once: never kept for a replay.
    secretFields: ['secret'],
  }));

  routes.operation<unknown, unknown, EndpointParams>(
    'getWebhookEndpoint',
    async ({ principal, params }) => ({
      status: 200,
      body: await services.webhooks.get(account(principal), params.endpoint_id),
    }),
  );

  routes.operation<WebhookEndpointPatchIn, unknown, EndpointParams>(
    'updateWebhookEndpoint',
    async ({ principal, params, body }) => ({
      status: 200,
      body: await services.webhooks.update(account(principal), params.endpoint_id, body),
    }),
  );

  routes.operation<unknown, unknown, EndpointParams>(
    'deleteWebhookEndpoint',
    async ({ principal, params }) => {
      await services.webhooks.remove(account(principal), params.endpoint_id);
      return { status: 204 };
    },
  );

  routes.operation<unknown, unknown, EndpointParams>(
    'rotateWebhookSecret',
    async ({ principal, params }) => ({
      status: 200,
      body: await services.webhooks.rotateSecret(account(principal), params.endpoint_id),
      secretFields: ['secret'],
    }),
  );

  routes.operation<unknown, unknown, EndpointParams>(
    'sendWebhookTest',
    async ({ principal, params }) => ({
      status: 202,
      body: await services.webhooks.test(account(principal), params.endpoint_id),
    }),
  );

  routes.operation<unknown, DeliveryQuery, EndpointParams>(
    'listWebhookDeliveries',
    async ({ principal, params, query }) => ({
      status: 200,
      body: await services.webhooks.deliveries(account(principal), params.endpoint_id, query),
    }),
  );

  routes.operation<unknown, unknown, EndpointParams & { delivery_id: string }>(
    'redeliverWebhook',
    async ({ principal, params }) => ({
      status: 202,
      body: await services.webhooks.redeliver(
        account(principal),
        params.endpoint_id,
        params.delivery_id,
      ),
    }),
  );
}
