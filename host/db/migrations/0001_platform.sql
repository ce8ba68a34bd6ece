-- 0001: platform tables: accounts, email sign-in challenges, sessions, API keys,
-- idempotency records and the message outbox.
--
-- Conventions for every table in this database:
-- * ids are UUID strings; instants are INTEGER epoch milliseconds (UTC), turned into
--   ISO 8601 strings ending in Z only at the HTTP edge;
-- * booleans are INTEGER 0/1; JSON values are TEXT holding JSON;
-- * secrets are never stored: tokens and keys as sha256 hex, 6-digit codes as scrypt hashes
--   with a per-code salt, message bodies (which carry codes) sealed by the outbox adapter.

CREATE TABLE accounts (
  id                    TEXT PRIMARY KEY,
  email                 TEXT NOT NULL UNIQUE,          -- lower-cased at sign-in
  display_name          TEXT NOT NULL,
  greeting_name         TEXT,
  home_timezone         TEXT,
  time_format           TEXT NOT NULL DEFAULT '24h' CHECK (time_format IN ('24h', '12h')),
  locale                TEXT NOT NULL DEFAULT 'en-US',
  voice                 TEXT NOT NULL DEFAULT 'female' CHECK (voice IN ('female', 'male')),
  onboarding_state      TEXT NOT NULL DEFAULT '{}',    -- JSON object of flags
  marketing_opt_in      INTEGER NOT NULL DEFAULT 0,
  digest_opt_in         INTEGER NOT NULL DEFAULT 0,
  default_retry_policy  TEXT,                          -- JSON RetryPolicy, or NULL for the built-in default
  default_backup_alarm  INTEGER NOT NULL DEFAULT 0,
  calls_revoked_at      INTEGER,
  trial_started_at      INTEGER NOT NULL,
  trial_ends_at         INTEGER NOT NULL,
  trial_calls_included  INTEGER NOT NULL,         -- calls used are counted from occurrences and attempts
  created_at            INTEGER NOT NULL,
  updated_at            INTEGER NOT NULL,
  deleted_at            INTEGER
);

-- One row per e-mail address that asked for a sign-in code. The wrong-code counter lives
-- here, not on the code, so that asking for a new code does not reset it.
CREATE TABLE email_sign_in (
  email            TEXT PRIMARY KEY,
  code_hash        TEXT,             -- scrypt hex, NULL once used
  code_salt        TEXT,
  code_expires_at  INTEGER,
  failed_count     INTEGER NOT NULL DEFAULT 0,
  locked_until     INTEGER,
  updated_at       INTEGER NOT NULL
);

CREATE TABLE sessions (
  id               TEXT PRIMARY KEY,
  account_id       TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind             TEXT NOT NULL CHECK (kind IN ('app', 'web')),
  lookup           TEXT NOT NULL UNIQUE,   -- the 8 public characters after the prefix
  token_hash       TEXT NOT NULL,          -- sha256 hex of the whole token
  csrf_hash        TEXT,                   -- web sessions: sha256 hex of the CSRF token
  installation_id  TEXT,                   -- app sessions bound to a device installation
  created_at       INTEGER NOT NULL,
  last_used_at     INTEGER NOT NULL,
  ended_at         INTEGER,
  end_reason       TEXT                    -- logout, device_removed, account_deleted, ...
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE INDEX sessions_installation ON sessions(installation_id) WHERE installation_id IS NOT NULL;

CREATE TABLE api_keys (
  id            TEXT PRIMARY KEY,
  account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  lookup        TEXT NOT NULL UNIQUE,      -- the 8 characters after wuk_ (prefix = 'wuk_' || lookup)
  key_hash      TEXT NOT NULL,             -- sha256 hex of the whole key
  scopes        TEXT NOT NULL,             -- JSON array, e.g. ["read","write"]
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER,
  revoked_at    INTEGER                    -- kept so that a revoked key answers api_key_revoked
);
CREATE INDEX api_keys_account_created ON api_keys(account_id, created_at DESC, id DESC);

-- Successful (2xx) responses of Idem endpoints, replayed for the same key and request.
-- scope is 'account:<id>' (or 'ip:<address>' for a public endpoint).
CREATE TABLE idempotency_keys (
  scope        TEXT NOT NULL,
  key          TEXT NOT NULL,
  fingerprint  TEXT NOT NULL,              -- sha256 of method, path and canonical body
  status       INTEGER NOT NULL,
  headers      TEXT NOT NULL,              -- JSON object of replayed headers
  body         TEXT,                       -- JSON, secrets stripped; NULL for no body
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);

-- Messages sent through the built-in simulator (dev), newest read first by GET /dev/outbox.
CREATE TABLE outbox (
  id               TEXT PRIMARY KEY,
  channel          TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient        TEXT NOT NULL,
  subject          TEXT,
  body_sealed      BLOB NOT NULL,          -- AES-256-GCM, key held in process memory only
  idempotency_key  TEXT UNIQUE,
  created_at       INTEGER NOT NULL
);
-- Listed newest first by rowid (insertion order), which stays stable when the clock stands still.
CREATE INDEX outbox_recipient ON outbox(recipient);
