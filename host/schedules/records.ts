/**
 * A schedule is the engine's series of the same id, and lives nowhere else (docs/decisions/0021):
 * the series holds the rule, the call's texts, the number, the switches, the status and the
 * next occurrence; what only the API shows (where the call was made from, the zone it was made
 * in, its own greeting and retry policy as given, when it was last changed) rides in the
 * series' `attributes`, which the engine stores and never reads. This module maps one to the
 * other and reads schedules through the engine's read model; saving is one `saveSeries`
 * (`host/schedules/apply.ts`), so one commit. It holds no SQL: the engine's store does the
 * reading. Devices and calls read schedules through the feature's public face (index.ts); the
 * account's export gets its rows through a use case (host/use-cases/schedule-export.ts).
 * @module
 */
import type { EpochMs, OccurrenceRecord, Recurrence, SeriesRecord } from '../../engine/index.js';
import { localTimeAt } from '../../engine/internals.js';
import type { StoredRetryPolicy } from '../db/accounts.js';
import { engineReads, engineStore } from '../db/engine-store.js';
import { exportedRows } from '../db/export-rows.js';
import { livePhoneNumberIds } from '../db/phone-numbers.js';
import type { Db } from '../db/sql.js';

/** How a schedule's instants are derived. */
export type ScheduleMode = 'one_off' | 'in_minutes' | 'weekly';
/** ScheduleOut.status (the series' status). */
export type ScheduleStatus = 'active' | 'completed' | 'disabled';
/** ScheduleOut.source: the credential that created it. */
export type ScheduleSource = 'app' | 'web' | 'api';

/** The timing fields of a schedule, as its rule holds them. */
export interface Timing {
  kind: 'once' | 'recurring';
  mode: ScheduleMode;
  timezone: string;
  localDate: string | null;
  localTime: string;
  fixedAt: EpochMs | null;
  daysOfWeek: string[];
  startDate: string | null;
  endDate: string | null;
  pausedUntil: string | null;
  skipDates: string[];
}

/** One schedule, instants as epoch ms. */
export interface Schedule extends Timing {
  id: string;
  accountId: string;
  label: string;
  message: string | null;
  /** The schedule's own greeting, or null for the account's. */
  greetingName: string | null;
  createdInTimezone: string | null;
  enabled: boolean;
  status: ScheduleStatus;
  backupAlarm: boolean;
  smsFallback: boolean;
  /** The schedule's own policy, or null for the account's default. */
  retryPolicy: StoredRetryPolicy | null;
  phoneNumberId: string | null;
  nextOccurrenceId: string | null;
  source: ScheduleSource;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

/** A schedule to write (a plan's draft). */
export type ScheduleWrite = Schedule;

/** What the series' `attributes` hold: the API's own fields, snake_case as the API spells them. */
interface Attributes {
  source: ScheduleSource;
  created_in_timezone: string | null;
  greeting_name: string | null;
  retry_policy: StoredRetryPolicy | null;
  /** Null until a change after the creation (the series' createdAt then). */
  updated_at: EpochMs | null;
}

const ONE_OFF_EMPTY = {
  kind: 'once' as const,
  daysOfWeek: [],
  startDate: null,
  endDate: null,
  pausedUntil: null,
  skipDates: [],
};

/** The timing fields a rule makes. */
export function timingOf(rule: Recurrence): Timing {
  switch (rule.kind) {
    case 'in_minutes': {
      // The schedule shows the wall time the call rings at in its zone.
      const local = localTimeAt(rule.timezone, rule.at);
      return {
        ...ONE_OFF_EMPTY,
        mode: 'in_minutes',
        timezone: rule.timezone,
        localDate: local.date,
        localTime: local.time,
        fixedAt: rule.at,
      };
    }
    case 'one_off':
      return {
        ...ONE_OFF_EMPTY,
        mode: 'one_off',
        timezone: rule.timezone,
        localDate: rule.localDate,
        localTime: rule.localTime,
        fixedAt: null,
      };
    case 'weekly':
      return {
        kind: 'recurring',
        mode: 'weekly',
        timezone: rule.timezone,
        localDate: null,
        localTime: rule.localTime,
        fixedAt: null,
        daysOfWeek: [...rule.daysOfWeek],
        startDate: rule.startDate,
        endDate: rule.endDate,
        pausedUntil: rule.pausedUntil,
        skipDates: [...rule.skipDates],
      };
  }
}

/** The series' `attributes` of a schedule. */
export function scheduleAttributes(s: ScheduleWrite): string {
  const a: Attributes = {
    source: s.source,
    created_in_timezone: s.createdInTimezone,
    greeting_name: s.greetingName,
    retry_policy: s.retryPolicy,
    updated_at: s.updatedAt === s.createdAt ? null : s.updatedAt,
  };
  return JSON.stringify(a);
}

/** The schedule a series is. */
export function scheduleOf(s: SeriesRecord): Schedule {
  // Erased with its account (StoreMaintenance.eraseAccount): nothing of the API's own is left.
  const a: Partial<Attributes> =
    s.attributes === null ? {} : (JSON.parse(s.attributes) as Attributes);
  return {
    id: s.id,
    accountId: s.accountId,
    ...timingOf(s.rule),
    label: s.label ?? '',
    message: s.message,
    greetingName: a.greeting_name ?? null,
    createdInTimezone: a.created_in_timezone ?? null,
    enabled: s.enabled,
    status: s.status,
    backupAlarm: s.backupAlarm,
    smsFallback: s.smsFallback,
    retryPolicy: a.retry_policy ?? null,
    phoneNumberId: s.phoneNumberId,
    nextOccurrenceId: s.nextOccurrenceId,
    source: a.source ?? 'api',
    createdAt: s.createdAt,
    updatedAt: a.updated_at ?? s.createdAt,
  };
}

/** A schedule with its stored next occurrence when that one is unfinished. */
export interface ScheduleWithNext {
  schedule: Schedule;
  /** The occurrence the series names, when it is not finished. */
  stored: OccurrenceRecord | null;
}

const FINISHED = new Set<OccurrenceRecord['status']>([
  'confirmed',
  'missed',
  'failed',
  'cancelled',
  'unconfirmed',
]);
const unfinished = (o: OccurrenceRecord | undefined): OccurrenceRecord | null =>
  o && !FINISHED.has(o.status) ? o : null;

/** The schedule with this id and its stored next occurrence, in one read; `accountId` null: whatever its account. */
export async function findSchedule(
  db: Db,
  accountId: string | null,
  id: string,
): Promise<ScheduleWithNext | undefined> {
  const snapshot = await engineStore(db).load({ series: [id] });
  const series = snapshot.series.find((s) => s.id === id);
  if (!series || (accountId !== null && series.accountId !== accountId)) return undefined;
  return {
    schedule: scheduleOf(series),
    stored: unfinished(snapshot.occurrences.find((o) => o.id === series.nextOccurrenceId)),
  };
}

/** The schedule with this id when it belongs to `accountId`. */
export async function getSchedule(
  db: Db,
  accountId: string,
  id: string,
): Promise<Schedule | undefined> {
  return (await findSchedule(db, accountId, id))?.schedule;
}

/** Sort key of GET /schedules (newest first): created_at, then insertion order. */
export interface ScheduleCursor {
  createdAt: EpochMs;
  seq: number;
}

/** A page of an account's schedules, newest first, optionally with one status, each with its stored next occurrence. */
export async function listSchedules(
  db: Db,
  accountId: string,
  options: { status: ScheduleStatus | null; limit: number; before: ScheduleCursor | null },
): Promise<Array<ScheduleWithNext & { seq: number }>> {
  const page = await engineReads(db).listSeries({
    accountId,
    status: options.status,
    before: options.before,
    limit: options.limit,
  });
  const byId = new Map(page.occurrences.map((o) => [o.id, o]));
  return page.series.map(({ record, seq }) => ({
    schedule: scheduleOf(record),
    seq,
    stored: record.nextOccurrenceId === null ? null : unfinished(byId.get(record.nextOccurrenceId)),
  }));
}

/** The ids of every schedule of an account. */
export async function accountScheduleIds(db: Db, accountId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let after = 0; ;) {
    const page = await engineReads(db).exportSeries(accountId, after, 500);
    for (const s of page) ids.push(s.record.id);
    if (page.length < 500) return ids;
    after = page[page.length - 1]!.seq;
  }
}

