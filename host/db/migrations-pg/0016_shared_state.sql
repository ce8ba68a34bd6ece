-- State several hosts share (issue 17, docs/decisions/0013-shared-state.md): rate-limit
-- windows and idempotency claims (PostgreSQL; the SQLite twin is host/db/migrations/0016).

-- Rate-limit windows: one row per limiter and key, holding the current fixed window (opened
-- by its first hit, ending at expires_at). Counted by one upsert-increment; lapsed rows pruned.
CREATE TABLE rate_windows (
  limiter       TEXT NOT NULL,
  key           TEXT NOT NULL,
  window_start  BIGINT NOT NULL,
  expires_at    BIGINT NOT NULL,
  count         BIGINT NOT NULL,
  PRIMARY KEY (limiter, key)
);
CREATE INDEX rate_windows_expiry ON rate_windows(expires_at);

-- Idempotency: a row is either a kept response ('done') or the claim of a request running
-- under the key ('running', with the claiming run's random token; expires_at bounds the claim
-- so that a crashed host's claim lapses).
ALTER TABLE idempotency_keys ADD COLUMN state TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('running', 'done'));
ALTER TABLE idempotency_keys ADD COLUMN claim TEXT;
