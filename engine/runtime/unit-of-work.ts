/**
 * One unit of work of the runtime: loads rows through a StoreTx, feeds events to the
 * memoised machines, applies their named actions to the rows (the runtime's implementation
 * of the machines' actions) and collects effects. Pure apart from the StoreTx it is given:
 * time is `now`, ids come from the Ids port. Nothing leaves it until `commit()` has written
 * every changed row; the runtime then executes the effects.
 * @module
 */
import type {
  Accounts,
  AttemptRecord,
  CallScript,
  EpochMs,
  Ids,
  OccurrenceRecord,
  OccurrenceStatus,
  AttemptStatus,
  StoreTx,
  TelephonyEvent,
  PlaceCallResult,
  SendResult,
} from '../ports.js';
import type { AttemptEvent, ClosingPhrase, KeypadKey } from '../machines/attempt.machine.js';
import type { Effect } from '../machines/effects.js';
import type { StepAction, StepResult } from '../machines/memo.js';
import type { AttemptOutcome, DueVerdict, OccurrenceEvent } from '../machines/occurrence.machine.js';
import { attemptFacts, attemptStep, occurrenceFacts, occurrenceStep } from './facts.js';
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

/** What a unit of work needs besides the StoreTx. */
export interface UnitDeps {
  options: ResolvedRuntimeOptions;
  ids: Ids;
  accounts: Accounts | undefined;
}

interface Slot<R> {
  rec: R;
  isNew: boolean;
  dirty: boolean;
  from: string | null;
}

const TERMINAL_ATTEMPT = new Set<AttemptStatus>([
  'confirmed',
  'snoozed',
  'stopped',
  'no_input',
  'voicemail',
  'no_answer',
  'busy',
  'failed',
  'canceled',
]);

/** True when the attempt status is final. */
/**
 * A new attempt row in status `requested` (its intent, stored before the provider is asked),
 * with the attempt id as idempotency key and every progress field still empty.
 */
export function requestedAttempt(
  a: Pick<AttemptRecord, 'id' | 'occurrenceId' | 'accountId' | 'phoneNumberId' | 'kind' | 'n' | 'to' | 'dueAt' | 'ringTimeoutSeconds'> & {
    now: EpochMs;
  },
): AttemptRecord {
  const { now, ...fields } = a;
  return {
    ...fields,
    status: 'requested',
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
    deadlineAt: null,
    script: null,
    updatedAt: now,
  };
}

export function isTerminalAttempt(status: AttemptStatus): boolean {
  return TERMINAL_ATTEMPT.has(status);
}

