/**
 * Migration 0010 on a database made before it: schedules become engine series (same id, the
 * policy in the engine's spelling), attempts spelled `canceled` become `cancelled`, and the
 * engine then makes the series' next occurrences (and 0019, run after it, keeps the schedule in
 * the series alone).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { createSqliteStore } from '../../engine/sqlite/index.js';
import { loadMigrations, migrateSqlite as migrate } from '../../host/db/migrate.js';

describe('migration 0010 (engine series) on an existing database', () => {
  it('turns schedules into series and renames canceled attempts', async () => {
    const db = new Sqlite(':memory:');
    db.pragma('foreign_keys = ON');
    const all = loadMigrations();
    migrate(
      db,
      all.filter((m) => m.version <= 5),
    );
    const t = Date.UTC(2027, 2, 1);
    db.prepare(
      `INSERT INTO accounts (id, email, display_name, greeting_name, voice, default_retry_policy, trial_started_at, trial_ends_at, trial_calls_included, created_at, updated_at)
       VALUES ('a1', 'a@example.com', 'A', 'Sam', 'male', '{"max_snoozes":1,"offsets_minutes":[3],"ring_timeout_seconds":30,"snooze_minutes":4}', ?, ?, 5, ?, ?)`,
    ).run(t, t + 7 * 864e5, t, t);
    db.prepare(
      `INSERT INTO phone_numbers (id, account_id, e164, label, country_code, type, created_at, updated_at)
       VALUES ('p1', 'a1', '+12015550123', 'Home', 'US', 'mobile', ?, ?)`,
    ).run(t, t);
    db.prepare(
      `INSERT INTO schedules (id, account_id, kind, mode, label, local_time, timezone, days_of_week, skip_dates, enabled, status,
         backup_alarm, sms_fallback, phone_number_id, next_occurrence_id, source, created_at, updated_at)
       VALUES ('s1', 'a1', 'recurring', 'weekly', 'Gym', '07:00', 'America/New_York', '["mon","fri"]', '["2027-03-05"]', 1, 'active',
         0, 1, 'p1', 'o1', 'app', ?, ?)`,
    ).run(t, t);
    db.prepare(
      `INSERT INTO attempts (id, occurrence_id, account_id, kind, n, status, to_e164, due_at, created_at, idempotency_key, ring_timeout_seconds, updated_at)
       VALUES ('c1', NULL, 'a1', 'test', 1, 'canceled', '+12015550123', ?, ?, 'c1', 45, ?)`,
    ).run(t, t, t);

    assert.deepEqual(migrate(db, all).includes(10), true);
    const store = createSqliteStore(db);
    const { series, attempts } = await store.load({ series: ['s1'], attempts: ['c1'] });
    assert.deepEqual(series[0], {
      id: 's1',
      accountId: 'a1',
      phoneNumberId: 'p1',
      to: '+12015550123',
      label: 'Gym',
      message: null,
      greetingName: 'Sam',
      voice: 'male',
      rule: {
        kind: 'weekly',
        timezone: 'America/New_York',
        localTime: '07:00',
        daysOfWeek: ['mon', 'fri'],
        startDate: null,
        endDate: null,
        pausedUntil: null,
        skipDates: ['2027-03-05'],
      },
      policy: { maxSnoozes: 1, offsetsMinutes: [3], ringTimeoutSeconds: 30, snoozeMinutes: 4 },
      smsFallback: true,
      backupAlarm: false,
      enabled: true,
      status: 'active',
      nextOccurrenceId: 'o1',
      createdAt: t,
      updatedAt: t,
      version: 1,
      // Migration 0019 then moved the schedule's own fields into the series (decision 0021).
      attributes: `{"source":"app","created_in_timezone":null,"greeting_name":null,"retry_policy":null,"updated_at":${t}}`,
    });
    assert.equal(attempts[0]!.status, 'cancelled');
    // The schedule names an occurrence that does not exist: start-up reconciliation repairs it.
    assert.deepEqual(
      (await store.listSeriesWithoutNext(10)).map((s) => s.id),
      ['s1'],
    );
    await store.close();
    db.close();
  });
});
