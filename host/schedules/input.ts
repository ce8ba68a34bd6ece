/**
 * Request fields of ScheduleIn / SchedulePatchIn checked beyond what the schema already
 * checked: texts (trimmed, content rule), retry policy (strictly increasing offsets), zones,
 * and the timing fields compiled by `compileRequestTiming` (recurrence-input.ts) with the catalogue's
 * specific codes. Every function throws a AppError naming the request field.
 * @module
 */
import type { ScheduleIn, SchedulePatchIn } from '../generated/openapi.js';
import {
  checkTimeZone,
  type EpochMs,
  type OccurrenceTime,
  type RetryPolicy,
} from '../../engine/index.js';
import { compileRequestTiming } from './recurrence-input.js';
import type { StoredRetryPolicy } from '../db/accounts.js';
import { timingOf, type Timing } from './records.js';
import { resolveEngineRetryPolicy } from '../account/index.js';
import { AppError, isErrorCode, problem } from '../errors.js';
import { checkText, TEXT_LIMITS } from '../phone/index.js';

/** The body of POST /schedules (and its preview): the schema's ScheduleIn, already validated. */
export type ScheduleInBody = ScheduleIn;

/** The body of PATCH /schedules/{id} (and its preview): the schema's SchedulePatchIn, already validated. */
export type SchedulePatchBody = SchedulePatchIn;

/** A checked text (label, message, greeting name), trimmed. */
export function checkedText(value: string, field: 'label' | 'message' | 'greeting_name'): string {
  const max =
    field === 'label'
      ? TEXT_LIMITS.label
      : field === 'message'
        ? TEXT_LIMITS.message
        : TEXT_LIMITS.greetingName;
  const r = checkText(value, max);
  if (!r.ok)
    throw problem('message_disallowed_content', { field, detail: `${field} ${r.reason}.` });
  return r.value;
}

/**
 * The engine's sentence about a timing field (`end_date must not be before start_date.`) as a
 * validation_error: the sentence, with the field renamed as the request names it, is the
 * detail; the item's message is the sentence without the field's name it starts with, as every
 * item's message is (`must not be before start_date`), so no text says the name twice.
 */
function timingInvalid(
  engineField: string,
  field: string,
  reason: string,
  sentence: string,
): AppError {
  const said = sentence.startsWith(`${engineField} `)
    ? `${field}${sentence.slice(engineField.length)}`
    : sentence;
  const message = (said.startsWith(`${field} `) ? said.slice(field.length + 1) : said).replace(
    /\.$/,
    '',
  );
  return new AppError('validation_error', {
    detail: said,
    field,
    errors: [{ field, in: 'body', code: reason, message }],
  });
}

/** A retry policy object completed with the built-in defaults, resolved by the engine; invalid_retry_policy otherwise. */
export function checkedPolicy(value: Partial<StoredRetryPolicy>): RetryPolicy {
  return resolveEngineRetryPolicy(value, 'retry_policy');
}

/** A zone accepted by the zone policy, canonical; invalid_timezone / timezone_not_allowed otherwise. */
export function checkedZone(value: string, field: string): string {
  const r = checkTimeZone(value);
  if (!r.ok) {
    throw problem(r.code, {
      field,
      detail:
        r.code === 'timezone_not_allowed'
          ? `${field}: a fixed-offset zone is not a place; pick a city zone or UTC.`
          : `${field}: not an IANA city zone known.`,
    });
  }
  return r.timezone;
}

/** What {@link compileTiming} reads. */
export interface TimingInput {
  kind: 'once' | 'recurring';
  timezone: string;
  localDate: string | null;
  localTime: string | null;
  /** in_minutes of a new one-off (creation only). */
  inMinutes: number | null;
  daysOfWeek: readonly string[];
  startDate: string | null;
  endDate: string | null;
  pausedUntil: string | null;
  skipDates: readonly string[];
}

/**
 * Validates and compiles timing fields at `now` with the engine's rules (codes:
 * invalid_timezone, timezone_not_allowed, invalid_time, local_date_required,
 * in_minutes_out_of_range, days_of_week_empty, time_in_past, date_too_far,
 * validation_error). Recurring-only fields are dropped from a one-off and one-off fields
 * from a recurring call. `fieldNames` renames fields in problems (pause: paused_until → until).
 */
export function compileTiming(
  input: TimingInput,
  now: EpochMs,
  fieldNames: Record<string, string> = {},
): { timing: Timing; first: OccurrenceTime | null } {
  const r = compileRequestTiming(
    {
      kind: input.kind,
      timezone: input.timezone,
      localDate: input.localDate,
      localTime: input.localTime,
      inMinutes: input.inMinutes,
      daysOfWeek: input.daysOfWeek,
      startDate: input.startDate,
      endDate: input.endDate,
      pausedUntil: input.pausedUntil,
      skipDates: input.skipDates,
    },
    now,
  );
  if (!r.ok) {
    const field = fieldNames[r.field] ?? r.field;
    if (r.code === 'validation_error')
      throw timingInvalid(r.field, field, r.reason ?? 'invalid', r.message);
    if (!isErrorCode(r.code))
      throw new Error(`compileRequestTiming: code ${r.code} is not in the error catalogue`);
    throw problem(r.code, { field, detail: r.message });
  }
  return { timing: timingOf(r.recurrence), first: r.first };
}