/** True when the occurrence status is final (confirmed, missed, failed, cancelled, unconfirmed). */
export function isFinishedOccurrence(status: OccurrenceStatus): boolean {
  return status === 'confirmed' || status === 'missed' || status === 'failed' || status === 'cancelled' || status === 'unconfirmed';
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

  constructor(
    private readonly tx: StoreTx,
    /** The instant of this unit of work. */
    readonly now: EpochMs,
    private readonly deps: UnitDeps,
  ) {}

  /** The occurrence (loaded once per unit). */
  occurrence(id: string): OccurrenceRecord | undefined {
    let s = this.occ.get(id);
    if (!s) {
      const rec = this.tx.getOccurrence(id);
      if (!rec) return undefined;
      s = { rec, isNew: false, dirty: false, from: rec.status };
      this.occ.set(id, s);
    }
    return s.rec;
  }

  /** The attempt (loaded once per unit). */
  attempt(id: string): AttemptRecord | undefined {
    let s = this.att.get(id);
    if (!s) {
      const rec = this.tx.getAttempt(id);
      if (!rec) return undefined;
      s = { rec, isNew: false, dirty: false, from: rec.status };
      this.att.set(id, s);
    }
    return s.rec;
  }

  /** Adds a new occurrence (written at commit). */
  addOccurrence(rec: OccurrenceRecord): void {
    this.occ.set(rec.id, { rec, isNew: true, dirty: true, from: null });
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
    this.att.set(rec.id, { rec, isNew: true, dirty: true, from: null });
    this.enterInitial(rec);
    this.effects.push({
      type: 'PlaceCall',
      attemptId: rec.id,
      request: { idempotencyKey: rec.idempotencyKey, to: rec.to, script, ringTimeoutSeconds: rec.ringTimeoutSeconds },
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

  /** Writes every new or changed row. Returns the wheel keys of changed rows and the status changes. */
  commit(): { keys: KeyChange[]; changes: StatusChange[] } {
    const keys: KeyChange[] = [];
    const changes: StatusChange[] = [];
    for (const s of this.occ.values()) {
      if (!s.dirty) continue;
      if (s.isNew) this.tx.insertOccurrence(s.rec);
      else this.tx.updateOccurrence(s.rec);
      keys.push({ kind: 'occurrence', id: s.rec.id, at: s.rec.nextDueAt });
      if (s.from !== s.rec.status) changes.push({ kind: 'occurrence', from: s.from as OccurrenceStatus | null, record: s.rec });
    }
    for (const s of this.att.values()) {
      if (!s.dirty) continue;
      if (s.isNew) this.tx.insertAttempt(s.rec);
      else this.tx.updateAttempt(s.rec);
      if (s.rec.occurrenceId === null) keys.push({ kind: 'attempt', id: s.rec.id, at: s.rec.deadlineAt });
      if (s.from !== s.rec.status) changes.push({ kind: 'attempt', from: s.from as AttemptStatus | null, record: s.rec });
    }
    return { keys, changes };
  }

  // ---- machines --------------------------------------------------------------------------

  private verdict(o: OccurrenceRecord): DueVerdict {
    const admission = this.deps.accounts?.admit({
      accountId: o.accountId,
      phoneNumberId: o.phoneNumberId,
      to: o.to,
      kind: this.nextKind(o),
      occurrenceId: o.id,
      at: this.now,
    });
    if (admission && !admission.ok) return admission.reason;
    return this.now - o.nextDueAt! > this.deps.options.lateGraceMs ? 'late' : 'go';
  }

  private nextKind(o: OccurrenceRecord): AttemptRecord['kind'] {
    if (o.attemptCount === 0) return 'first';
    return o.retryIndex === 0 && o.snoozeCount > 0 ? 'snooze' : 'retry';
  }

  private sendOccurrence(o: OccurrenceRecord, event: OccurrenceEvent): StepResult {
    const r = occurrenceStep.step(o.status, occurrenceFacts(o), event);
    if (r.unchanged) return r;
    o.status = r.value;
    this.touchOcc(o);
    for (const action of r.actions) this.occurrenceAction(o, action);
    return r;
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

  private occurrenceAction(o: OccurrenceRecord, action: StepAction): void {
    const { now } = this;
    const opt = this.deps.options;
    switch (action.type) {
      case 'startAttempt': {
        const id = this.deps.ids.uuid();
        const kind = this.nextKind(o);
        const a = requestedAttempt({
          id,
          occurrenceId: o.id,
          accountId: o.accountId,
          phoneNumberId: o.phoneNumberId,
          kind,
          n: o.attemptCount + 1,
          to: o.to,
          dueAt: o.nextDueAt ?? now,
          ringTimeoutSeconds: o.policy.ringTimeoutSeconds,
          now,
        });
        o.attemptCount++;
        o.dispatchedAt ??= now;
        o.liveAttemptId = id;
        this.att.set(id, { rec: a, isNew: true, dirty: true, from: null });
        this.enterInitial(a);
        this.effects.push({
          type: 'PlaceCall',
          attemptId: id,
          request: { idempotencyKey: id, to: o.to, script: wakeUpScript(o), ringTimeoutSeconds: o.policy.ringTimeoutSeconds },
        });
        break;
      }
      case 'scheduleRetry': {
        o.retryIndex++;
        const at = o.seriesBase + o.policy.offsetsMinutes[o.retryIndex - 1]! * 60_000;
        o.nextDueAt = Math.max(at, now);
        o.liveAttemptId = null;
        break;
      }
      case 'scheduleSnooze': {
        o.snoozeCount++;
        const at = now + o.policy.snoozeMinutes * 60_000;
        o.seriesBase = at;
        o.retryIndex = 0;
        o.nextDueAt = at;
        o.liveAttemptId = null;
        if (o.backupAlarm) o.backupAlarmAt = at + opt.backupAlarmDelaySeconds * 1000;
        break;
      }
      case 'finish': {
        const reason = (action.params as { reason: OccurrenceRecord['outcomeReason'] }).reason;
        o.outcomeReason = reason;
        o.finishedAt = now;
        o.nextDueAt = null;
        o.liveAttemptId = null;
        if (reason === 'confirmed') o.confirmedAt = now;
        break;
      }
      case 'sendFallback':
        o.fallbackState = 'pending';
        this.effects.push(fallbackEffect(o, opt));
        break;
      case 'cancelAttempt': {
        const a = o.liveAttemptId === null ? undefined : this.attempt(o.liveAttemptId);
        if (a) this.sendAttempt(a, { type: 'CANCEL' });
        break;
      }
      case 'timeoutAttempt': {
        const a = o.liveAttemptId === null ? undefined : this.attempt(o.liveAttemptId);
        if (a) this.timeout(a);
        // A live status without its attempt cannot progress: end the attempt as failed.
        else this.sendOccurrence(o, { type: 'ATTEMPT_ENDED', outcome: 'failed' });
        break;
      }
      case 'rearm':
        o.seriesBase = o.scheduledAt;
        o.retryIndex = 0;
        o.nextDueAt = o.scheduledAt;
        o.backupAlarmAt = o.backupAlarm ? o.scheduledAt + opt.backupAlarmDelaySeconds * 1000 : null;
        break;
      default:
        throw new Error(`occurrence action ${action.type} has no implementation`);
    }
  }

  private attemptAction(a: AttemptRecord, o: OccurrenceRecord | undefined, action: StepAction): void {
    const opt = this.deps.options;
    switch (action.type) {
      case 'armWatchdog': {
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
        break;
      }
      case 'disarmWatchdog':
        a.deadlineAt = null;
        break;
      case 'reportLive':
        if (o && o.liveAttemptId === a.id) this.sendOccurrence(o, { type: 'ATTEMPT_LIVE' });
        break;
      case 'reportOutcome': {
        if (!o || o.liveAttemptId !== a.id) break;
        const outcome = (action.params as { outcome: AttemptOutcome }).outcome;
        // Facts first (what happened), then the occurrence decides.
        if (outcome === 'no_input' || outcome === 'snooze_refused') o.reachedPerson = true;
        if (outcome === 'voicemail') o.reachedVoicemail = true;
        if (outcome === 'no_answer' || outcome === 'busy') o.missReason = outcome;
        this.touchOcc(o);
        this.sendOccurrence(o, { type: 'ATTEMPT_ENDED', outcome });
        break;
      }
      case 'hangUp': {
        const phrase = (action.params as { phrase: ClosingPhrase | null }).phrase;
        this.effects.push({
          type: 'HangUp',
          attemptId: a.id,
          callId: a.providerCallId,
          ...(phrase ? { say: opt.phrases[phrase] } : {}),
        });
        break;
      }
      case 'stopCalls': {
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
        break;
      }
      default:
        throw new Error(`attempt action ${action.type} has no implementation`);
    }
  }
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
