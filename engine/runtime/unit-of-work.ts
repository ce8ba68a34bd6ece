/**
 * One unit of work of the runtime: works on the rows one `Store.load` returned, feeds events
 * to the memoised machines, applies their named actions to the rows (the runtime's
 * implementation of the machines' actions) and collects effects. Pure: time is `now`, ids
 * come from the Ids port, and it never reads the store (every row it may need was loaded up
 * front: see the closure rules of `Store.load`). `finish()` returns the change set the
 * runtime commits in one call; only after that commit are the effects executed.
 * @module
 */
import type { Accounts, EpochMs, Ids, ChangeSet, RowWrite, Snapshot, TelephonyEvent, PlaceCallResult, SendResult } from '../ports.js';
import type { AttemptRecord, CallScript, OccurrenceRecord, OccurrenceStatus, AttemptStatus, SeriesRecord } from '../model.js';
import type { AttemptActionName, AttemptEvent, ClosingPhrase, KeypadKey } from '../machines/attempt.machine.js';
import type { Effect } from '../machines/effects.js';
import type { StepAction, StepResult } from '../machines/memo.js';
import type { AttemptOutcome, DueVerdict, OccurrenceActionName, OccurrenceEvent } from '../machines/occurrence.machine.js';
import { nextAfterOccurrence, nextOccurrenceAfter, occurrenceOnDate, pruneSkipDates } from '../time/recurrence.js';
import { localDateAt } from '../time/wall-time.js';
import { zoneRulesVersion } from '../time/zone-rules.js';
import { isFinishedOccurrence, isTerminalAttempt } from '../machines/status.js';
import { EngineError } from './errors.js';
import { attemptFacts, attemptStep, occurrenceFacts, occurrenceStep } from './facts.js';
import type { SaveSeriesResult, SeriesNext } from './types.js';
import type { ResolvedRuntimeOptions } from './options.js';

/** A row's wheel key after the unit of work: `at` null means nothing is due. */
export interface KeyChange {
  kind: 'occurrence' | 'attempt';
  id: string;
  at: EpochMs | null;
}

/** A status change, for observers. */
export type StatusChange =
  | { kind: 'occurrence'; from: OccurrenceStatus | null; record: OccurrenceRecord }
  | { kind: 'attempt'; from: AttemptStatus | null; record: AttemptRecord };

/** What a unit of work needs besides its rows. */
export interface UnitDeps {
  options: ResolvedRuntimeOptions;
  ids: Ids;
  accounts: Accounts | undefined;
}

interface Slot<R> {
  rec: R;
  /** The version read (null: a new row). */
  version: number | null;
  dirty: boolean;
  from: string | null;
}

function slot<R extends { version: number }>(rec: R, from: string | null): Slot<R> {
  return { rec, version: rec.version, dirty: false, from };
}

/**
 * A new attempt row in status `requested` (its intent, stored before the provider is asked),
 * with the attempt id as idempotency key and every progress field still empty.
 */
export function requestedAttempt(
  a: Pick<AttemptRecord, 'id' | 'occurrenceId' | 'accountId' | 'phoneNumberId' | 'kind' | 'n' | 'to' | 'dueAt' | 'ringTimeoutSeconds'> & {
    now: EpochMs;
  },
): AttemptRecord {
  // One literal (no rest/spread): a spike builds one per dispatch.
  const now = a.now;
  return {
    id: a.id,
    occurrenceId: a.occurrenceId,
    accountId: a.accountId,
    phoneNumberId: a.phoneNumberId,
    kind: a.kind,
    n: a.n,
    status: 'requested',
    to: a.to,
    dueAt: a.dueAt,
    createdAt: now,
    requestedAt: now,
    ringingAt: null,
    answeredAt: null,
    endedAt: null,
    answeredBy: null,
    digits: null,
    durationSeconds: null,
    errorCode: null,
    providerCallId: null,
    idempotencyKey: a.id,
    ringTimeoutSeconds: a.ringTimeoutSeconds,
    deadlineAt: null,
    script: null,
    updatedAt: now,
    version: 1,
  };
}

export { isFinishedOccurrence, isTerminalAttempt };

