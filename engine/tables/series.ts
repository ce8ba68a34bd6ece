/**
 * The `series` table: a schedule's rule as an engine record ({@link SeriesRecord}): the host's
 * schedule is this row (its id), its own display fields in `attributes` (docs/decisions/0021).
 * @module
 */
import type { SeriesRecord } from '../model.js';
import type { Table } from './define.js';

export const series: Table<SeriesRecord> = {
  name: 'series',
  columns: [
    { name: 'id', type: 'text', field: 'id', primaryKey: true, collate: 'C' },
    { name: 'account_id', type: 'text', field: 'accountId' },
    { name: 'phone_number_id', type: 'text', field: 'phoneNumberId', nullable: true },
    { name: 'to_e164', type: 'text', field: 'to' },
    { name: 'label', type: 'text', field: 'label', nullable: true },
    { name: 'message', type: 'text', field: 'message', nullable: true },
    { name: 'greeting_name', type: 'text', field: 'greetingName', nullable: true },
    { name: 'voice', type: 'text', field: 'voice', nullable: true },
    {
      name: 'rule',
      type: 'json',
      field: 'rule',
      note: 'JSON Recurrence (one_off, in_minutes, weekly)',
    },
    {
      name: 'policy',
      type: 'json',
      field: 'policy',
      note: 'JSON RetryPolicy (camelCase, resolved)',
    },
    { name: 'sms_fallback', type: 'boolean', field: 'smsFallback' },
    { name: 'backup_alarm', type: 'boolean', field: 'backupAlarm' },
    { name: 'enabled', type: 'boolean', field: 'enabled' },
    { name: 'status', type: 'text', field: 'status', oneOf: ['active', 'completed', 'disabled'] },
    {
      name: 'next_occurrence_id',
      type: 'text',
      field: 'nextOccurrenceId',
      nullable: true,
      collate: 'C',
    },
    { name: 'created_at', type: 'epoch_ms', field: 'createdAt' },
    { name: 'updated_at', type: 'epoch_ms', field: 'updatedAt' },
    { name: 'version', type: 'int64', field: 'version' },
    {
      name: 'attributes',
      type: 'text',
      field: 'attributes',
      nullable: true,
      note: "the embedder's own, opaque to the engine",
    },
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
      name: 'series_active',
      on: ['id'],
      where: "status = 'active' AND enabled = 1",
      postgres: { where: "status = 'active' AND enabled" },
      note: 'Start-up reconciliation: active, enabled series (their next occurrence is checked).',
    },
    {
      name: 'series_account',
      on: ['account_id', 'created_at'],
      note: "An account's series, newest first (StoreReads.listSeries).",
    },
    {
      name: 'series_phone',
      on: ['phone_number_id'],
      where: "status = 'active'",
      note: 'Is an active series calling this number? (StoreReads.isPhoneNumberInUse)',
    },
  ],
};
