/**
 * Series: rows of the `series` table (migration 0010) and the engine's {@link SeriesRecord}.
 * @module
 */
import type { EpochMs, RetryPolicy, SeriesRecord } from '../ports.js';
import type { Recurrence } from '../time/recurrence.js';

/** Columns in the order used by {@link seriesToRow}. */
export const SERIES_COLUMNS = [
  'id',
  'account_id',
  'phone_number_id',
  'to_e164',
  'label',
  'message',
  'greeting_name',
  'voice',
  'rule',
  'policy',
  'sms_fallback',
  'backup_alarm',
  'enabled',
  'status',
  'next_occurrence_id',
  'created_at',
  'updated_at',
  'version',
] as const;

/** Positional parameters for an insert of `r`. */
export function seriesToRow(r: SeriesRecord): unknown[] {
  return [
    r.id,
    r.accountId,
    r.phoneNumberId,
    r.to,
    r.label,
    r.message,
    r.greetingName,
    r.voice,
    JSON.stringify(r.rule),
    JSON.stringify(r.policy),
    r.smsFallback ? 1 : 0,
    r.backupAlarm ? 1 : 0,
    r.enabled ? 1 : 0,
    r.status,
    r.nextOccurrenceId,
    r.createdAt,
    r.updatedAt,
    r.version,
  ];
}

/** The record for a raw row. */
export function rowToSeries(v: unknown[]): SeriesRecord {
  return {
    id: v[0] as string,
    accountId: v[1] as string,
    phoneNumberId: v[2] as string | null,
    to: v[3] as string,
    label: v[4] as string | null,
    message: v[5] as string | null,
    greetingName: v[6] as string | null,
    voice: v[7] as string | null,
    rule: JSON.parse(v[8] as string) as Recurrence,
    policy: JSON.parse(v[9] as string) as RetryPolicy,
    smsFallback: v[10] === 1,
    backupAlarm: v[11] === 1,
    enabled: v[12] === 1,
    status: v[13] as SeriesRecord['status'],
    nextOccurrenceId: v[14] as string | null,
    createdAt: v[15] as EpochMs,
    updatedAt: v[16] as EpochMs,
    version: v[17] as number,
  };
}