/** The kind of the attempt an occurrence places next: its first, a snooze's or a retry. */
export function nextAttemptKind(o: OccurrenceRecord): AttemptRecord['kind'] {
  if (o.attemptCount === 0) return 'first';
  return o.retryIndex === 0 && o.snoozeCount > 0 ? 'snooze' : 'retry';
}

function keyOf(digits: string): KeypadKey {
  const d = digits.charAt(0);
  return d === '1' || d === '2' || d === '9' ? d : 'other';
}

/** Result of handling one due wheel entry. */
export type DueResult = { handled: true } | { handled: false; at: EpochMs | null };

/** See the module comment. Create one per transaction; `commit()` once. */
export class UnitOfWork {
  /** Effects to execute after commit, in order. */
  readonly effects: Effect[] = [];
  private readonly occ = new Map<string, Slot<OccurrenceRecord>>();
  private readonly att = new Map<string, Slot<AttemptRecord>>();
  private readonly ser = new Map<string, Slot<SeriesRecord>>();

  constructor(
    snapshot: Snapshot,
    /** The instant of this unit of work. */
    readonly now: EpochMs,
    private readonly deps: UnitDeps,
  ) {
    for (const r of snapshot.occurrences) this.occ.set(r.id, slot(r, r.status));
    for (const r of snapshot.attempts) this.att.set(r.id, slot(r, r.status));
    for (const r of snapshot.series) this.ser.set(r.id, slot(r, r.status));
  }

  /** The occurrence, when it was loaded (or created) in this unit. */
  occurrence(id: string): OccurrenceRecord | undefined {
    return this.occ.get(id)?.rec;
  }

  /** The attempt, when it was loaded (or created) in this unit. */
  attempt(id: string): AttemptRecord | undefined {
    return this.att.get(id)?.rec;
  }

  /** The series, when it was loaded (or created) in this unit. */
  series(id: string): SeriesRecord | undefined {
    return this.ser.get(id)?.rec;
  }

  /** Adds a new occurrence (written at commit). */
  addOccurrence(rec: OccurrenceRecord): void {
    this.occ.set(rec.id, { rec, version: null, dirty: true, from: null });
  }

  /** Adds a new series (written at commit). */
  addSeries(rec: SeriesRecord): void {
    this.ser.set(rec.id, { rec, version: null, dirty: true, from: null });
  }

  /** Marks a loaded series as changed. */
  touchSeries(s: SeriesRecord): void {
    this.ser.get(s.id)!.dirty = true;
    s.updatedAt = this.now;
  }

  private touchOcc(o: OccurrenceRecord): void {
    this.occ.get(o.id)!.dirty = true;
    o.updatedAt = this.now;
  }

  private touchAtt(a: AttemptRecord): void {
    this.att.get(a.id)!.dirty = true;
    a.updatedAt = this.now;
  }

  // ---- inputs --------------------------------------------------------------------------

  /**
   * Handles a wheel entry that fell due. `leadMs` lets a paced dispatch start that much
   * before its instant. Returns `handled: false` with the row's real instant when the entry
   * was stale (the row moved or finished), so the runtime can re-arm it.
   */
  due(kind: 'occurrence' | 'attempt', id: string, leadMs = 0): DueResult {
    if (kind === 'attempt') {
      const a = this.attempt(id);
      if (!a || a.deadlineAt === null || a.deadlineAt > this.now) return { handled: false, at: a?.deadlineAt ?? null };
      this.timeout(a);
      return { handled: true };
    }
    const o = this.occurrence(id);
    if (!o || o.nextDueAt === null) return { handled: false, at: null };
    const dispatch = o.status === 'pending' || o.status === 'waiting';
    if (o.nextDueAt > this.now + (dispatch ? leadMs : 0)) return { handled: false, at: o.nextDueAt };
    this.sendOccurrence(o, { type: 'DUE', verdict: dispatch ? this.verdict(o) : 'go' });
    return { handled: true };
  }

  /** Cancels an occurrence (API). Returns the step, or undefined when it does not exist. */
  cancel(id: string): StepResult | undefined {
    const o = this.occurrence(id);
    return o && this.sendOccurrence(o, { type: 'CANCEL' });
  }

