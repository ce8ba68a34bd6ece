-- Outbound webhooks (issue 31; host/webhooks/, docs/decisions/0023-outbound-webhooks.md). Not
-- the provider's inbound webhooks (webhook_events, migration 0014). The SQLite twin is
-- migrations/0020.

-- An account's endpoints: where its events go, which ones, and the secret that signs them.
CREATE TABLE webhook_endpoints (
  id                     text PRIMARY KEY,
  account_id             text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  url                    text NOT NULL,
  description            text NOT NULL DEFAULT '',
  event_types            text NOT NULL,            -- JSON array of event type names
  secret                 text NOT NULL,            -- whsec_<base64>: the HMAC-SHA256 key of the signatures
  previous_secret        text,                     -- the secret before the last rotation, signing too until:
  previous_secret_until  bigint,
  enabled                bigint NOT NULL DEFAULT 1,
  disabled_reason        text,                     -- 'failing': turned off by the service; null otherwise
  failing_since          bigint,                  -- first failed attempt since the last success
  created_at             bigint NOT NULL,
  updated_at             bigint NOT NULL,
  rowid                  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid; the export reads by it)
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, created_at, id);

-- The outbox: one row per event, written in the transaction of the change it reports, with its
-- deliveries (below). Its id is the webhook-id, derived from what the event reports, so writing
-- it twice is a no-op.
-- No foreign key to accounts: the engine's commit writes it whatever state the account is in.
CREATE TABLE webhook_outbox (
  id           text PRIMARY KEY,
  account_id   text NOT NULL,
  type         text NOT NULL,
  payload      text NOT NULL,                      -- the JSON body, byte for byte as signed and sent
  endpoint_id  text,                               -- a test event: for this endpoint only
  created_at   bigint NOT NULL
);
CREATE INDEX webhook_outbox_created ON webhook_outbox(created_at);
CREATE INDEX webhook_outbox_account ON webhook_outbox(account_id);

-- One event to one endpoint (made with the event, for each enabled endpoint subscribed to it):
-- the delivery log, and the delivery worker's queue (pending rows by next_attempt_at; a host
-- holds what it sends under a lease).
CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY,
  event_id         text NOT NULL REFERENCES webhook_outbox(id) ON DELETE CASCADE,
  endpoint_id      text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  account_id       text NOT NULL,
  status           text NOT NULL,                  -- pending, delivered, failed
  attempts         bigint NOT NULL DEFAULT 0,     -- every attempt, redeliveries included
  tries            bigint NOT NULL DEFAULT 0,     -- attempts of the current run (a redelivery starts a new run)
  next_attempt_at  bigint,                        -- while pending
  last_attempt_at  bigint,
  response_status  bigint,                        -- of the last attempt; null when no answer came
  latency_ms       bigint,
  error            text,                           -- why the last attempt failed, in a few words
  delivered_at     bigint,
  claimed_by       text,                           -- the host holding it (a lease) while it sends
  claimed_until    bigint,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, created_at, id);
