-- 0004_schedules: the wake-up calls themselves (ScheduleOut). Conventions as in 0001 (ids
-- UUID strings, instants INTEGER epoch ms, booleans 0/1, JSON as TEXT).
--
-- A schedule holds the rule (wall time, zone, days, dates) and the texts; the engine's
-- `occurrences` table (0002) holds the concrete calls. An enabled, active schedule always
-- has exactly one unfinished occurrence, named by next_occurrence_id; when it finishes the
-- host stores the following one (host/schedules/chain.ts).

CREATE TABLE schedules (
  id                   TEXT PRIMARY KEY,
  account_id           TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind                 TEXT NOT NULL CHECK (kind IN ('once', 'recurring')),
  -- How the instant is derived: one_off (local_date + local_time), in_minutes (fixed_at),
  -- weekly (days_of_week + local_time). kind once is one_off or in_minutes.
  mode                 TEXT NOT NULL CHECK (mode IN ('one_off', 'in_minutes', 'weekly')),
  label                TEXT NOT NULL,
  message              TEXT,
  greeting_name        TEXT,                  -- NULL: the account's greeting_name
  local_date           TEXT,                  -- one-offs (for in_minutes: the local date of fixed_at)
  local_time           TEXT NOT NULL,         -- HH:MM (for in_minutes: the local time of fixed_at)
  fixed_at             INTEGER,               -- in_minutes only: the instant it rings
  timezone             TEXT NOT NULL,
  created_in_timezone  TEXT,
  days_of_week         TEXT NOT NULL DEFAULT '[]',   -- JSON array of mon..sun, week order
  start_date           TEXT,
  end_date             TEXT,
  paused_until         TEXT,
  skip_dates           TEXT NOT NULL DEFAULT '[]',   -- JSON array of YYYY-MM-DD, sorted
  enabled              INTEGER NOT NULL,
  status               TEXT NOT NULL CHECK (status IN ('active', 'completed', 'disabled')),
  backup_alarm         INTEGER NOT NULL,
  sms_fallback         INTEGER NOT NULL,
  retry_policy         TEXT,                  -- JSON RetryPolicy, or NULL for the account's default
  phone_number_id      TEXT REFERENCES phone_numbers(id) ON DELETE SET NULL,
  next_occurrence_id   TEXT,                  -- the stored unfinished occurrence (no FK: engine table)
  source               TEXT NOT NULL CHECK (source IN ('app', 'web', 'api')),
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL
);

-- GET /schedules: newest first per account (rowid breaks ties of equal created_at, which the
-- virtual clock produces), optionally by status.
CREATE INDEX schedules_account_created ON schedules (account_id, created_at);
CREATE INDEX schedules_account_status ON schedules (account_id, status, created_at);
-- The startup sweep: active schedules.
CREATE INDEX schedules_active ON schedules (status) WHERE status = 'active';
-- DELETE /phone-numbers: is an active schedule ringing this number?
CREATE INDEX schedules_phone ON schedules (phone_number_id) WHERE phone_number_id IS NOT NULL;