  /**
   * Applies `patch` to a pending occurrence and re-arms it. Returns undefined when absent,
   * or the (unchanged) step when it is not pending; then nothing is written.
   */
  amend(id: string, patch: Partial<OccurrenceRecord>): StepResult | undefined {
    const o = this.occurrence(id);
    if (!o) return undefined;
    if (o.status !== 'pending') return occurrenceStep.step(o.status, occurrenceFacts(o), { type: 'AMEND' });
    Object.assign(o, patch, { id: o.id });
    return this.sendOccurrence(o, { type: 'AMEND' });
  }

  /** Starts a standalone (test or demo) call: the intent row and the PlaceCall effect. */
  startStandalone(rec: AttemptRecord, script: CallScript): void {
    rec.script = script;
    this.att.set(rec.id, { rec, version: null, dirty: true, from: null });
    this.enterInitial(rec);
    this.effects.push({
      type: 'PlaceCall',
      attemptId: rec.id,
      request: {
        idempotencyKey: rec.idempotencyKey,
        to: rec.to,
        script,
        ringTimeoutSeconds: rec.ringTimeoutSeconds,
        ...(rec.requestedAt !== null ? { requestedAt: rec.requestedAt } : {}),
      },
    });
  }

  /** Records the provider's answer to placeCall. */
  placed(attemptId: string, result: PlaceCallResult): void {
    const a = this.attempt(attemptId);
    if (!a) return;
    if (result.ok) {
      if (a.providerCallId === null) {
        a.providerCallId = result.callId;
        this.touchAtt(a);
      } else if (a.providerCallId !== result.callId) {
        // A second call for one attempt (a provider that dialled twice): it cannot act for the attempt.
        this.effects.push({ type: 'HangUp', attemptId: a.id, callId: result.callId });
        return;
      }
      // Acceptance is a recorded fact, not a transition: `calling` waits for the phone to ring.
      // Cancelled or timed out before the provider answered: hang up the late call now.
      if (isTerminalAttempt(a.status) && a.endedAt === null) {
        this.effects.push({ type: 'HangUp', attemptId: a.id, callId: result.callId });
      }
    } else {
      if (isTerminalAttempt(a.status)) return;
      a.errorCode = result.code;
      this.touchAtt(a);
      this.sendAttempt(a, { type: 'PLACE_FAILED' });
    }
  }

  /** Records a telephony event and feeds it to the attempt. Returns false for unknown calls. */
  telephony(e: TelephonyEvent): boolean {
    const a = this.attempt(e.idempotencyKey);
    if (!a) return false;
    if (a.providerCallId !== null && a.providerCallId !== e.callId) {
      // Another call than the one recorded for the attempt (the provider dialled twice): its
      // events must not decide the attempt (its "9" would stop every call); hang it up.
      if (e.type === 'call.ringing' || e.type === 'call.answered') this.effects.push({ type: 'HangUp', attemptId: a.id, callId: e.callId });
      return true;
    }
    if (a.providerCallId === null) a.providerCallId = e.callId;
    this.touchAtt(a);
    switch (e.type) {
      case 'call.ringing':
        a.ringingAt ??= e.at;
        this.sendAttempt(a, { type: 'RINGING' });
        break;
      case 'call.answered': {
        a.answeredAt ??= e.at;
        a.answeredBy ??= e.by;
        const o = a.occurrenceId === null ? undefined : this.occurrence(a.occurrenceId);
        if (o && e.by === 'machine' && !o.reachedVoicemail) {
          o.reachedVoicemail = true;
          this.touchOcc(o);
        }
        this.sendAttempt(a, { type: 'ANSWERED' });
        break;
      }
      case 'call.digits':
        // A finished attempt keeps its digits: a replayed keypress must not turn "1" into "11".
        if (isTerminalAttempt(a.status)) break;
        a.digits = (a.digits ?? '') + e.digits;
        this.sendAttempt(a, { type: 'DIGITS', key: keyOf(e.digits) });
        break;
      case 'call.ended':
        a.endedAt ??= e.at;
        a.durationSeconds = e.durationSeconds;
        if (e.reason === 'failed') a.errorCode ??= e.errorCode ?? 'provider_failed';
        this.sendAttempt(a, { type: 'ENDED', reason: e.reason });
        break;
    }
    return true;
  }

