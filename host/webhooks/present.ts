/**
 * Webhook endpoints and deliveries at the HTTP edge: WebhookEndpointOut and WebhookDeliveryOut
 * from the stored rows (instants as ISO strings ending in Z; the secret never, only its hint).
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { WebhookDelivery } from '../db/webhook-deliveries.js';
import type { WebhookEndpoint } from '../db/webhook-endpoints.js';
import type {
  WebhookDeliveryOut,
  WebhookEndpointOut,
  WebhookEventType,
} from '../generated/openapi.js';
import { isoInstant, isoInstantOrNull } from '../instant.js';
import { secretHint } from './signing.js';

/** Schema WebhookEndpointOut (`now` decides whether the previous secret still signs). */
export function endpointOut(e: WebhookEndpoint, now: EpochMs): WebhookEndpointOut {
  const previous =
    e.previousSecret !== null && e.previousSecretUntil !== null && e.previousSecretUntil > now;
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.eventTypes as WebhookEventType[],
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    failing_since: isoInstantOrNull(e.failingSince),
    secret_hint: secretHint(e.secret),
    previous_secret_expires_at: previous ? isoInstant(e.previousSecretUntil!) : null,
    created_at: isoInstant(e.createdAt),
    updated_at: isoInstant(e.updatedAt),
  };
}

/** Schema WebhookDeliveryOut. */
export function deliveryOut(d: WebhookDelivery): WebhookDeliveryOut {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? isoInstantOrNull(d.nextAttemptAt) : null,
    last_attempt_at: isoInstantOrNull(d.lastAttemptAt),
    response_status: d.responseStatus,
    latency_ms: d.latencyMs,
    error: d.error,
    delivered_at: isoInstantOrNull(d.deliveredAt),
    created_at: isoInstant(d.createdAt),
    payload: JSON.parse(d.payload) as WebhookDeliveryOut['payload'],
  };
}
