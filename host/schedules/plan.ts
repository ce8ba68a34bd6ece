/**
 * Planning a schedule change: every check and computation of POST /schedules and PATCH
 * /schedules/{id} (and of pause, resume and skip-next, which are PATCHes of one field),
 * with no write. Saving applies the plan (`apply.ts`); the preview endpoints present it.
 * One code path for both, so a preview raises exactly the errors saving would raise and
 * shows exactly what saving would store.
 *
 * Order of the checks: 409 occurrence_in_progress (the call is being placed or rings), then
 * the body (400: zones, timing, texts, retry policy, number), then the account rules for a
 * schedule that starts ringing (403 number_blocked, 403 calls_revoked, 402 no_entitlement).
 * @module
 */
import type { Db } from '../db/sql.js';
import type {
  DerivationSource,
  EpochMs,
  OccurrenceRecord,
  OccurrenceTime,
  RetryPolicy,
} from '../../engine/index.js';
import type { Account } from '../db/accounts.js';
import { engineStore } from '../db/engine-store.js';
import {
  getBlock,
  getPhoneNumber,
  getPrimaryPhoneNumber,
  primaryPhoneNumberId,
  type PhoneNumber,
} from '../db/phone-numbers.js';
import { toStoredPolicy } from '../account/index.js';
import type { Schedule, ScheduleSource, ScheduleWrite } from './records.js';
import { assertMayStartCalls, refusalProblem } from '../entitlement/admission.js';
import { invalid, problem } from '../errors.js';
import { isVerified } from '../phone/index.js';
import {
  checkedPolicy,
  checkedText,
  checkedZone,
  compileTiming,
  type ScheduleInBody,
  type SchedulePatchBody,
  type TimingInput,
} from './input.js';
import { IN_PROGRESS, UNFINISHED, nextAfterOccurrence, nextOf, occurrencePolicy } from './rule.js';

/** What a change does to the schedule's stored occurrence. */
export type OccurrenceAction =
  /** Leave it (none stored and none wanted, or a call in progress finishes its own attempts). */
  | { kind: 'keep' }
  /** Store a new pending occurrence (id chosen now, so a preview and a save agree). */
  | { kind: 'schedule'; id: string; at: OccurrenceTime }
  /** Change the pending occurrence in place (same id). */
  | { kind: 'amend'; at: OccurrenceTime }
  /** Cancel the pending occurrence: nothing to ring any more. */
  | { kind: 'cancel' };

/** A checked change, ready to apply or to present. */
export interface SchedulePlan {
  /** The schedule before the change; null when creating. */
  before: Schedule | null;
  /** The row to write; `nextOccurrenceId` already says which occurrence it will name. */
  after: ScheduleWrite;
  account: Account;
  /** The number the schedule rings (null only when it cannot ring and has none). */
  phone: PhoneNumber | null;
  /** The stored unfinished occurrence before the change, if any. */
  stored: OccurrenceRecord | null;
  /** The next call under the new rule that the stored slot will hold (null: none). */
  first: OccurrenceTime | null;
  action: OccurrenceAction;
  /**
   * The retry policy in effect, in the engine's spelling: resolved here once when the request
   * gives one (the runtime takes it as it is), else the account's default or the built-in one.
   */
  policy: RetryPolicy;
  /** Overrides the rule's derivation_source of the occurrence stored or amended (a travel move records `moved`). */
  derivationSource?: DerivationSource;
}

/** What planning needs besides the body. */
export interface PlanContext {
  db: Db;
  now: EpochMs;
  account: Account;
  newId(): string;
}

const TIMING_FIELDS = [
  'kind',
  'local_date',
  'local_time',
  'timezone',
  'days_of_week',
  'start_date',
  'end_date',
  'paused_until',
  'skip_dates',
] as const;

