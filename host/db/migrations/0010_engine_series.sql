-- 0010_engine_series: the engine's Store port became asynchronous and optimistic (a unit of
-- work loads its rows in one call and commits them in one call, refused when a row changed
-- meanwhile), and series (a schedule's rule) became engine records.
--
-- - `version` on occurrences and attempts: bumped by every commit; a commit carrying an older
--   version is refused (also the fencing value of a leased claim on a shared database).
-- - One spelling: an attempt hung up by us is `cancelled` (was `canceled`), like an
--   occurrence. The attempts table is rebuilt for its CHECK constraint; stored rows migrate.
-- - `series`: the engine's record of a schedule's rule, with the same id as the host's
--   `schedules` row (whose display columns stay host-side). The engine keeps one unfinished
--   occurrence per active, enabled series (next_occurrence_id) and creates the following one
--   in the unit of work that finishes the previous one.

ALTER TABLE occurrences ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
-- The local date a series' rule produced the occurrence for, and the zone rules' version
-- (tzdata) its instant was resolved under: re-resolved when the rules change.
ALTER TABLE occurrences ADD COLUMN local_date TEXT;
ALTER TABLE occurrences ADD COLUMN tzdata_version TEXT;

CREATE TABLE attempts_0010 (
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

INSERT INTO attempts_0010 (id, occurrence_id, account_id, phone_number_id, kind, n, status, to_e164, due_at, created_at, requested_at, ringing_at, answered_at, ended_at, answered_by, digits, duration_seconds, error_code, provider_call_id, idempotency_key, ring_timeout_seconds, deadline_at, script, updated_at, version)
  SELECT id, occurrence_id, account_id, phone_number_id, kind, n, CASE status WHEN 'canceled' THEN 'cancelled' ELSE status END, to_e164, due_at, created_at, requested_at, ringing_at, answered_at, ended_at, answered_by, digits, duration_seconds, error_code, provider_call_id, idempotency_key, ring_timeout_seconds, deadline_at, script, updated_at, 1 FROM attempts;
DROP TABLE attempts;
ALTER TABLE attempts_0010 RENAME TO attempts;
CREATE INDEX attempts_occurrence ON attempts (occurrence_id, n);
-- GET /calls: newest first per account.
CREATE INDEX attempts_account ON attempts (account_id, created_at);
-- Reconciliation at start: intent stored, provider's acceptance not.
CREATE INDEX attempts_unacknowledged ON attempts (id) WHERE status = 'requested' AND provider_call_id IS NULL;
-- Refill of the timer wheel: standalone calls' watchdogs.
CREATE INDEX attempts_standalone_due ON attempts (deadline_at, id) WHERE occurrence_id IS NULL AND deadline_at IS NOT NULL;
-- From 0005: a standalone test call still live, per number.
CREATE INDEX attempts_live_test ON attempts (phone_number_id)
  WHERE occurrence_id IS NULL AND status IN ('requested', 'ringing', 'answered');

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

-- Zone rules changed: pending occurrences resolved under another version.
CREATE INDEX occurrences_tzdata ON occurrences (id, tzdata_version) WHERE status = 'pending' AND tzdata_version IS NOT NULL;

-- Start-up reconciliation: active, enabled series (their next occurrence is checked).
CREATE INDEX series_active ON series (id) WHERE status = 'active' AND enabled = 1;

-- Existing schedules become series (same id), so the engine makes their next occurrences.
-- Policies convert from the API's spelling (snake_case) to the engine's (camelCase).
INSERT INTO series (id, account_id, phone_number_id, to_e164, label, message, greeting_name, voice, rule, policy,
                    sms_fallback, backup_alarm, enabled, status, next_occurrence_id, created_at, updated_at, version)
SELECT s.id, s.account_id, p.id, COALESCE(p.e164, ''), s.label, s.message, COALESCE(s.greeting_name, a.greeting_name), a.voice,
  CASE s.mode
    WHEN 'in_minutes' THEN json_object('kind', 'in_minutes', 'timezone', s.timezone, 'at', s.fixed_at)
    WHEN 'one_off' THEN json_object('kind', 'one_off', 'timezone', s.timezone, 'localDate', s.local_date, 'localTime', s.local_time)
    ELSE json_object('kind', 'weekly', 'timezone', s.timezone, 'localTime', s.local_time, 'daysOfWeek', json(s.days_of_week),
      'startDate', s.start_date, 'endDate', s.end_date, 'pausedUntil', s.paused_until, 'skipDates', json(s.skip_dates))
  END,
  CASE WHEN COALESCE(s.retry_policy, a.default_retry_policy) IS NULL
    THEN '{"maxSnoozes":2,"offsetsMinutes":[5,10],"ringTimeoutSeconds":45,"snoozeMinutes":9}'
    ELSE json_object(
      'maxSnoozes', json_extract(COALESCE(s.retry_policy, a.default_retry_policy), '$.max_snoozes'),
      'offsetsMinutes', json(json_extract(COALESCE(s.retry_policy, a.default_retry_policy), '$.offsets_minutes')),
      'ringTimeoutSeconds', json_extract(COALESCE(s.retry_policy, a.default_retry_policy), '$.ring_timeout_seconds'),
      'snoozeMinutes', json_extract(COALESCE(s.retry_policy, a.default_retry_policy), '$.snooze_minutes'))
  END,
  s.sms_fallback, s.backup_alarm, s.enabled, s.status, s.next_occurrence_id, s.created_at, s.updated_at, 1
FROM schedules s
JOIN accounts a ON a.id = s.account_id
LEFT JOIN phone_numbers p ON p.id = s.phone_number_id AND p.deleted_at IS NULL;
