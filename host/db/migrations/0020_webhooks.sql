-- Outbound webhooks (issue 31; host/webhooks/, docs/decisions/0023-outbound-webhooks.md). Not
-- the provider's inbound webhooks (webhook_events, migration 0014). The PostgreSQL twin is
-- migrations-pg/0020.

-- An account's endpoints: where its events go, which ones, and the secret that signs them.
CREATE TABLE webhook_endpoints (
  id                     TEXT PRIMARY KEY,
  account_id             TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  url                    TEXT NOT NULL,
  description            TEXT NOT NULL DEFAULT '',
  event_types            TEXT NOT NULL,            -- JSON array of event type names
  secret                 TEXT NOT NULL,            -- whsec_<base64>: the HMAC-SHA256 key of the signatures
  previous_secret        TEXT,                     -- the secret before the last rotation, signing too until:
  previous_secret_until  INTEGER,
  enabled                INTEGER NOT NULL DEFAULT 1,
  disabled_reason        TEXT,                     -- 'failing': turned off by the service; null otherwise
  failing_since          INTEGER,                  -- first failed attempt since the last success
  created_at             INTEGER NOT NULL,
  updated_at             INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, created_at, id);

-- The outbox: one row per event, written in the transaction of the change it reports, with its
-- deliveries (below). Its id is the webhook-id, derived from what the event reports, so writing
-- it twice is a no-op.
-- No foreign key to accounts: the engine's commit writes it whatever state the account is in.
CREATE TABLE webhook_outbox (
  id           TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL,
  type         TEXT NOT NULL,
  payload      TEXT NOT NULL,                      -- the JSON body, byte for byte as signed and sent
  endpoint_id  TEXT,                               -- a test event: for this endpoint only
  created_at   INTEGER NOT NULL
);
CREATE INDEX webhook_outbox_created ON webhook_outbox(created_at);
CREATE INDEX webhook_outbox_account ON webhook_outbox(account_id);

-- One event to one endpoint (made with the event, for each enabled endpoint subscribed to it):
-- the delivery log, and the delivery worker's queue (pending rows by next_attempt_at; a host
-- holds what it sends under a lease).
CREATE TABLE webhook_deliveries (
  id               TEXT PRIMARY KEY,
  event_id         TEXT NOT NULL REFERENCES webhook_outbox(id) ON DELETE CASCADE,
  endpoint_id      TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  account_id       TEXT NOT NULL,
  status           TEXT NOT NULL,                  -- pending, delivered, failed
  attempts         INTEGER NOT NULL DEFAULT 0,     -- every attempt, redeliveries included
  tries            INTEGER NOT NULL DEFAULT 0,     -- attempts of the current run (a redelivery starts a new run)
  next_attempt_at  INTEGER,                        -- while pending
  last_attempt_at  INTEGER,
  response_status  INTEGER,                        -- of the last attempt; null when no answer came
  latency_ms       INTEGER,
  error            TEXT,                           -- why the last attempt failed, in a few words
  delivered_at     INTEGER,
  claimed_by       TEXT,                           -- the host holding it (a lease) while it sends
  claimed_until    INTEGER,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, created_at, id);