/**
 * A schedule as GET /me/export shows it: the columns of the `schedules` table that held it
 * until migration 0019, in that order (flags as 0 and 1, lists and the policy as JSON).
 * `phoneLive`: whether its number is still the account's (a deleted one shows null).
 */
export function scheduleExportRow(s: Schedule, phoneLive: boolean): Record<string, unknown> {
  const flag = (b: boolean) => (b ? 1 : 0);
  return {
    id: s.id,
    account_id: s.accountId,
    kind: s.kind,
    mode: s.mode,
    label: s.label,
    message: s.message,
    greeting_name: s.greetingName,
    local_date: s.localDate,
    local_time: s.localTime,
    fixed_at: s.fixedAt,
    timezone: s.timezone,
    created_in_timezone: s.createdInTimezone,
    days_of_week: s.daysOfWeek,
    start_date: s.startDate,
    end_date: s.endDate,
    paused_until: s.pausedUntil,
    skip_dates: s.skipDates,
    enabled: flag(s.enabled),
    status: s.status,
    backup_alarm: flag(s.backupAlarm),
    sms_fallback: flag(s.smsFallback),
    retry_policy: s.retryPolicy,
    phone_number_id: phoneLive ? s.phoneNumberId : null,
    next_occurrence_id: s.nextOccurrenceId,
    source: s.source,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

/** Batches of the account's schedules as GET /me/export shows them ({@link scheduleExportRow}), oldest first. */
export async function* scheduleExportBatches(
  db: Db,
  accountId: string,
  batchSize = 500,
): AsyncGenerator<Record<string, unknown>[]> {
  const live = await livePhoneNumberIds(db, accountId);
  for (let after = 0; ;) {
    const page = await engineReads(db).exportSeries(accountId, after, batchSize);
    if (page.length === 0) return;
    after = page[page.length - 1]!.seq;
    yield exportedRows(
      page.map(({ record }) =>
        scheduleExportRow(
          scheduleOf(record),
          record.phoneNumberId !== null && live.has(record.phoneNumberId),
        ),
      ),
    );
    if (page.length < batchSize) return;
  }
}