  /** Records the outcome of the fallback text. */
  texted(occurrenceId: string, result: SendResult): void {
    const o = this.occurrence(occurrenceId);
    if (!o || o.fallbackState !== 'pending') return;
    o.fallbackState = result.ok ? 'sent' : 'failed';
    this.touchOcc(o);
  }

  // ---- commit --------------------------------------------------------------------------

  /**
   * The unit's change set (every new or changed row, each with the version it was read at
   * and its next version), the wheel keys of changed rows and the status changes.
   */
  finish(): { writes: ChangeSet; keys: KeyChange[]; changes: StatusChange[] } {
    const keys: KeyChange[] = [];
    const changes: StatusChange[] = [];
    const write = <R extends { version: number }>(s: Slot<R>): RowWrite<R> => {
      s.rec.version = (s.version ?? 0) + 1;
      return { record: s.rec, expectedVersion: s.version };
    };
    const writes: ChangeSet = { occurrences: [], attempts: [], series: [] };
    for (const s of this.ser.values()) if (s.dirty) writes.series.push(write(s));
    for (const s of this.occ.values()) {
      if (!s.dirty) continue;
      writes.occurrences.push(write(s));
      keys.push({ kind: 'occurrence', id: s.rec.id, at: s.rec.nextDueAt });
      if (s.from !== s.rec.status) changes.push({ kind: 'occurrence', from: s.from as OccurrenceStatus | null, record: s.rec });
    }
    for (const s of this.att.values()) {
      if (!s.dirty) continue;
      writes.attempts.push(write(s));
      if (s.rec.occurrenceId === null) keys.push({ kind: 'attempt', id: s.rec.id, at: s.rec.deadlineAt });
      if (s.from !== s.rec.status) changes.push({ kind: 'attempt', from: s.from as AttemptStatus | null, record: s.rec });
    }
    return { writes, keys, changes };
  }

  // ---- machines --------------------------------------------------------------------------

  private verdict(o: OccurrenceRecord): DueVerdict {
    const admission = this.deps.accounts?.admit({
      accountId: o.accountId,
      phoneNumberId: o.phoneNumberId,
      to: o.to,
      kind: nextAttemptKind(o),
      occurrenceId: o.id,
      at: this.now,
    });
    if (admission && !admission.ok) return admission.reason;
    return this.now - o.nextDueAt! > this.deps.options.lateGraceMs ? 'late' : 'go';
  }

  private sendOccurrence(o: OccurrenceRecord, event: OccurrenceEvent): StepResult {
    const r = occurrenceStep.step(o.status, occurrenceFacts(o), event);
    if (r.unchanged) return r;
    o.status = r.value;
    this.touchOcc(o);
    for (const action of r.actions) this.occurrenceAction(o, action);
    if (r.done && o.scheduleId !== null) this.advanceSeries(o);
    return r;
  }

  // ---- series ----------------------------------------------------------------------------

  /**
   * An occurrence of a series finished (or was cancelled): when it is the series' current
   * one, the next occurrence is created in this same unit of work (strictly after it on
   * another local date, never more than the late grace in the past), or the series is
   * completed when its rule has no call left.
   */
  private advanceSeries(o: OccurrenceRecord): void {
    const s = this.series(o.scheduleId!);
    if (!s || s.status !== 'active' || !s.enabled || s.nextOccurrenceId !== o.id) return;
    this.followWith(s, nextAfterOccurrence(s.rule, o.scheduledAt, this.now - this.deps.options.lateGraceMs));
  }

  /** Makes `time` the series' next occurrence, or completes the series when null. */
  private followWith(s: SeriesRecord, time: SeriesTime | null, id?: string): OccurrenceRecord | null {
    this.touchSeries(s);
    if (time === null) {
      s.status = 'completed';
      s.nextOccurrenceId = null;
      return null;
    }
    const o = occurrenceOfSeries(s, time, id ?? this.deps.ids.uuid(), this.now, this.deps.options);
    this.addOccurrence(o);
    s.nextOccurrenceId = o.id;
    return o;
  }

