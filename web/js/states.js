// The words and colour of every state the API reports, in one place, so that no two states
// look alike: a call (occurrence status, and why it finished), a wake-up call (schedule), a
// phone number. Each is [words, tone]; tones are CSS classes of .badge: ok (green), info
// (blue), warn (amber), bad (red), off (grey).

const OCCURRENCE = {
  pending: ['Scheduled', 'info'],
  dispatching: ['Placing the call', 'warn'],
  calling: ['Ringing', 'warn'],
  waiting: ['Waiting to ring again', 'warn'],
  confirmed: ['Confirmed', 'ok'],
  unconfirmed: ['Answered, not confirmed', 'warn'],
  missed: ['Missed', 'bad'],
  failed: ['Failed', 'bad'],
  cancelled: ['Cancelled', 'off'],
};

/** A finished call whose reason says more than its status (outcome_reason). */
const BY_REASON = {
  voicemail: ['Voicemail, not confirmed', 'warn'],
  snoozes_exhausted: ['Snoozed out, not confirmed', 'warn'],
  late_dispatch: ['Missed: the server was down', 'bad'],
  stopped: ['Stopped with key 9', 'bad'],
  calls_revoked: ['Not placed: calls off', 'bad'],
  number_blocked: ['Not placed: number blocked', 'bad'],
  no_entitlement: ['Not placed: no plan', 'bad'],
  daily_cap_reached: ['Not placed: daily limit', 'bad'],
};

/** Why a call finished, as a sentence for its detail page (outcome_reason). */
const REASON_SENTENCE = {
  confirmed: 'Someone pressed 1.',
  stopped: 'Someone pressed 9, which turned calls off.',
  no_input: 'Someone answered but pressed no key.',
  voicemail: 'Only voicemail answered.',
  no_answer: 'Nobody answered.',
  busy: 'The line was busy.',
  provider_error: 'The phone service could not place the call.',
  cancelled: 'It was cancelled, skipped, or its wake-up call was changed, paused or deleted.',
  late_dispatch: 'It was due while the server was down, more than 10 minutes before it came back.',
  calls_revoked: 'Calls were turned off when it was due.',
  number_blocked: 'The number was blocked when it was due.',
  no_entitlement: 'No plan, trial or call credit was left when it was due.',
  daily_cap_reached: 'The day’s limit of calls was reached when it was due.',
  snoozes_exhausted: 'Key 2 was pressed with no snooze left.',
};

/** Statuses of a call that has finished. */
export const FINISHED = new Set(['confirmed', 'unconfirmed', 'missed', 'failed', 'cancelled']);

/**
 * [words, tone] of a call. `why` says what keeps a scheduled call from ringing: `callsOff`
 * (key 9 turned the account's calls off) and `blocked` (a set of blocked number ids).
 */
export function occurrenceState(o, why = {}) {
  if (o.status === 'pending') {
    if (why.callsOff) return ['Will not ring: calls are off', 'bad'];
    if (why.blocked && o.phone_number && why.blocked.has(o.phone_number.id))
      return ['Will not ring: number blocked', 'bad'];
  }
  return BY_REASON[o.outcome_reason] || OCCURRENCE[o.status] || [o.status, 'off'];
}

/** Why a finished call ended, in a sentence ('' when not finished). */
export const reasonSentence = (reason) => REASON_SENTENCE[reason] || '';

/**
 * [words, tone] of a wake-up call, or null when it is on and will ring (its next call then
 * speaks for it). `last` is its newest finished call, when known: a finished one-off shows
 * how it ended rather than a bare "Done".
 */
export function scheduleState(s, last) {
  if (s.status === 'completed') return last ? occurrenceState(last) : ['Finished', 'off'];
  if (s.status === 'disabled' || !s.enabled) return ['Turned off', 'off'];
  return null;
}

/** [words, tone] of a phone number. */
export function numberState(n) {
  if (n.blocked)
    return [
      n.blocked_reason === 'key_9'
        ? 'Blocked by key 9'
        : n.blocked_reason === 'stop'
          ? 'Blocked by STOP'
          : 'Blocked',
      'bad',
    ];
  if (n.verified) return ['Verified', 'ok'];
  if (n.verified_at) return ['Verification expired', 'warn'];
  return ['Not verified', 'warn'];
}

const BLOCKED = {
  stop: 'This number texted STOP, so no calls or texts go to it. Text START to the service from this phone to lift it.',
  key_9:
    'Someone pressed 9 on a call to this number, so it is blocked. Verify it again with a new code to lift the block.',
  complaint:
    'A complaint was filed about calls to this number. Only the operator of this service can lift the block.',
  manual: 'The operator of this service blocked this number. Only the operator can lift the block.',
};

/** Why a number is blocked and how to lift it, as a sentence. */
export const blockedText = (reason) =>
  BLOCKED[reason] || 'This number is blocked: no calls or texts go to it.';
