/**
 * The SQLite store's tables for an embedder's own database: the same tables as the service's
 * migrations 0002 and 0010 (occurrences, attempts, series), created when absent. The service
 * applies its numbered migrations instead.
 * @module
 */
import type { Database } from 'better-sqlite3';

/** The schema, as idempotent statements. */
export const ENGINE_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS occurrences (
  id                    TEXT PRIMARY KEY,
  schedule_id           TEXT,
  account_id            TEXT NOT NULL,
  phone_number_id       TEXT,
  to_e164               TEXT NOT NULL,               -- number called (and texted on fallback)
  label                 TEXT,
  message               TEXT,
  greeting_name         TEXT,
  voice                 TEXT,
  timezone              TEXT,
  derivation_source     TEXT NOT NULL CHECK (derivation_source IN ('one_off', 'in_minutes', 'weekly', 'moved')),
  scheduled_at          INTEGER NOT NULL,
  -- Retry policy copied from the schedule (or account default) when the occurrence is made.
  max_snoozes           INTEGER NOT NULL,
  offsets_minutes       TEXT NOT NULL,               -- JSON array of integers
  ring_timeout_seconds  INTEGER NOT NULL,
  snooze_minutes        INTEGER NOT NULL,
  sms_fallback          INTEGER NOT NULL,
  backup_alarm          INTEGER NOT NULL,
  status                TEXT NOT NULL CHECK (status IN ('pending', 'dispatching', 'calling', 'waiting',
                          'confirmed', 'missed', 'failed', 'cancelled', 'unconfirmed')),
  outcome_reason        TEXT CHECK (outcome_reason IN ('confirmed', 'stopped', 'no_input', 'voicemail',
                          'no_answer', 'busy', 'provider_error', 'cancelled', 'late_dispatch', 'calls_revoked',
                          'number_blocked', 'no_entitlement', 'daily_cap_reached', 'snoozes_exhausted')),
  attempt_count         INTEGER NOT NULL,
  snooze_count          INTEGER NOT NULL,
  series_base           INTEGER NOT NULL,            -- retry offsets count from here (moves on snooze)
  retry_index           INTEGER NOT NULL,            -- retries used since series_base
  next_due_at           INTEGER,                     -- the timer wheel's key; NULL when finished
  live_attempt_id       TEXT,
  backup_alarm_at       INTEGER,
  reached_person        INTEGER NOT NULL,
  reached_voicemail     INTEGER NOT NULL,
  miss_reason           TEXT CHECK (miss_reason IN ('no_answer', 'busy')),
  fallback_state        TEXT NOT NULL CHECK (fallback_state IN ('none', 'pending', 'sent', 'failed')),
  dispatched_at         INTEGER,
  confirmed_at          INTEGER,
  finished_at           INTEGER,
  created_at            INTEGER NOT NULL,
  updated_at            INTEGER NOT NULL,
  version               INTEGER NOT NULL DEFAULT 1,
  local_date            TEXT,
  tzdata_version        TEXT
) STRICT;

-- Refill of the timer wheel: due work in instant order.
CREATE INDEX IF NOT EXISTS occurrences_due ON occurrences (next_due_at, id) WHERE next_due_at IS NOT NULL;
-- GET /occurrences (soonest first, per account) and a schedule's occurrences.
CREATE INDEX IF NOT EXISTS occurrences_account ON occurrences (account_id, scheduled_at);
CREATE INDEX IF NOT EXISTS occurrences_schedule ON occurrences (schedule_id, scheduled_at);
-- Reconciliation: fallback texts decided but not known sent.
CREATE INDEX IF NOT EXISTS occurrences_tzdata ON occurrences (id, tzdata_version) WHERE status = 'pending' AND tzdata_version IS NOT NULL;
CREATE INDEX IF NOT EXISTS occurrences_fallback ON occurrences (id) WHERE fallback_state = 'pending';

CREATE TABLE IF NOT EXISTS attempts (
  id                    TEXT PRIMARY KEY,           -- also the idempotency key sent to the provider
  occurrence_id         TEXT REFERENCES occurrences(id) ON DELETE CASCADE,  -- NULL: standalone test/demo call
  account_id            TEXT,
  phone_number_id       TEXT,
  kind                  TEXT NOT NULL CHECK (kind IN ('first', 'retry', 'snooze', 'test', 'demo')),
  n                     INTEGER NOT NULL,
  status                TEXT NOT NULL CHECK (status IN ('scheduled', 'requested', 'ringing', 'answered',
                          'confirmed', 'snoozed', 'stopped', 'no_input', 'voicemail', 'no_answer', 'busy',
                          'failed', 'cancelled')),
  to_e164               TEXT NOT NULL,
  due_at                INTEGER NOT NULL,
  created_at            INTEGER NOT NULL,
  requested_at          INTEGER,
  ringing_at            INTEGER,
  answered_at           INTEGER,
  ended_at              INTEGER,
  answered_by           TEXT CHECK (answered_by IN ('person', 'machine')),
  digits                TEXT,
  duration_seconds      INTEGER,
  error_code            TEXT,
  provider_call_id      TEXT,
  idempotency_key       TEXT NOT NULL,
  ring_timeout_seconds  INTEGER NOT NULL,
  deadline_at           INTEGER,                     -- watchdog; NULL once terminal
  script                TEXT,                        -- JSON CallScript, standalone calls only
  updated_at            INTEGER NOT NULL,
  version               INTEGER NOT NULL DEFAULT 1
) STRICT;

CREATE INDEX IF NOT EXISTS attempts_occurrence ON attempts (occurrence_id, n);
-- GET /calls: newest first per account.
CREATE INDEX IF NOT EXISTS attempts_account ON attempts (account_id, created_at);
-- Reconciliation at start: intent stored, provider's acceptance not.
CREATE INDEX IF NOT EXISTS attempts_unacknowledged ON attempts (id) WHERE status = 'requested' AND provider_call_id IS NULL;
-- Refill of the timer wheel: standalone calls' watchdogs.
CREATE INDEX IF NOT EXISTS attempts_live_test ON attempts (phone_number_id)
  WHERE occurrence_id IS NULL AND status IN ('requested', 'ringing', 'answered');
CREATE INDEX IF NOT EXISTS attempts_standalone_due ON attempts (deadline_at, id) WHERE occurrence_id IS NULL AND deadline_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS series (
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
CREATE INDEX IF NOT EXISTS series_active ON series (id) WHERE status = 'active' AND enabled = 1;
`;

/** Creates the store's tables and indexes when absent (safe to call at every start). */
export function ensureEngineSchema(db: Database): void {
  db.exec(ENGINE_SCHEMA_SQL);
}
