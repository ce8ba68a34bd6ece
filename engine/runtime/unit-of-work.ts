/**
 * One unit of work of the runtime: works on the rows one `Store.load` returned, feeds events
 * to the memoised machines, applies their named actions to the rows (the runtime's
 * implementation of the machines' actions) and collects effects. Pure: time is `now`, ids
 * come from the Ids port, and it never reads the store (every row it may need was loaded up
 * front: see the closure rules of `Store.load`). `finish()` returns the change set the
 * runtime commits in one call; only after that commit are the effects executed.
 *
 * Split by job: the rows and the change set in `identity-map.ts` (the class this one extends),
 * the providers' reports in `telephony-events.ts`, the series in `series-steps.ts`, the new
 * records in `record-factories.ts`; here, the inputs, the machines and their action tables.
 * @module
 */
import type {
  Accounts,
  EpochMs,
  Ids,
  PlaceCallResult,
  SendResult,
  Snapshot,
  TelephonyEvent,
} from '../ports.js';
import type { AttemptRecord, CallScript, OccurrenceRecord, SeriesRecord } from '../model.js';
import type {
  AttemptActionName,
  AttemptEvent,
  ClosingPhrase,
} from '../machines/attempt.machine.js';
import type { Effect } from '../machines/effects.js';
import type { StepAction, StepResult } from '../machines/memo.js';
import type {
  AttemptOutcome,
  DueVerdict,
  OccurrenceActionName,
  OccurrenceEvent,
} from '../machines/occurrence.machine.js';
import { attemptFacts, attemptStep, occurrenceFacts, occurrenceStep } from './facts.js';
import { IdentityMap } from './identity-map.js';
import type { ResolvedRuntimeOptions } from './options.js';
import {
  fallbackEffect,
  nextAttemptKind,
  requestedAttempt,
  wakeUpScript,
} from './record-factories.js';
import * as seriesSteps from './series-steps.js';
import { recordPlaced, recordTelephonyEvent, recordTexted } from './telephony-events.js';
import type { SaveSeriesResult, SeriesNext } from './types.js';

/** What a unit of work needs besides its rows. */
export interface UnitDeps {
  options: ResolvedRuntimeOptions;
  ids: Ids;
  accounts: Accounts | undefined;
}

/** Result of handling one due wheel entry. */
export type DueResult = { handled: true } | { handled: false; at: EpochMs | null };

/** See the module comment. Create one per transaction; `commit()` once. */
export class UnitOfWork extends IdentityMap {
  /** Effects to execute after commit, in order. */
  readonly effects: Effect[] = [];

  constructor(
    snapshot: Snapshot,
    now: EpochMs,
    private readonly deps: UnitDeps,
  ) {
    super(snapshot, now);
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
      if (!a || a.deadlineAt === null || a.deadlineAt > this.now)
        return { handled: false, at: a?.deadlineAt ?? null };
      this.timeout(a);
      return { handled: true };
    }
    const o = this.occurrence(id);
    if (!o || o.nextDueAt === null) return { handled: false, at: null };
    const dispatch = o.status === 'pending' || o.status === 'waiting';
    if (o.nextDueAt > this.now + (dispatch ? leadMs : 0))
      return { handled: false, at: o.nextDueAt };
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
    if (o.status !== 'pending')
      return occurrenceStep.step(o.status, occurrenceFacts(o), { type: 'AMEND' });
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

  /** Records the provider's answer to placeCall (see telephony-events.ts). */
  placed(attemptId: string, result: PlaceCallResult): void {
    recordPlaced(this, attemptId, result);
  }

  /** Records a telephony event and feeds it to the attempt. Returns false for unknown calls. */
  telephony(e: TelephonyEvent): boolean {
    return recordTelephonyEvent(this, e);
  }

  /** Records the outcome of the fallback text. */
  texted(occurrenceId: string, result: SendResult): void {
    recordTexted(this, occurrenceId, result);
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
    if (r.done && o.scheduleId !== null) seriesSteps.advanceSeries(this, this.deps, o);
    return r;
  }

  // ---- series (series-steps.ts) ---------------------------------------------------------

  /**
   * Creates or replaces a series (`record` complete but for version and times) and sets its
   * current occurrence as `next` says (see {@link SeriesNext}).
   */
  saveSeries(record: SeriesRecord, next: SeriesNext): SaveSeriesResult {
    return seriesSteps.saveSeries(this, this.deps, record, next);
  }

  /** Skips the next call of a weekly series (see Runtime.skipNext). */
  skipNext(id: string): SaveSeriesResult {
    return seriesSteps.skipNext(this, this.deps, id);
  }

  /** The zone rules changed (tzdata `version`): resolves a pending occurrence again; the move, or null. */
  reresolve(id: string, version: string): { occurrence: OccurrenceRecord; from: EpochMs } | null {
    return seriesSteps.reresolve(this, id, version);
  }

  /** Start-up repair of a series left without an unfinished occurrence. */
  repairSeries(id: string): void {
    seriesSteps.repairSeries(this, this.deps, id);
  }

  // ---- attempts --------------------------------------------------------------------------

  /** Feeds `event` to the attempt's machine and applies its actions. */
  sendAttempt(a: AttemptRecord, event: AttemptEvent): void {
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

  private attemptAction(
    a: AttemptRecord,
    o: OccurrenceRecord | undefined,
    action: StepAction<AttemptActionName>,
  ): void {
    this.attemptActions[action.type](a, o, action.params);
  }

  /**
   * The runtime's implementation of every action the occurrence machine names. A table keyed
   * by the machine's own action names: the compiler refuses a missing or unknown one.
   */
  private readonly occurrenceActions: {
    [K in OccurrenceActionName]: (o: OccurrenceRecord, params: StepAction['params']) => void;
  } = {
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
      o.backupAlarmAt = o.backupAlarm
        ? o.scheduledAt + this.deps.options.backupAlarmDelaySeconds * 1000
        : null;
    },
  };

  /** The runtime's implementation of every action the attempt machine names (see above). */
  private readonly attemptActions: {
    [K in AttemptActionName]: (
      a: AttemptRecord,
      o: OccurrenceRecord | undefined,
      params: StepAction['params'],
    ) => void;
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