  /** The series' current occurrence when it is unfinished (and loaded). */
  private currentOf(s: SeriesRecord | undefined): OccurrenceRecord | undefined {
    const o = s?.nextOccurrenceId ? this.occurrence(s.nextOccurrenceId) : undefined;
    return o && !isFinishedOccurrence(o.status) ? o : undefined;
  }

  /**
   * Creates or replaces a series (`record` complete but for version and times) and sets its
   * current occurrence as `next` says (see {@link SeriesNext}).
   */
  saveSeries(record: SeriesRecord, next: SeriesNext): SaveSeriesResult {
    const existing = this.series(record.id);
    const current = this.currentOf(existing);
    const running = current !== undefined && current.status !== 'pending';
    let want: SeriesTime | null | 'keep';
    let occurrenceId: string | undefined;
    if (next === 'keep') want = 'keep';
    else if (next === 'auto') {
      const time = record.enabled ? nextOccurrenceAfter(record.rule, this.now) : null;
      want = running ? 'keep' : time;
    } else {
      if (running) return { ok: false, code: 'occurrence_in_progress' };
      want = next === null ? null : { at: next.at, source: next.source ?? record.rule.kind };
      occurrenceId = next?.occurrenceId;
    }
    let s: SeriesRecord;
    if (existing) {
      Object.assign(existing, { ...record, version: existing.version, createdAt: existing.createdAt, nextOccurrenceId: null });
      s = existing;
      this.touchSeries(s);
    } else {
      s = { ...record, nextOccurrenceId: null, createdAt: this.now, updatedAt: this.now };
      this.addSeries(s);
    }
    let occurrence: OccurrenceRecord | null = null;
    if (want === 'keep') {
      s.nextOccurrenceId = current?.id ?? null;
      occurrence = current ?? null;
    } else if (want === null) {
      // The series no longer names it, so its cancellation does not make a next one.
      if (current) this.cancel(current.id);
    } else if (current) {
      const fields = occurrenceOfSeries(s, want, current.id, this.now, this.deps.options);
      this.amend(current.id, {
        scheduledAt: fields.scheduledAt,
        derivationSource: fields.derivationSource,
        to: fields.to,
        phoneNumberId: fields.phoneNumberId,
        label: fields.label,
        message: fields.message,
        greetingName: fields.greetingName,
        voice: fields.voice,
        timezone: fields.timezone,
        policy: fields.policy,
        smsFallback: fields.smsFallback,
        backupAlarm: fields.backupAlarm,
        localDate: fields.localDate,
        tzdataVersion: fields.tzdataVersion,
      });
      s.nextOccurrenceId = current.id;
      occurrence = current;
    } else {
      occurrence = this.followWith(s, want, occurrenceId);
    }
    s.status = !s.enabled ? 'disabled' : s.nextOccurrenceId !== null ? 'active' : 'completed';
    return { ok: true, series: s, occurrence };
  }

  /** Skips the next call of a weekly series (see Runtime.skipNext). */
  skipNext(id: string): SaveSeriesResult {
    const s = this.series(id);
    if (!s) return { ok: false, code: 'series_not_found' };
    if (s.rule.kind !== 'weekly') return { ok: false, code: 'not_recurring' };
    const current = this.currentOf(s);
    if (current && (current.status === 'dispatching' || current.status === 'calling')) return { ok: false, code: 'occurrence_in_progress' };
    // The call to skip: the pending one, or the one after the call between attempts, or the next from now.
    const after = !current ? this.now : current.status === 'pending' ? current.scheduledAt - 1 : current.scheduledAt;
    const skipped = nextOccurrenceAfter(s.rule, after);
    if (skipped === null) return { ok: true, series: s, occurrence: current ?? null };
    const rule = pruneSkipDates({ ...s.rule, skipDates: [...s.rule.skipDates, skipped.date] }, this.now);
    return this.saveSeries({ ...s, rule }, 'auto');
  }

