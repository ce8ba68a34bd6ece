-- The host's tables on PostgreSQL: the SQLite schema after host/db/migrations 0001-0015,
-- consolidated (issue 17). The engine's tables (occurrences, attempts, series) come from
-- ensurePostgresEngineSchema (engine/postgres), which host/db/migrate.ts runs first.
--
-- Types: ids and JSON are text (JSON stays text, as on SQLite); instants (epoch ms), counts
-- and 0/1 flags are bigint (host/db/sql.ts reads bigint as a number); secrets sealed as bytea.
-- Tables whose code orders by SQLite's implicit rowid (insertion order) have a real column
-- named rowid, so one SQL text serves both dialects. A later SQLite migration NNNN needs its
-- twin here with the same number (see host/db/migrate.ts).

CREATE TABLE accounts (
  id                    text PRIMARY KEY,
  email                 text NOT NULL UNIQUE,          -- lower-cased at sign-in
  display_name          text NOT NULL,
  greeting_name         text,
  home_timezone         text,
  time_format           text NOT NULL DEFAULT '24h' CHECK (time_format IN ('24h', '12h')),
  locale                text NOT NULL DEFAULT 'en-US',
  voice                 text NOT NULL DEFAULT 'female' CHECK (voice IN ('female', 'male')),
  onboarding_state      text NOT NULL DEFAULT '{}',    -- JSON object of flags
  marketing_opt_in      bigint NOT NULL DEFAULT 0,
  digest_opt_in         bigint NOT NULL DEFAULT 0,
  default_retry_policy  text,                          -- JSON RetryPolicy, or NULL for the built-in default
  default_backup_alarm  bigint NOT NULL DEFAULT 0,
  calls_revoked_at      bigint,
  trial_started_at      bigint NOT NULL,
  trial_ends_at         bigint NOT NULL,
  trial_calls_included  bigint NOT NULL,         -- calls used are counted from occurrences and attempts
  created_at            bigint NOT NULL,
  updated_at            bigint NOT NULL,
  deleted_at            bigint,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE email_sign_in (
  email            text PRIMARY KEY,
  code_hash        text,             -- scrypt hex, NULL once used
  code_salt        text,
  code_expires_at  bigint,
  failed_count     bigint NOT NULL DEFAULT 0,
  locked_until     bigint,
  updated_at       bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE sessions (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind             text NOT NULL CHECK (kind IN ('app', 'web')),
  lookup           text NOT NULL UNIQUE,   -- the 8 public characters after the prefix
  token_hash       text NOT NULL,          -- sha256 hex of the whole token
  csrf_hash        text,                   -- web sessions: sha256 hex of the CSRF token
  installation_id  text,                   -- app sessions bound to a device installation
  created_at       bigint NOT NULL,
  last_used_at     bigint NOT NULL,
  ended_at         bigint,
  end_reason       text,                    -- logout, device_removed, account_deleted, ...
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE api_keys (
  id            text PRIMARY KEY,
  account_id    text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name          text NOT NULL,
  lookup        text NOT NULL UNIQUE,      -- the 8 characters after wuk_ (prefix = 'wuk_' || lookup)
  key_hash      text NOT NULL,             -- sha256 hex of the whole key
  scopes        text NOT NULL,             -- JSON array, e.g. ["read","write"]
  created_at    bigint NOT NULL,
  last_used_at  bigint,
  revoked_at    bigint,                    -- kept so that a revoked key answers api_key_revoked
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE idempotency_keys (
  scope        text NOT NULL,
  key          text NOT NULL,
  fingerprint  text NOT NULL,              -- sha256 of method, path and canonical body
  status       bigint NOT NULL,
  headers      text NOT NULL,              -- JSON object of replayed headers
  body         text,                       -- JSON, secrets stripped; NULL for no body
  created_at   bigint NOT NULL,
  expires_at   bigint NOT NULL,
  PRIMARY KEY (scope, key),
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE outbox (
  id               text PRIMARY KEY,
  channel          text NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient        text NOT NULL,
  subject          text,
  body_sealed      bytea NOT NULL,          -- AES-256-GCM, key held in process memory only
  idempotency_key  text UNIQUE,
  created_at       bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE phone_numbers (
  id                       text PRIMARY KEY,
  account_id               text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  e164                     text NOT NULL,
  label                    text NOT NULL,
  country_code             text NOT NULL,             -- ISO 3166-1 alpha-2
  type                     text NOT NULL CHECK (type IN ('mobile', 'fixed_line', 'fixed_line_or_mobile', 'voip', 'unknown')),
  is_primary               bigint NOT NULL DEFAULT 0,
  verified_at              bigint,
  verification_expires_at  bigint,                   -- verified_at + 365 days
  last_test_call_at        bigint,
  last_confirmed_at        bigint,
  -- The current verification code (one at a time; a new code replaces the old one).
  code_hash                text,                      -- scrypt hex, NULL when none or used
  code_salt                text,
  code_channel             text CHECK (code_channel IN ('sms', 'call')),
  code_expires_at          bigint,
  -- Wrong codes count on the number, not on the code, so asking for a new code does not
  -- reset them; the fifth wrong code locks checks (and new codes) until locked_until.
  failed_count             bigint NOT NULL DEFAULT 0,
  locked_until             bigint,
  created_at               bigint NOT NULL,
  updated_at               bigint NOT NULL,
  deleted_at               bigint,                    -- soft delete: history (calls) may still name it
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE phone_blocks (
  e164        text PRIMARY KEY,
  -- stop: texted STOP (START lifts it); complaint / manual: set by an operator (only an
  -- operator lifts it); key_9: pressed 9 on a call (verifying the number again lifts it).
  reason      text NOT NULL CHECK (reason IN ('stop', 'complaint', 'manual', 'key_9')),
  note        text,
  blocked_at  bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE phone_block_events (
  id          bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  e164        text NOT NULL,
  action      text NOT NULL CHECK (action IN ('block', 'unblock')),
  reason      text NOT NULL,
  source      text NOT NULL CHECK (source IN ('sms', 'operator', 'keypad', 'verification', 'provider')),
  note        text,
  at          bigint NOT NULL
);

CREATE TABLE schedules (
  id                   text PRIMARY KEY,
  account_id           text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind                 text NOT NULL CHECK (kind IN ('once', 'recurring')),
  -- How the instant is derived: one_off (local_date + local_time), in_minutes (fixed_at),
  -- weekly (days_of_week + local_time). kind once is one_off or in_minutes.
  mode                 text NOT NULL CHECK (mode IN ('one_off', 'in_minutes', 'weekly')),
  label                text NOT NULL,
  message              text,
  greeting_name        text,                  -- NULL: the account's greeting_name
  local_date           text,                  -- one-offs (for in_minutes: the local date of fixed_at)
  local_time           text NOT NULL,         -- HH:MM (for in_minutes: the local time of fixed_at)
  fixed_at             bigint,               -- in_minutes only: the instant it rings
  timezone             text NOT NULL,
  created_in_timezone  text,
  days_of_week         text NOT NULL DEFAULT '[]',   -- JSON array of mon..sun, week order
  start_date           text,
  end_date             text,
  paused_until         text,
  skip_dates           text NOT NULL DEFAULT '[]',   -- JSON array of YYYY-MM-DD, sorted
  enabled              bigint NOT NULL,
  status               text NOT NULL CHECK (status IN ('active', 'completed', 'disabled')),
  backup_alarm         bigint NOT NULL,
  sms_fallback         bigint NOT NULL,
  retry_policy         text,                  -- JSON RetryPolicy, or NULL for the account's default
  phone_number_id      text REFERENCES phone_numbers(id) ON DELETE SET NULL,
  next_occurrence_id   text,                  -- the stored unfinished occurrence (no FK: engine table)
  source               text NOT NULL CHECK (source IN ('app', 'web', 'api')),
  created_at           bigint NOT NULL,
  updated_at           bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE deletion_codes (
  account_id       text PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  code_hash        text,             -- scrypt hex, NULL once used or after a lock
  code_salt        text,
  code_expires_at  bigint,
  failed_count     bigint NOT NULL DEFAULT 0,
  locked_until     bigint,
  updated_at       bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE account_deletions (
  account_id     text PRIMARY KEY,
  deleted_at     bigint NOT NULL,
  purge_at       bigint NOT NULL,   -- deleted_at + 30 days
  calls_stopped  bigint NOT NULL DEFAULT 0,   -- 1 once every unfinished occurrence was cancelled
  idp_revoke     text NOT NULL CHECK (idp_revoke IN ('none', 'pending', 'done', 'failed')),
  purged_at      bigint,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE idp_links (
  account_id             text PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  subject                text NOT NULL UNIQUE,
  refresh_token_sealed   bytea,
  linked_at              bigint NOT NULL,
  updated_at             bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE devices (
  id                    text PRIMARY KEY,
  account_id            text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  installation_id       text NOT NULL,
  platform              text NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
  alarm_capability      text CHECK (alarm_capability IN ('exact', 'inexact', 'none')),
  app_version           text,
  os_version            text,
  model                 text,
  push_token_hash       text,                 -- sha256 hex of the push token, NULL when none
  timezone              text,                 -- IANA zone last reported, NULL when none
  timezone_reported_at  bigint,
  last_seen_at          bigint NOT NULL,
  created_at            bigint NOT NULL,
  UNIQUE (account_id, installation_id),
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE subscriptions (
  account_id                text PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  plan_code                 text NOT NULL,
  -- The plan's terms when it was bought (later catalogue changes do not alter a live plan).
  plan_name                 text NOT NULL,
  interval                  text NOT NULL CHECK (interval IN ('month', 'year', 'none')),
  included_calls            bigint NOT NULL,
  tier_b_multiplier         bigint NOT NULL,
  source                    text NOT NULL CHECK (source IN ('web', 'ios_store', 'android_store', 'manual')),
  status                    text NOT NULL CHECK (status IN ('active', 'past_due', 'canceled', 'expired')),
  period_anchor             bigint NOT NULL,
  ends_at                   bigint,
  provider_subscription_id  text,
  created_at                bigint NOT NULL,
  updated_at                bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE billing_customers (
  account_id   text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  provider     text NOT NULL,
  customer_id  text NOT NULL,
  created_at   bigint NOT NULL,
  PRIMARY KEY (account_id, provider),
  UNIQUE (provider, customer_id),
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE billing_events (
  provider     text NOT NULL,
  event_id     text NOT NULL,
  type         text NOT NULL,
  received_at  bigint NOT NULL,
  PRIMARY KEY (provider, event_id),
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE credit_ledger (
  id          bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  delta       bigint NOT NULL,
  reason      text NOT NULL,              -- pack (a paid pack) or call (a call paid with credits)
  plan_code   text,                       -- the pack, on grants
  plan_name   text,
  tier_b_multiplier bigint NOT NULL DEFAULT 1,
  ref         text,
  at          bigint NOT NULL
);

CREATE TABLE web_checkout_links (
  token_hash  text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  plan_code   text NOT NULL,
  created_at  bigint NOT NULL,
  expires_at  bigint NOT NULL,
  used_at     bigint,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE sim_payment_sessions (
  id           text PRIMARY KEY,
  kind         text NOT NULL CHECK (kind IN ('checkout', 'portal')),
  account_id   text NOT NULL,
  customer_id  text NOT NULL,
  plan_code    text,
  success_url  text NOT NULL,
  cancel_url   text,
  status       text NOT NULL CHECK (status IN ('open', 'paid', 'expired')),
  created_at   bigint NOT NULL,
  expires_at   bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE demo_requests (
  id            text PRIMARY KEY,
  e164          text NOT NULL,
  prefix        text NOT NULL,              -- country calling code with its '+', e.g. '+1'
  utc_day       text NOT NULL,              -- YYYY-MM-DD (UTC) the code was sent
  code_hash     text NOT NULL,
  code_salt     text NOT NULL,
  expires_at    bigint NOT NULL,           -- epoch ms
  failed_count  bigint NOT NULL DEFAULT 0, -- wrong codes against this request
  ended_at      bigint,                    -- set by the 5th wrong code
  sent          bigint NOT NULL DEFAULT 0, -- 1 once the text provider accepted the code
  call_id       text,                       -- attempts.id of the demo call placed with this code
  called_at     bigint,
  called_day    text,                       -- YYYY-MM-DD (UTC) of called_at
  created_at    bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY  -- insertion order (SQLite's rowid)
);

CREATE TABLE webhook_events (
  event_key   text PRIMARY KEY,
  expires_at  bigint NOT NULL
);

CREATE TABLE inbound_keyword_order (
  e164        text PRIMARY KEY,
  keyword_at  bigint NOT NULL,   -- the provider's creation time of that text, epoch ms
  message_id  text
);

CREATE INDEX sessions_account ON sessions(account_id);

CREATE INDEX sessions_installation ON sessions(installation_id) WHERE installation_id IS NOT NULL;

CREATE INDEX api_keys_account_created ON api_keys(account_id, created_at DESC, id DESC);

CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);

CREATE INDEX outbox_recipient ON outbox(recipient);

CREATE UNIQUE INDEX phone_numbers_account_e164 ON phone_numbers (account_id, e164) WHERE deleted_at IS NULL;

CREATE UNIQUE INDEX phone_numbers_one_primary ON phone_numbers (account_id) WHERE is_primary = 1 AND deleted_at IS NULL;

CREATE INDEX phone_numbers_account_created ON phone_numbers (account_id, created_at) WHERE deleted_at IS NULL;

CREATE INDEX phone_numbers_e164 ON phone_numbers (e164) WHERE deleted_at IS NULL;

CREATE INDEX phone_block_events_e164 ON phone_block_events (e164, at);

CREATE INDEX schedules_account_created ON schedules (account_id, created_at);

CREATE INDEX schedules_account_status ON schedules (account_id, status, created_at);

CREATE INDEX schedules_active ON schedules (status) WHERE status = 'active';

CREATE INDEX schedules_phone ON schedules (phone_number_id) WHERE phone_number_id IS NOT NULL;

CREATE INDEX account_deletions_open ON account_deletions (purge_at) WHERE purged_at IS NULL;

CREATE INDEX devices_account_seen ON devices(account_id, last_seen_at);

CREATE INDEX devices_account_reported ON devices(account_id, timezone_reported_at) WHERE timezone IS NOT NULL;

CREATE INDEX credit_ledger_account ON credit_ledger (account_id);

CREATE UNIQUE INDEX credit_ledger_grant ON credit_ledger (ref) WHERE delta > 0;

CREATE INDEX demo_requests_number ON demo_requests (e164, created_at);

CREATE INDEX demo_requests_day ON demo_requests (utc_day, prefix);

CREATE INDEX demo_requests_called ON demo_requests (e164, called_day) WHERE called_day IS NOT NULL;

CREATE INDEX webhook_events_expiry ON webhook_events (expires_at);

CREATE INDEX email_sign_in_updated ON email_sign_in (updated_at);

-- The engine's tables: insertion order (GET /calls pages by it; export reads by it), and the
-- lookup of a provider call id (SQLite migration 0014).
ALTER TABLE occurrences ADD COLUMN IF NOT EXISTS rowid bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE attempts ADD COLUMN IF NOT EXISTS rowid bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX IF NOT EXISTS attempts_provider_call ON attempts (provider_call_id) WHERE provider_call_id IS NOT NULL;
