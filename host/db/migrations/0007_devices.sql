-- 0007: devices (app installs) and the time zone each one last reported.
--
-- One row per (account, installation_id): the app generates installation_id once per install
-- and POST /devices upserts by it. App sessions signed in with that installation_id are bound
-- to the device through sessions.installation_id (0001); removing or evicting the device
-- ends them. The push token is never stored in clear: only its sha256 (push_token_hash).

CREATE TABLE devices (
  id                    TEXT PRIMARY KEY,
  account_id            TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  installation_id       TEXT NOT NULL,
  platform              TEXT NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
  alarm_capability      TEXT CHECK (alarm_capability IN ('exact', 'inexact', 'none')),
  app_version           TEXT,
  os_version            TEXT,
  model                 TEXT,
  push_token_hash       TEXT,                 -- sha256 hex of the push token, NULL when none
  timezone              TEXT,                 -- IANA zone last reported, NULL when none
  timezone_reported_at  INTEGER,
  last_seen_at          INTEGER NOT NULL,
  created_at            INTEGER NOT NULL,
  UNIQUE (account_id, installation_id)
);
-- Eviction picks the device seen longest ago; the timezone context the newest report.
CREATE INDEX devices_account_seen ON devices(account_id, last_seen_at);
CREATE INDEX devices_account_reported ON devices(account_id, timezone_reported_at) WHERE timezone IS NOT NULL;
