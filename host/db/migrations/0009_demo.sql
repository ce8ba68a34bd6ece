-- 0009_demo: the public demo call (POST /demo/start, POST /demo/call, host/demo/).
-- One row per demo code sent (or attempted: a row is written before the provider is asked,
-- so that the daily caps count every text that may have cost money). The code itself is
-- never stored, only its scrypt hash and salt. The demo call placed with a code is the
-- engine attempt `call_id` (kind demo); `called_day` is its UTC day (one demo call per
-- number a day). Client addresses are not stored: the per-address limit lives in memory.
CREATE TABLE demo_requests (
  id            TEXT PRIMARY KEY,
  e164          TEXT NOT NULL,
  prefix        TEXT NOT NULL,              -- country calling code with its '+', e.g. '+1'
  utc_day       TEXT NOT NULL,              -- YYYY-MM-DD (UTC) the code was sent
  code_hash     TEXT NOT NULL,
  code_salt     TEXT NOT NULL,
  expires_at    INTEGER NOT NULL,           -- epoch ms
  failed_count  INTEGER NOT NULL DEFAULT 0, -- wrong codes against this request
  ended_at      INTEGER,                    -- set by the 5th wrong code
  sent          INTEGER NOT NULL DEFAULT 0, -- 1 once the text provider accepted the code
  call_id       TEXT,                       -- attempts.id of the demo call placed with this code
  called_at     INTEGER,
  called_day    TEXT,                       -- YYYY-MM-DD (UTC) of called_at
  created_at    INTEGER NOT NULL
);
CREATE INDEX demo_requests_number ON demo_requests (e164, created_at);
CREATE INDEX demo_requests_day ON demo_requests (utc_day, prefix);
CREATE INDEX demo_requests_called ON demo_requests (e164, called_day) WHERE called_day IS NOT NULL;