/** Plans POST /schedules. */
export async function planCreate(
  ctx: PlanContext,
  body: ScheduleInBody,
  source: ScheduleSource,
): Promise<SchedulePlan> {
  const { account, now } = ctx;
  const inMinutes = body.kind === 'once' && body.in_minutes != null ? body.in_minutes : null;
  let zone = body.timezone ?? account.homeTimezone ?? (inMinutes !== null ? 'UTC' : null);
  if (zone === null) {
    throw invalid({
      field: 'timezone',
      in: 'body',
      code: 'required',
      message: 'is required: the account has no home_timezone',
    });
  }
  zone = checkedZone(zone, 'timezone');
  const createdIn =
    body.created_in_timezone == null
      ? null
      : checkedZone(body.created_in_timezone, 'created_in_timezone');
  const { timing, first } = compileTiming(
    {
      kind: body.kind,
      timezone: zone,
      localDate: body.local_date ?? null,
      localTime: body.local_time ?? null,
      inMinutes,
      daysOfWeek: body.days_of_week ?? [],
      startDate: body.start_date ?? null,
      endDate: body.end_date ?? null,
      pausedUntil: body.paused_until ?? null,
      skipDates: body.skip_dates ?? [],
    },
    now,
  );
  const enabled = body.enabled ?? true;
  // The policy is resolved once, here (the runtime takes a resolved one as it is).
  const policy = body.retry_policy == null ? null : checkedPolicy(body.retry_policy);
  const draft: ScheduleWrite = {
    id: ctx.newId(),
    accountId: account.id,
    ...timing,
    label: body.label == null ? 'Wake-up call' : checkedText(body.label, 'label'),
    message: body.message == null ? null : checkedText(body.message, 'message'),
    greetingName:
      body.greeting_name == null ? null : checkedText(body.greeting_name, 'greeting_name'),
    createdInTimezone: createdIn,
    enabled,
    status: !enabled ? 'disabled' : first ? 'active' : 'completed',
    backupAlarm: body.backup_alarm ?? account.defaultBackupAlarm,
    smsFallback: body.sms_fallback ?? false,
    retryPolicy: null,
    phoneNumberId: null,
    nextOccurrenceId: null,
    source,
    createdAt: now,
    updatedAt: now,
  };
  if (policy) draft.retryPolicy = toStoredPolicy(policy);
  // Without phone_number_id: the primary number, read whole in one statement (not its id, then it).
  const primary =
    body.phone_number_id === undefined || body.phone_number_id === null
      ? await getPrimaryPhoneNumber(ctx.db, account.id)
      : undefined;
  const phoneId = body.phone_number_id ?? primary?.id ?? null;
  if (phoneId === null) {
    throw invalid({
      field: 'phone_number_id',
      in: 'body',
      code: 'required',
      message: 'is required: the account has no primary phone number',
    });
  }
  const phone = await checkedPhone(ctx, phoneId, primary);
  draft.phoneNumberId = phone.id;
  if (draft.status === 'active') await assertMayRing(ctx, phone);
  return finish(ctx, null, draft, phone, null, draft.status === 'active' ? first : null, policy);
}

/** Options of {@link planChange}. */
export interface ChangeOptions {
  /** Renames fields in problems (pause: paused_until → until). */
  fieldNames?: Record<string, string>;
  /**
   * Answer 409 occurrence_in_progress while the stored call is being placed or rings
   * (PATCH, schedule preview, pause, skip-next). Resume does not: a call in progress
   * finishes its own attempts and the change applies from the next call on.
   */
  refuseInProgress: boolean;
}

