/**
 * The `attempts` table: one phone call each, of an occurrence or standalone (test and demo
 * calls) ({@link AttemptRecord}). An attempt's id is also the idempotency key sent to the provider.
 * @module
 */
import type { AttemptRecord } from '../model.js';
import type { Table } from './define.js';

export const attempts: Table<AttemptRecord> = {
  name: 'attempts',
  columns: [
    {
      name: 'id',
      type: 'text',
      field: 'id',
      primaryKey: true,
      collate: 'C',
      note: 'also the idempotency key sent to the provider',
    },
    {
      name: 'occurrence_id',
      type: 'text',
      field: 'occurrenceId',
      nullable: true,
      collate: 'C',
      references: { table: 'occurrences', column: 'id' },
      note: 'NULL: standalone test/demo call',
    },
    { name: 'account_id', type: 'text', field: 'accountId', nullable: true },
    { name: 'phone_number_id', type: 'text', field: 'phoneNumberId', nullable: true },
    {
      name: 'kind',
      type: 'text',
      field: 'kind',
      oneOf: ['first', 'retry', 'snooze', 'test', 'demo'],
    },
    { name: 'n', type: 'int', field: 'n' },
    {
      name: 'status',
      type: 'text',
      field: 'status',
      oneOf: [
        'scheduled',
        'requested',
        'ringing',
        'answered',
        'confirmed',
        'snoozed',
        'stopped',
        'no_input',
        'voicemail',
        'no_answer',
        'busy',
        'failed',
        'cancelled',
      ],
    },
    { name: 'to_e164', type: 'text', field: 'to' },
    { name: 'due_at', type: 'epoch_ms', field: 'dueAt' },
    { name: 'created_at', type: 'epoch_ms', field: 'createdAt' },
    { name: 'requested_at', type: 'epoch_ms', field: 'requestedAt', nullable: true },
    { name: 'ringing_at', type: 'epoch_ms', field: 'ringingAt', nullable: true },
    { name: 'answered_at', type: 'epoch_ms', field: 'answeredAt', nullable: true },
    { name: 'ended_at', type: 'epoch_ms', field: 'endedAt', nullable: true },
    {
      name: 'answered_by',
      type: 'text',
      field: 'answeredBy',
      nullable: true,
      oneOf: ['person', 'machine'],
    },
    { name: 'digits', type: 'text', field: 'digits', nullable: true },
    { name: 'duration_seconds', type: 'int', field: 'durationSeconds', nullable: true },
    { name: 'error_code', type: 'text', field: 'errorCode', nullable: true },
    { name: 'provider_call_id', type: 'text', field: 'providerCallId', nullable: true },
    { name: 'idempotency_key', type: 'text', field: 'idempotencyKey' },
    { name: 'ring_timeout_seconds', type: 'int', field: 'ringTimeoutSeconds' },
    {
      name: 'deadline_at',
      type: 'epoch_ms',
      field: 'deadlineAt',
      nullable: true,
      note: 'watchdog; NULL once terminal',
    },
    {
      name: 'script',
      type: 'json',
      field: 'script',
      nullable: true,
      note: 'JSON CallScript, standalone calls only',
    },
    { name: 'updated_at', type: 'epoch_ms', field: 'updatedAt' },
    { name: 'version', type: 'int64', field: 'version', default: '1' },
    // The PostgreSQL store's claim of a standalone call's due work (see occurrences).
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
    { name: 'attempts_occurrence', on: ['occurrence_id', 'n'] },
    {
      name: 'attempts_account',
      on: ['account_id', 'created_at'],
      note: 'GET /calls: newest first per account.',
    },
    {
      name: 'attempts_unacknowledged',
      on: ['id'],
      where: "status = 'requested' AND provider_call_id IS NULL",
      note: "Reconciliation at start: intent stored, provider's acceptance not.",
    },
    {
      name: 'attempts_live_test',
      on: ['phone_number_id'],
      where: "occurrence_id IS NULL AND status IN ('requested', 'ringing', 'answered')",
      note: 'A standalone test call still live, per number.',
    },
    {
      name: 'attempts_standalone_due',
      on: ['deadline_at', 'id'],
      where: 'occurrence_id IS NULL AND deadline_at IS NOT NULL',
      note: "Refill of the timer wheel: standalone calls' watchdogs.",
    },
  ],
};