  /**
   * The zone rules changed (tzdata `version`): a pending occurrence resolved under other rules
   * is resolved again from its series' wall time on the same local date (never one that is
   * being placed, ringing or between attempts). Returns the move, or null when nothing moved.
   */
  reresolve(id: string, version: string): { occurrence: OccurrenceRecord; from: EpochMs } | null {
    const o = this.occurrence(id);
    if (!o || o.status !== 'pending' || o.tzdataVersion === null || o.tzdataVersion === version || o.localDate === null) return null;
    const s = o.scheduleId === null ? undefined : this.series(o.scheduleId);
    if (!s || s.rule.kind === 'in_minutes' || s.nextOccurrenceId !== o.id) return null;
    const time = occurrenceOnDate(s.rule, o.localDate);
    const from = o.scheduledAt;
    if (time === null || time.at === from) {
      Object.assign(o, { tzdataVersion: version });
      this.occ.get(o.id)!.dirty = true;
      return null;
    }
    this.amend(o.id, { scheduledAt: time.at, tzdataVersion: version });
    return { occurrence: o, from };
  }

  /**
   * Start-up repair of a series left without an unfinished occurrence (a crash, or a series
   * written without one): its next call after the last one, never more than the late grace
   * in the past, or completed when none remains.
   */
  repairSeries(id: string): void {
    const s = this.series(id);
    if (!s || s.status !== 'active' || !s.enabled || this.currentOf(s)) return;
    const last = s.nextOccurrenceId ? this.occurrence(s.nextOccurrenceId) : undefined;
    const floor = this.now - this.deps.options.lateGraceMs;
    this.followWith(s, last ? nextAfterOccurrence(s.rule, last.scheduledAt, floor) : nextOccurrenceAfter(s.rule, floor));
  }

  private sendAttempt(a: AttemptRecord, event: AttemptEvent): void {
    const o = a.occurrenceId === null ? undefined : this.occurrence(a.occurrenceId);
    const r = attemptStep.step(a.status, attemptFacts(a, o), event);
    if (r.unchanged) return;
    a.status = r.value;
    this.touchAtt(a);
    for (const action of r.actions) this.attemptAction(a, o, action);
  }

  private enterInitial(a: AttemptRecord): void {
    const o = a.occurrenceId === null ? undefined : this.occurrence(a.occurrenceId);
    const r = attemptStep.initial(attemptFacts(a, o));
    a.status = r.value;
    for (const action of r.actions) this.attemptAction(a, o, action);
  }

  private timeout(a: AttemptRecord): void {
    if (a.status === 'requested' && a.errorCode === null) {
      a.errorCode = 'provider_timeout';
      this.touchAtt(a);
    }
    this.sendAttempt(a, { type: 'TIMEOUT' });
  }

  private occurrenceAction(o: OccurrenceRecord, action: StepAction<OccurrenceActionName>): void {
    this.occurrenceActions[action.type](o, action.params);
  }

  private attemptAction(a: AttemptRecord, o: OccurrenceRecord | undefined, action: StepAction<AttemptActionName>): void {
    this.attemptActions[action.type](a, o, action.params);
  }