/** Plans PATCH /schedules/{id} (and pause, resume, skip-next). */
export async function planChange(
  ctx: PlanContext,
  before: Schedule,
  body: SchedulePatchBody,
  options: ChangeOptions,
): Promise<SchedulePlan> {
  const { account, now } = ctx;
  const stored = await storedOccurrence(ctx.db, before);
  if (options.refuseInProgress && stored && IN_PROGRESS.has(stored.status)) {
    throw problem('occurrence_in_progress', {
      detail: 'The call is being placed or is ringing now; change it once it has finished.',
    });
  }
  const draft: ScheduleWrite = {
    ...before,
    daysOfWeek: [...before.daysOfWeek],
    skipDates: [...before.skipDates],
    updatedAt: now,
  };
  if (body.label !== undefined && body.label !== null)
    draft.label = checkedText(body.label, 'label');
  if (body.message !== undefined)
    draft.message = body.message === null ? null : checkedText(body.message, 'message');
  if (body.greeting_name !== undefined)
    draft.greetingName =
      body.greeting_name === null ? null : checkedText(body.greeting_name, 'greeting_name');
  if (body.backup_alarm != null) draft.backupAlarm = body.backup_alarm;
  if (body.sms_fallback != null) draft.smsFallback = body.sms_fallback;
  const policy = body.retry_policy == null ? null : checkedPolicy(body.retry_policy);
  if (body.retry_policy !== undefined) draft.retryPolicy = policy && toStoredPolicy(policy);
  if (body.enabled != null) draft.enabled = body.enabled;

  const kind = body.kind ?? before.kind;
  // end_date null or "" on a recurring call clears it and turns an Off or Done schedule back on.
  const clearsEnd = 'end_date' in body && (body.end_date === null || body.end_date === '');
  const reenables =
    clearsEnd && kind === 'recurring' && before.status !== 'active' && body.enabled == null;
  if (reenables) draft.enabled = true;

  const touched =
    before.mode === 'in_minutes'
      ? changesOneOffTime(before, body)
      : TIMING_FIELDS.some(
          (f) => body[f] !== undefined && (body[f] !== null || NULLABLE_TIMING.has(f)),
        );
  // Asked to ring again: a one-off's time is checked again (time_in_past).
  const turnsOn = (body.enabled === true || reenables) && before.status !== 'active';
  if (touched || (turnsOn && before.kind === 'once')) {
    if (!touched && before.mode === 'in_minutes') {
      // An in-N-minutes call keeps its instant: turning it on again needs that instant ahead.
      if (nextOf(draft, now) === null)
        throw problem('time_in_past', {
          field: 'enabled',
          detail: 'The call was due at a time that already passed.',
        });
    } else {
      const input: TimingInput = {
        kind,
        timezone: body.timezone == null ? before.timezone : checkedZone(body.timezone, 'timezone'),
        localDate: pick(body.local_date, before.localDate),
        localTime: body.local_time ?? before.localTime,
        inMinutes: null,
        daysOfWeek: body.days_of_week ?? (kind === before.kind ? before.daysOfWeek : []),
        startDate: pick(body.start_date, before.startDate),
        endDate: pick(body.end_date, before.endDate),
        pausedUntil: pick(body.paused_until, before.pausedUntil),
        skipDates: body.skip_dates ?? before.skipDates,
      };
      const compiled = compileTiming(input, now, options.fieldNames);
      Object.assign(draft, compiled.timing);
    }
  }
  // The next call under the new rule: after the call still in progress, else after now.
  const running = stored !== null && stored.status !== 'pending';
  const first = running ? nextAfterOccurrence(draft, stored.scheduledAt) : nextOf(draft, now);
  draft.status = !draft.enabled ? 'disabled' : first || running ? 'active' : 'completed';

  const becomesActive = draft.status === 'active' && before.status !== 'active';
  const phoneChange = body.phone_number_id != null && body.phone_number_id !== before.phoneNumberId;
  let phone: PhoneNumber | null;
  if (phoneChange || becomesActive) {
    const id = body.phone_number_id ?? (await currentOrPrimary(ctx, before));
    if (id === null) {
      throw invalid({
        field: 'phone_number_id',
        in: 'body',
        code: 'required',
        message: 'is required: the call has no number and the account has no primary one',
      });
    }
    phone = await checkedPhone(ctx, id);
  } else {
    phone =
      before.phoneNumberId === null
        ? null
        : ((await getPhoneNumber(ctx.db, account.id, before.phoneNumberId)) ?? null);
    if (phone === null && draft.status === 'active') {
      // Its number was removed meanwhile: it must name another one to keep ringing.
      throw invalid({
        field: 'phone_number_id',
        in: 'body',
        code: 'required',
        message: 'is required: the call has no number any more',
      });
    }
  }
  draft.phoneNumberId = phone?.id ?? null;
  if (draft.status === 'active' && (becomesActive || phoneChange))
    await assertMayRing(ctx, phone!, becomesActive);
  return finish(
    ctx,
    before,
    draft,
    phone,
    stored,
    draft.status === 'active' && !running ? first : null,
    policy,
  );
}

/**
 * An in-N-minutes call keeps its exact instant unless the request changes what a one-off
 * rings at: another kind, or a local_date, local_time or timezone other than the ones shown.
 * Fields a one-off ignores (days_of_week, start_date, end_date, paused_until, skip_dates) and
 * the values already shown change nothing.
 */
