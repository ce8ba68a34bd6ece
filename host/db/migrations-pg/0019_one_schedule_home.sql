-- 0019_one_schedule_home (issue 29, docs/decisions/0021): a schedule lives in one place, the
-- engine's series of the same id. The SQLite twin is migrations/0019, which says what moves.
-- Here the series table gains, as its definition now has them (engine/tables/series.ts, made
-- so on a new database by ensurePostgresEngineSchema), `attributes` and its insertion order
-- `rowid`, numbered in the schedules' order (GET /schedules breaks ties of created_at by it).

ALTER TABLE series ADD COLUMN IF NOT EXISTS attributes text;

-- A schedule without its series (none should exist) gets one, as SQLite's 0010 made them.
INSERT INTO series (id, account_id, phone_number_id, to_e164, label, message, greeting_name, voice, rule, policy,
                    sms_fallback, backup_alarm, enabled, status, next_occurrence_id, created_at, updated_at, version)
SELECT s.id, s.account_id, p.id, COALESCE(p.e164, ''), s.label, s.message, COALESCE(s.greeting_name, a.greeting_name), a.voice,
  CASE s.mode
    WHEN 'in_minutes' THEN jsonb_build_object('kind', 'in_minutes', 'timezone', s.timezone, 'at', s.fixed_at)
    WHEN 'one_off' THEN jsonb_build_object('kind', 'one_off', 'timezone', s.timezone, 'localDate', s.local_date, 'localTime', s.local_time)
    ELSE jsonb_build_object('kind', 'weekly', 'timezone', s.timezone, 'localTime', s.local_time, 'daysOfWeek', s.days_of_week::jsonb,
      'startDate', s.start_date, 'endDate', s.end_date, 'pausedUntil', s.paused_until, 'skipDates', s.skip_dates::jsonb)
  END,
  CASE WHEN COALESCE(s.retry_policy, a.default_retry_policy) IS NULL
    THEN '{"maxSnoozes":2,"offsetsMinutes":[5,10],"ringTimeoutSeconds":45,"snoozeMinutes":9}'::jsonb
    ELSE jsonb_build_object(
      'maxSnoozes', COALESCE(s.retry_policy, a.default_retry_policy)::jsonb -> 'max_snoozes',
      'offsetsMinutes', COALESCE(s.retry_policy, a.default_retry_policy)::jsonb -> 'offsets_minutes',
      'ringTimeoutSeconds', COALESCE(s.retry_policy, a.default_retry_policy)::jsonb -> 'ring_timeout_seconds',
      'snoozeMinutes', COALESCE(s.retry_policy, a.default_retry_policy)::jsonb -> 'snooze_minutes')
  END,
  s.sms_fallback = 1, s.backup_alarm = 1, s.enabled = 1, s.status, s.next_occurrence_id, s.created_at, s.updated_at, 1
FROM schedules s
JOIN accounts a ON a.id = s.account_id
LEFT JOIN phone_numbers p ON p.id = s.phone_number_id AND p.deleted_at IS NULL
WHERE NOT EXISTS (SELECT 1 FROM series se WHERE se.id = s.id);

-- Each schedule keeps its label, message, created_at and updated_at as GET /schedules showed
-- them; the API's own fields go to `attributes` (snake_case, host/schedules/schedule.ts).
UPDATE series se SET label = s.label, message = s.message, created_at = s.created_at,
  attributes = jsonb_build_object('source', s.source, 'created_in_timezone', s.created_in_timezone, 'greeting_name', s.greeting_name,
                                  'retry_policy', s.retry_policy::jsonb, 'updated_at', s.updated_at)::text
FROM schedules s WHERE s.id = se.id;

-- Series left by purged accounts (no schedule) go.
DELETE FROM series se WHERE NOT EXISTS (SELECT 1 FROM schedules s WHERE s.id = se.id);

-- The insertion order, in the schedules' order; a new database has it from the definition.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = 'series' AND column_name = 'rowid') THEN
    ALTER TABLE series ADD COLUMN rowid bigint;
    UPDATE series se SET rowid = s.rowid FROM schedules s WHERE s.id = se.id;
    ALTER TABLE series ALTER COLUMN rowid SET NOT NULL;
    ALTER TABLE series ALTER COLUMN rowid ADD GENERATED ALWAYS AS IDENTITY;
    PERFORM setval(pg_get_serial_sequence('series', 'rowid'), COALESCE((SELECT max(rowid) FROM series), 0) + 1, false);
  END IF;
END $$;

CREATE INDEX IF NOT EXISTS series_account ON series (account_id, created_at);
CREATE INDEX IF NOT EXISTS series_phone ON series (phone_number_id) WHERE status = 'active';

DROP TABLE schedules;