  /**
   * The runtime's implementation of every action the occurrence machine names. A table keyed
   * by the machine's own action names: the compiler refuses a missing or unknown one.
   */
  private readonly occurrenceActions: { [K in OccurrenceActionName]: (o: OccurrenceRecord, params: StepAction['params']) => void } = {
    startAttempt: (o) => {
      const { now } = this;
      const id = this.deps.ids.uuid();
      const a = requestedAttempt({
        id,
        occurrenceId: o.id,
        accountId: o.accountId,
        phoneNumberId: o.phoneNumberId,
        kind: nextAttemptKind(o),
        n: o.attemptCount + 1,
        to: o.to,
        dueAt: o.nextDueAt ?? now,
        ringTimeoutSeconds: o.policy.ringTimeoutSeconds,
        now,
      });
      o.attemptCount++;
      o.dispatchedAt ??= now;
      o.liveAttemptId = id;
      this.att.set(id, { rec: a, version: null, dirty: true, from: null });
      this.enterInitial(a);
      this.effects.push({
        type: 'PlaceCall',
        attemptId: id,
        request: {
          idempotencyKey: id,
          to: o.to,
          script: wakeUpScript(o),
          ringTimeoutSeconds: o.policy.ringTimeoutSeconds,
          requestedAt: now,
        },
      });
    },
    scheduleRetry: (o) => {
      o.retryIndex++;
      const at = o.seriesBase + o.policy.offsetsMinutes[o.retryIndex - 1]! * 60_000;
      o.nextDueAt = Math.max(at, this.now);
      o.liveAttemptId = null;
    },
    scheduleSnooze: (o) => {
      o.snoozeCount++;
      const at = this.now + o.policy.snoozeMinutes * 60_000;
      o.seriesBase = at;
      o.retryIndex = 0;
      o.nextDueAt = at;
      o.liveAttemptId = null;
      if (o.backupAlarm) o.backupAlarmAt = at + this.deps.options.backupAlarmDelaySeconds * 1000;
    },
    finish: (o, params) => {
      const reason = (params as { reason: OccurrenceRecord['outcomeReason'] }).reason;
      o.outcomeReason = reason;
      o.finishedAt = this.now;
      o.nextDueAt = null;
      o.liveAttemptId = null;
      if (reason === 'confirmed') o.confirmedAt = this.now;
    },
    sendFallback: (o) => {
      o.fallbackState = 'pending';
      this.effects.push(fallbackEffect(o, this.deps.options));
    },
    cancelAttempt: (o) => {
      const a = o.liveAttemptId === null ? undefined : this.attempt(o.liveAttemptId);
      if (a) this.sendAttempt(a, { type: 'CANCEL' });
    },
    timeoutAttempt: (o) => {
      const a = o.liveAttemptId === null ? undefined : this.attempt(o.liveAttemptId);
      if (a) this.timeout(a);
      // A live status without its attempt cannot progress: end the attempt as failed.
      else this.sendOccurrence(o, { type: 'ATTEMPT_ENDED', outcome: 'failed' });
    },
    rearm: (o) => {
      o.seriesBase = o.scheduledAt;
      o.retryIndex = 0;
      o.nextDueAt = o.scheduledAt;
      o.backupAlarmAt = o.backupAlarm ? o.scheduledAt + this.deps.options.backupAlarmDelaySeconds * 1000 : null;
    },
  };

  /** The runtime's implementation of every action the attempt machine names (see above). */
  private readonly attemptActions: {
    [K in AttemptActionName]: (a: AttemptRecord, o: OccurrenceRecord | undefined, params: StepAction['params']) => void;
  } = {
    armWatchdog: (a, o) => {
      const opt = this.deps.options;
      const ring = a.ringTimeoutSeconds * 1000;
      const deadline =
        a.status === 'requested'
          ? (a.requestedAt ?? this.now) + ring + opt.setupGraceSeconds * 1000
          : a.status === 'ringing'
            ? (a.ringingAt ?? this.now) + ring + opt.ringGraceSeconds * 1000
            : (a.answeredAt ?? this.now) + opt.maxTalkSeconds * 1000;
      a.deadlineAt = deadline;
      if (o && o.liveAttemptId === a.id) {
        o.nextDueAt = deadline;
        this.touchOcc(o);
      }
    },
    disarmWatchdog: (a) => {
      a.deadlineAt = null;
    },
    reportLive: (a, o) => {
      if (o && o.liveAttemptId === a.id) this.sendOccurrence(o, { type: 'ATTEMPT_LIVE' });
    },
    reportOutcome: (a, o, params) => {
      if (!o || o.liveAttemptId !== a.id) return;
      const outcome = (params as { outcome: AttemptOutcome }).outcome;
      // Facts first (what happened), then the occurrence decides.
      if (outcome === 'no_input' || outcome === 'snooze_refused') o.reachedPerson = true;
      if (outcome === 'voicemail') o.reachedVoicemail = true;
      if (outcome === 'no_answer' || outcome === 'busy') o.missReason = outcome;
      this.touchOcc(o);
      this.sendOccurrence(o, { type: 'ATTEMPT_ENDED', outcome });
    },
    hangUp: (a, _o, params) => {
      const phrase = (params as { phrase: ClosingPhrase | null }).phrase;
      this.effects.push({
        type: 'HangUp',
        attemptId: a.id,
        callId: a.providerCallId,
        ...(phrase ? { say: this.deps.options.phrases[phrase] } : {}),
      });
    },
    stopCalls: (a) => {
      const request = {
        accountId: a.accountId,
        phoneNumberId: a.phoneNumberId,
        to: a.to,
        occurrenceId: a.occurrenceId,
        attemptId: a.id,
        at: this.now,
      };
      this.deps.accounts?.stopCalls(request);
      this.effects.push({ type: 'StopCalls', request });
    },
  };
}