function changesOneOffTime(before: Schedule, body: SchedulePatchBody): boolean {
  return (
    (body.kind != null && body.kind !== before.kind) ||
    (body.local_date != null && body.local_date !== before.localDate) ||
    (body.local_time != null && body.local_time !== before.localTime) ||
    (body.timezone != null && checkedZone(body.timezone, 'timezone') !== before.timezone)
  );
}

/** Fields that a null clears (their Schedule field is nullable); for the others null means "unchanged". */
const NULLABLE_TIMING = new Set<string>(['local_date', 'start_date', 'end_date', 'paused_until']);

function pick(value: string | null | undefined, current: string | null): string | null {
  return value === undefined ? current : value === '' ? null : value;
}

async function currentOrPrimary(ctx: PlanContext, s: Schedule): Promise<string | null> {
  if (s.phoneNumberId !== null && (await getPhoneNumber(ctx.db, ctx.account.id, s.phoneNumberId)))
    return s.phoneNumberId;
  return (await primaryPhoneNumberId(ctx.db, ctx.account.id)) ?? null;
}

/**
 * The number with this id, owned by the account (else 400 phone_number_not_owned: a number
 * of another account and an id that names no number get the same answer, so ids of other
 * accounts cannot be probed) and verified (else phone_number_unverified).
 */
async function checkedPhone(
  ctx: PlanContext,
  id: string,
  known?: PhoneNumber,
): Promise<PhoneNumber> {
  const phone = known ?? (await getPhoneNumber(ctx.db, ctx.account.id, id));
  if (!phone)
    throw problem('phone_number_not_owned', {
      field: 'phone_number_id',
      detail: 'No phone number with that id belongs to this account.',
    });
  if (!isVerified(phone, ctx.now)) {
    throw problem('phone_number_unverified', {
      field: 'phone_number_id',
      detail: 'The number is not verified (or its verification expired); verify it first.',
    });
  }
  return phone;
}

/**
 * The account rules for a schedule that starts ringing (created enabled, turned on) or
 * rings a new number, in the order the dispatcher applies them: 403 calls_revoked (key 9;
 * POST /me/resume-calls lifts it), 403 number_blocked, then (only when it starts ringing)
 * 402 no_entitlement.
 */
async function assertMayRing(
  ctx: PlanContext,
  phone: PhoneNumber,
  startsRinging = true,
): Promise<void> {
  if (ctx.account.callsRevokedAt !== null) throw refusalProblem('calls_revoked', ctx.now);
  if (await getBlock(ctx.db, phone.e164)) throw refusalProblem('number_blocked', ctx.now);
  if (startsRinging) await assertMayStartCalls(ctx.db, ctx.account, ctx.now);
}

/** The schedule's stored occurrence when it is unfinished (read through the engine). */
export async function storedOccurrence(
  db: Db,
  s: Pick<Schedule, 'nextOccurrenceId'>,
): Promise<OccurrenceRecord | null> {
  if (s.nextOccurrenceId === null) return null;
  const { occurrences } = await engineStore(db).load({ occurrences: [s.nextOccurrenceId] });
  const o = occurrences.find((x) => x.id === s.nextOccurrenceId);
  return o && UNFINISHED.has(o.status) ? o : null;
}

/** Decides the occurrence action and the id the schedule will name. */
function finish(
  ctx: PlanContext,
  before: Schedule | null,
  after: ScheduleWrite,
  phone: PhoneNumber | null,
  stored: OccurrenceRecord | null,
  want: OccurrenceTime | null,
  resolved: RetryPolicy | null,
): SchedulePlan {
  let action: OccurrenceAction;
  if (stored && stored.status !== 'pending') action = { kind: 'keep' };
  else if (stored) action = want ? { kind: 'amend', at: want } : { kind: 'cancel' };
  else action = want ? { kind: 'schedule', id: ctx.newId(), at: want } : { kind: 'keep' };
  after.nextOccurrenceId =
    action.kind === 'schedule' ? action.id : action.kind === 'cancel' ? null : (stored?.id ?? null);
  const first =
    action.kind === 'keep'
      ? stored
        ? nextAfterOccurrence(after, stored.scheduledAt)
        : null
      : want;
  const policy = resolved ?? occurrencePolicy(after, ctx.account);
  return { before, after, account: ctx.account, phone, stored, first, action, policy };
}
