/**
 * The `occurrences` table: one wake-up call at one instant ({@link OccurrenceRecord}).
 * Instants are epoch ms. schedule_id, account_id and phone_number_id carry no foreign key: the
 * engine's tables also serve embedders without schedules or accounts.
 * @module
 */
import type { OccurrenceRecord } from '../model.js';
import type { Table } from './define.js';

export const occurrences: Table<OccurrenceRecord> = {
  name: 'occurrences',
  columns: [
    { name: 'id', type: 'text', field: 'id', primaryKey: true, collate: 'C' },
    { name: 'schedule_id', type: 'text', field: 'scheduleId', nullable: true, collate: 'C' },
    { name: 'account_id', type: 'text', field: 'accountId' },
    { name: 'phone_number_id', type: 'text', field: 'phoneNumberId', nullable: true },
    { name: 'to_e164', type: 'text', field: 'to', note: 'number called (and texted on fallback)' },
    { name: 'label', type: 'text', field: 'label', nullable: true },
    { name: 'message', type: 'text', field: 'message', nullable: true },
    { name: 'greeting_name', type: 'text', field: 'greetingName', nullable: true },
    { name: 'voice', type: 'text', field: 'voice', nullable: true },
    { name: 'timezone', type: 'text', field: 'timezone', nullable: true },
    {
      name: 'derivation_source',
      type: 'text',
      field: 'derivationSource',
      oneOf: ['one_off', 'in_minutes', 'weekly', 'moved'],
    },
    { name: 'scheduled_at', type: 'epoch_ms', field: 'scheduledAt' },
    // The retry policy, copied from the series (or the account's default) when the occurrence is made.
    { name: 'max_snoozes', type: 'int', field: 'policy.maxSnoozes' },
    {
      name: 'offsets_minutes',
      type: 'json',
      field: 'policy.offsetsMinutes',
      note: 'JSON array of integers',
    },
    { name: 'ring_timeout_seconds', type: 'int', field: 'policy.ringTimeoutSeconds' },
    { name: 'snooze_minutes', type: 'int', field: 'policy.snoozeMinutes' },
    { name: 'sms_fallback', type: 'boolean', field: 'smsFallback' },
    { name: 'backup_alarm', type: 'boolean', field: 'backupAlarm' },
    {
      name: 'status',
      type: 'text',
      field: 'status',
      oneOf: [
        'pending',
        'dispatching',
        'calling',
        'waiting',
        'confirmed',
        'missed',
        'failed',
        'cancelled',
        'unconfirmed',
      ],
    },
    {
      name: 'outcome_reason',
      type: 'text',
      field: 'outcomeReason',
      nullable: true,
      oneOf: [
        'confirmed',
        'stopped',
        'no_input',
        'voicemail',
        'no_answer',
        'busy',
        'provider_error',
        'cancelled',
        'late_dispatch',
        'calls_revoked',
        'number_blocked',
        'no_entitlement',
        'daily_cap_reached',
        'snoozes_exhausted',
      ],
    },
    { name: 'attempt_count', type: 'int', field: 'attemptCount' },
    { name: 'snooze_count', type: 'int', field: 'snoozeCount' },
    {
      name: 'series_base',
      type: 'epoch_ms',
      field: 'seriesBase',
      note: 'retry offsets count from here (moves on snooze)',
    },
    {
      name: 'retry_index',
      type: 'int',
      field: 'retryIndex',
      note: 'retries used since series_base',
    },
    {
      name: 'next_due_at',
      type: 'epoch_ms',
      field: 'nextDueAt',
      nullable: true,
      note: "the timer wheel's key; NULL when finished",
    },
    { name: 'live_attempt_id', type: 'text', field: 'liveAttemptId', nullable: true, collate: 'C' },
    { name: 'backup_alarm_at', type: 'epoch_ms', field: 'backupAlarmAt', nullable: true },
    { name: 'reached_person', type: 'boolean', field: 'reachedPerson' },
    { name: 'reached_voicemail', type: 'boolean', field: 'reachedVoicemail' },
    {
      name: 'miss_reason',
      type: 'text',
      field: 'missReason',
      nullable: true,
      oneOf: ['no_answer', 'busy'],
    },
    {
      name: 'fallback_state',
      type: 'text',
      field: 'fallbackState',
      oneOf: ['none', 'pending', 'sent', 'failed'],
    },
    { name: 'dispatched_at', type: 'epoch_ms', field: 'dispatchedAt', nullable: true },
    { name: 'confirmed_at', type: 'epoch_ms', field: 'confirmedAt', nullable: true },
    { name: 'finished_at', type: 'epoch_ms', field: 'finishedAt', nullable: true },
    { name: 'created_at', type: 'epoch_ms', field: 'createdAt' },
    { name: 'updated_at', type: 'epoch_ms', field: 'updatedAt' },
    { name: 'version', type: 'int64', field: 'version', default: '1' },
    { name: 'local_date', type: 'text', field: 'localDate', nullable: true },
    { name: 'tzdata_version', type: 'text', field: 'tzdataVersion', nullable: true },
    // The process that claimed this row's due work (DueQuery.lease) and until when; the version
    // is bumped when the owner changes, so it is the claim's fencing value.
    { name: 'lease_owner', type: 'text', nullable: true, only: 'postgres' },
    { name: 'lease_until', type: 'epoch_ms', nullable: true, only: 'postgres' },
    {
      name: 'rowid',
      type: 'int64',
      identity: true,
      only: 'postgres',
      note: "insertion order (SQLite's rowid)",
    },
  ],
  indexes: [
    {
      name: 'occurrences_due',
      on: ['next_due_at', 'id'],
      where: 'next_due_at IS NOT NULL',
      note: 'Refill of the timer wheel: due work in instant order.',
    },
    {
      name: 'occurrences_account',
      on: ['account_id', 'scheduled_at'],
      note: 'GET /occurrences (soonest first, per account).',
    },
    {
      name: 'occurrences_schedule',
      on: ['schedule_id', 'scheduled_at'],
      note: "A series' occurrences.",
    },
    {
      name: 'occurrences_tzdata',
      on: ['id', 'tzdata_version'],
      where: "status = 'pending' AND tzdata_version IS NOT NULL",
      // PostgreSQL's was made on the id alone; databases keep the index they have.
      postgres: { on: ['id'] },
      note: 'Zone rules changed: pending occurrences resolved under another version.',
    },
    {
      name: 'occurrences_fallback',
      on: ['id'],
      where: "fallback_state = 'pending'",
      note: 'Reconciliation: fallback texts decided but not known sent.',
    },
  ],
};
