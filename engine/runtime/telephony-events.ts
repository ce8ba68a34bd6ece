/**
 * What the providers report, translated into the attempt machine's events: the answer to
 * `placeCall`, the telephony events (ringing, answered, digits, ended) and the fallback
 * text's outcome. Each records the fact on the rows first, then feeds the machine. A second
 * call a provider placed for one attempt is hung up, never allowed to decide the attempt.
 * @module
 */
import type { PlaceCallResult, SendResult, TelephonyEvent } from '../ports.js';
import type { AttemptRecord, OccurrenceRecord } from '../model.js';
import type { AttemptEvent, KeypadKey } from '../machines/attempt.machine.js';
import type { Effect } from '../machines/effects.js';
import { isTerminalAttempt } from '../machines/status.js';

/** What the translation needs of a unit of work (the `UnitOfWork` gives it). */
export interface CallUnit {
  readonly effects: Effect[];
  attempt(id: string): AttemptRecord | undefined;
  occurrence(id: string): OccurrenceRecord | undefined;
  touchAtt(a: AttemptRecord): void;
  touchOcc(o: OccurrenceRecord): void;
  sendAttempt(a: AttemptRecord, event: AttemptEvent): void;
}

/** Records the provider's answer to placeCall. */
export function recordPlaced(u: CallUnit, attemptId: string, result: PlaceCallResult): void {
  const a = u.attempt(attemptId);
  if (!a) return;
  if (result.ok) {
    if (a.providerCallId === null) {
      a.providerCallId = result.callId;
      u.touchAtt(a);
    } else if (a.providerCallId !== result.callId) {
      // A second call for one attempt (a provider that dialled twice): it cannot act for the attempt.
      u.effects.push({ type: 'HangUp', attemptId: a.id, callId: result.callId });
      return;
    }
    // Acceptance is a recorded fact, not a transition: `calling` waits for the phone to ring.
    // Cancelled or timed out before the provider answered: hang up the late call now.
    if (isTerminalAttempt(a.status) && a.endedAt === null) {
      u.effects.push({ type: 'HangUp', attemptId: a.id, callId: result.callId });
    }
  } else {
    if (isTerminalAttempt(a.status)) return;
    a.errorCode = result.code;
    u.touchAtt(a);
    u.sendAttempt(a, { type: 'PLACE_FAILED' });
  }
}

/** Records a telephony event and feeds it to the attempt. Returns false for unknown calls. */
export function recordTelephonyEvent(u: CallUnit, e: TelephonyEvent): boolean {
  const a = u.attempt(e.idempotencyKey);
  if (!a) return false;
  if (a.providerCallId !== null && a.providerCallId !== e.callId) {
    // Another call than the one recorded for the attempt (the provider dialled twice): its
    // events must not decide the attempt (its "9" would stop every call); hang it up.
    if (e.type === 'call.ringing' || e.type === 'call.answered')
      u.effects.push({ type: 'HangUp', attemptId: a.id, callId: e.callId });
    return true;
  }
  if (a.providerCallId === null) a.providerCallId = e.callId;
  u.touchAtt(a);
  switch (e.type) {
    case 'call.ringing':
      a.ringingAt ??= e.at;
      u.sendAttempt(a, { type: 'RINGING' });
      break;
    case 'call.answered': {
      a.answeredAt ??= e.at;
      a.answeredBy ??= e.by;
      const o = a.occurrenceId === null ? undefined : u.occurrence(a.occurrenceId);
      if (o && e.by === 'machine' && !o.reachedVoicemail) {
        o.reachedVoicemail = true;
        u.touchOcc(o);
      }
      u.sendAttempt(a, { type: 'ANSWERED' });
      break;
    }
    case 'call.digits':
      // A finished attempt keeps its digits: a replayed keypress must not turn "1" into "11".
      if (isTerminalAttempt(a.status)) break;
      a.digits = (a.digits ?? '') + e.digits;
      u.sendAttempt(a, { type: 'DIGITS', key: keyOf(e.digits) });
      break;
    case 'call.ended':
      a.endedAt ??= e.at;
      a.durationSeconds = e.durationSeconds;
      if (e.reason === 'failed') a.errorCode ??= e.errorCode ?? 'provider_failed';
      u.sendAttempt(a, { type: 'ENDED', reason: e.reason });
      break;
  }
  return true;
}

/** Records the outcome of the fallback text. */
export function recordTexted(u: CallUnit, occurrenceId: string, result: SendResult): void {
  const o = u.occurrence(occurrenceId);
  if (!o || o.fallbackState !== 'pending') return;
  o.fallbackState = result.ok ? 'sent' : 'failed';
  u.touchOcc(o);
}

function keyOf(digits: string): KeypadKey {
  const d = digits.charAt(0);
  return d === '1' || d === '2' || d === '9' ? d : 'other';
}