/** When a series' occurrence rings: the instant, how it was derived, and the local date the rule produced it for. */
export interface SeriesTime {
  at: EpochMs;
  source: OccurrenceRecord['derivationSource'];
  /** Defaults to the local date of `at` in the series' zone. */
  date?: string;
}

/** A new pending occurrence with every field set (what `Runtime.schedule` and series store). */
export function pendingOccurrence(
  f: Pick<
    OccurrenceRecord,
    | 'id'
    | 'scheduleId'
    | 'accountId'
    | 'phoneNumberId'
    | 'to'
    | 'label'
    | 'message'
    | 'greetingName'
    | 'voice'
    | 'timezone'
    | 'derivationSource'
    | 'scheduledAt'
    | 'policy'
    | 'smsFallback'
    | 'backupAlarm'
  > &
    Partial<Pick<OccurrenceRecord, 'localDate' | 'tzdataVersion'>>,
  now: EpochMs,
  opt: ResolvedRuntimeOptions,
): OccurrenceRecord {
  return {
    localDate: null,
    tzdataVersion: null,
    ...f,
    policy: { ...f.policy, offsetsMinutes: [...f.policy.offsetsMinutes] },
    status: 'pending',
    outcomeReason: null,
    attemptCount: 0,
    snoozeCount: 0,
    seriesBase: f.scheduledAt,
    retryIndex: 0,
    nextDueAt: f.scheduledAt,
    liveAttemptId: null,
    backupAlarmAt: f.backupAlarm ? f.scheduledAt + opt.backupAlarmDelaySeconds * 1000 : null,
    reachedPerson: false,
    reachedVoicemail: false,
    missReason: null,
    fallbackState: 'none',
    dispatchedAt: null,
    confirmedAt: null,
    finishedAt: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}

/** The occurrence of series `s` at `time`: everything copied from the series. */
export function occurrenceOfSeries(
  s: SeriesRecord,
  time: SeriesTime,
  id: string,
  now: EpochMs,
  opt: ResolvedRuntimeOptions,
): OccurrenceRecord {
  if (s.to.length === 0) throw new EngineError('invalid_series', `series ${s.id} has no number to call`, 'to');
  const wall = s.rule.kind !== 'in_minutes';
  return pendingOccurrence(
    {
      localDate: wall ? (time.date ?? localDateAt(s.rule.timezone, time.at)) : null,
      tzdataVersion: wall ? zoneRulesVersion() : null,
      id,
      scheduleId: s.id,
      accountId: s.accountId,
      phoneNumberId: s.phoneNumberId,
      to: s.to,
      label: s.label,
      message: s.message,
      greetingName: s.greetingName,
      voice: s.voice,
      timezone: s.rule.timezone,
      derivationSource: time.source,
      scheduledAt: time.at,
      policy: s.policy,
      smsFallback: s.smsFallback,
      backupAlarm: s.backupAlarm,
    },
    now,
    opt,
  );
}

/** The script of a wake-up attempt of `o` (key 2 offered while snoozes remain). */
export function wakeUpScript(o: OccurrenceRecord): CallScript {
  return {
    kind: 'wake_up',
    greetingName: o.greetingName,
    message: o.message,
    snoozeAllowed: o.snoozeCount < o.policy.maxSnoozes,
    ...(o.voice ? { voice: o.voice } : {}),
  };
}

/** The fallback text effect of `o` (idempotency key `fallback:<occurrence id>`). */
export function fallbackEffect(o: OccurrenceRecord, opt: ResolvedRuntimeOptions): Effect {
  return { type: 'SendText', occurrenceId: o.id, to: o.to, body: opt.fallbackText(o), idempotencyKey: `fallback:${o.id}` };
}
