-- 0019_one_schedule_home (issue 29, docs/decisions/0021): a schedule lives in one place, the
-- engine's series of the same id. The series keeps the rule, the call's texts, the number, the
-- switches, the status and the next occurrence, as before; what only the API shows (source,
-- created_in_timezone, the schedule's own greeting and retry policy, updated_at) moves into the
-- series' `attributes`, which the engine stores and never reads; the `schedules` table goes.
--
-- The series table is made again in the shape of its definition (engine/tables/series.ts: the
-- `attributes` column, two indexes for the API's reads), its rows in the schedules' insertion
-- order (GET /schedules breaks ties of created_at by it). Each schedule keeps its id, label,
-- message, created_at and updated_at as GET /schedules showed them; its pending occurrences
-- and every call's history (occurrences, attempts) are not touched. Series left by purged
-- accounts (no schedule) go. On a new database (the series made by the engine, empty) this
-- makes the same table again.

-- A schedule without its series (none should exist since 0010) gets one, as 0010 made them.
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
LEFT JOIN phone_numbers p ON p.id = s.phone_number_id AND p.deleted_at IS NULL
WHERE NOT EXISTS (SELECT 1 FROM series se WHERE se.id = s.id);

CREATE TABLE series_0019 (
  id                  TEXT PRIMARY KEY,
  account_id          TEXT NOT NULL,
  phone_number_id     TEXT,
  to_e164             TEXT NOT NULL,
  label               TEXT,
  message             TEXT,
  greeting_name       TEXT,
  voice               TEXT,
  rule                TEXT NOT NULL,  -- JSON Recurrence (one_off, in_minutes, weekly)
  policy              TEXT NOT NULL,  -- JSON RetryPolicy (camelCase, resolved)
  sms_fallback        INTEGER NOT NULL,
  backup_alarm        INTEGER NOT NULL,
  enabled             INTEGER NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('active', 'completed', 'disabled')),
  next_occurrence_id  TEXT,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  version             INTEGER NOT NULL,
  attributes          TEXT  -- the embedder's own, opaque to the engine
) STRICT;

-- The API's own fields, snake_case as the API spells them (host/schedules/schedule.ts).
INSERT INTO series_0019 (id, account_id, phone_number_id, to_e164, label, message, greeting_name, voice, rule, policy,
                         sms_fallback, backup_alarm, enabled, status, next_occurrence_id, created_at, updated_at, version, attributes)
SELECT se.id, se.account_id, se.phone_number_id, se.to_e164, s.label, s.message, se.greeting_name, se.voice, se.rule, se.policy,
  se.sms_fallback, se.backup_alarm, se.enabled, se.status, se.next_occurrence_id, s.created_at, se.updated_at, se.version,
  json_object('source', s.source, 'created_in_timezone', s.created_in_timezone, 'greeting_name', s.greeting_name,
              'retry_policy', json(s.retry_policy), 'updated_at', s.updated_at)
FROM schedules s JOIN series se ON se.id = s.id
ORDER BY s.rowid;

DROP TABLE series;
ALTER TABLE series_0019 RENAME TO series;
-- Start-up reconciliation: active, enabled series (their next occurrence is checked).
CREATE INDEX series_active ON series (id) WHERE status = 'active' AND enabled = 1;
-- An account's series, newest first (StoreReads.listSeries).
CREATE INDEX series_account ON series (account_id, created_at);
-- Is an active series calling this number? (StoreReads.isPhoneNumberInUse)
CREATE INDEX series_phone ON series (phone_number_id) WHERE status = 'active';

DROP TABLE schedules;
