-- 0010_engine_series: the engine's Store port became asynchronous and optimistic (a unit of
-- work loads its rows in one call and commits them in one call, refused when a row changed
-- meanwhile), and series (a schedule's rule) became engine records.
--
-- - `version` on occurrences and attempts: bumped by every commit; a commit carrying an older
--   version is refused (also the fencing value of a leased claim on a shared database).
-- - `series`: the engine's record of a schedule's rule, with the same id as the host's
--   `schedules` row (whose display columns stay host-side). The engine keeps one unfinished
--   occurrence per active, enabled series (next_occurrence_id) and creates the following one
--   in the unit of work that finishes the previous one.

ALTER TABLE occurrences ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE attempts ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

CREATE TABLE series (
  id                  TEXT PRIMARY KEY,
  account_id          TEXT NOT NULL,
  phone_number_id     TEXT,
  to_e164             TEXT NOT NULL,
  label               TEXT,
  message             TEXT,
  greeting_name       TEXT,
  voice               TEXT,
  rule                TEXT NOT NULL,                -- JSON Recurrence (one_off, in_minutes, weekly)
  policy              TEXT NOT NULL,                -- JSON RetryPolicy (camelCase, resolved)
  sms_fallback        INTEGER NOT NULL,
  backup_alarm        INTEGER NOT NULL,
  enabled             INTEGER NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('active', 'completed', 'disabled')),
  next_occurrence_id  TEXT,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  version             INTEGER NOT NULL
) STRICT;

-- Start-up reconciliation: active, enabled series (their next occurrence is checked).
CREATE INDEX series_active ON series (id) WHERE status = 'active' AND enabled = 1;
