import type {
  CallEndReason,
  Clock,
  EpochMs,
  PlaceCallRequest,
  PlaceCallResult,
  Telephony,
  TelephonyEvent,
  TelephonyEventHandler,
  TimerHandle,
} from '../ports.js';

/**
 * What a simulated phone does with a call, as in the host contract's dev phones:
 * `confirm` (answers, presses 1), `snooze` (answers, presses 2), `stop` (answers, presses 9),
 * `silent` (answers, presses nothing), `voicemail` (a machine answers), `no_answer` (rings
 * out), `busy`, `fail` (the provider refuses the call).
 */
export type PhoneBehaviour = 'confirm' | 'snooze' | 'stop' | 'silent' | 'voicemail' | 'no_answer' | 'busy' | 'fail';

/** Timing of the simulated calls, in seconds. */
export interface MemoryTelephonyOptions {
  /** Drives every event; use a VirtualClock in tests. */
  clock: Clock;
  /** Seconds from placing to `call.ringing`. @defaultValue 1 */
  setupSeconds?: number;
  /** Default seconds a phone rings before it is answered. @defaultValue 5 */
  ringSeconds?: number;
  /** Seconds from answering to the key press. @defaultValue 3 */
  keySeconds?: number;
  /** Seconds a call with no key press (or a voicemail) lasts after answering before the provider ends it. @defaultValue 20 */
  talkSeconds?: number;
  /** Seconds after a key press before the callee hangs up if we never do. @defaultValue 60 */
  lingerSeconds?: number;
}

/** One call the simulated provider accepted, kept for assertions. */
export interface SimulatedCall {
  callId: string;
  request: PlaceCallRequest;
  behaviour: PhoneBehaviour;
  placedAt: EpochMs;
  state: 'placed' | 'ringing' | 'answered' | 'ended';
  answeredAt: EpochMs | null;
  endedAt: EpochMs | null;
  /** What `hangUp` asked us to say, if it was called while the call was live. */
  hungUpWith: { say?: string } | null;
  events: TelephonyEvent[];
}

/**
 * An in-memory {@link Telephony} whose phones follow programmed behaviours on the given
 * clock: for tests, examples and benchmarks. Numbers without a programme answer and press 1.
 * Dedupes `placeCall` by idempotency key as the port requires. Events are delivered through
 * clock timers, so `VirtualClock.advance` runs a whole call deterministically.
 *
 * @example
 * const clock = new VirtualClock(Date.now());
 * const phones = new MemoryTelephony({ clock });
 * phones.setPhone('+14155550123', ['snooze', 'confirm']);
 */
export class MemoryTelephony implements Telephony {
  /** Every accepted call, in the order placed. */
  readonly calls: SimulatedCall[] = [];
  /** Every `placeCall` request received, duplicates included. */
  readonly requests: PlaceCallRequest[] = [];
  private readonly byKey = new Map<string, SimulatedCall>();
  private readonly byId = new Map<string, SimulatedCall>();
  private readonly refused = new Map<string, PlaceCallResult>();
  private readonly phones = new Map<string, { answers: PhoneBehaviour[]; ringSeconds: number | undefined; used: number }>();
  private readonly timers = new Map<string, TimerHandle[]>();
  private handler: TelephonyEventHandler = () => undefined;
  private seq = 0;
  private readonly o: Required<MemoryTelephonyOptions>;

  constructor(options: MemoryTelephonyOptions) {
    this.o = { setupSeconds: 1, ringSeconds: 5, keySeconds: 3, talkSeconds: 20, lingerSeconds: 60, ...options };
  }

  /** Programmes the phone at `to`: one behaviour per call received, the last one repeating. */
  setPhone(to: string, answers: PhoneBehaviour[] | PhoneBehaviour, ringSeconds?: number): void {
    const list = Array.isArray(answers) ? answers : [answers];
    if (list.length === 0) throw new RangeError('MemoryTelephony.setPhone: answers must not be empty');
    this.phones.set(to, { answers: list, ringSeconds, used: 0 });
  }

  /** The calls placed to `to`. */
  callsTo(to: string): SimulatedCall[] {
    return this.calls.filter((c) => c.request.to === to);
  }

  onEvent(handler: TelephonyEventHandler): void {
    this.handler = handler;
  }

  async placeCall(request: PlaceCallRequest): Promise<PlaceCallResult> {
    this.requests.push(request);
    const known = this.byKey.get(request.idempotencyKey);
    if (known) return { ok: true, callId: known.callId };
    const refusal = this.refused.get(request.idempotencyKey);
    if (refusal) return refusal;
    const phone = this.phones.get(request.to);
    const behaviour: PhoneBehaviour = phone ? phone.answers[Math.min(phone.used++, phone.answers.length - 1)]! : 'confirm';
    if (behaviour === 'fail') {
      const result: PlaceCallResult = { ok: false, code: 'provider_refused', detail: 'simulated refusal', retryable: false };
      this.refused.set(request.idempotencyKey, result);
      return result;
    }
    const now = this.o.clock.now();
    const call: SimulatedCall = {
      callId: `SIM${String(++this.seq).padStart(8, '0')}`,
      request,
      behaviour,
      placedAt: now,
      state: 'placed',
      answeredAt: null,
      endedAt: null,
      hungUpWith: null,
      events: [],
    };
    this.calls.push(call);
    this.byKey.set(request.idempotencyKey, call);
    this.byId.set(call.callId, call);
    this.plan(call, phone?.ringSeconds ?? this.o.ringSeconds);
    return { ok: true, callId: call.callId };
  }

  async hangUp(callId: string, options?: { say?: string }): Promise<void> {
    const call = this.byId.get(callId);
    if (!call || call.state === 'ended') return;
    call.hungUpWith = options ?? {};
    this.clearTimers(call);
    const reason: CallEndReason = call.state === 'answered' ? 'completed' : 'canceled';
    // The closing sentence takes a moment to say; the end is reported from a timer so that
    // the caller's own bookkeeping for hangUp happens first, as with a real provider.
    const delay = call.state === 'answered' && options?.say ? 2000 : 0;
    this.at(call, this.o.clock.now() + delay, () => this.end(call, reason));
  }

  private plan(call: SimulatedCall, ringSeconds: number): void {
    const t0 = call.placedAt;
    const s = (x: number) => x * 1000;
    const ringAt = t0 + s(this.o.setupSeconds);
    if (call.behaviour === 'busy') {
      this.at(call, ringAt, () => this.end(call, 'busy'));
      return;
    }
    this.at(call, ringAt, () => {
      call.state = 'ringing';
      return this.emit(call, { type: 'call.ringing', callId: call.callId, idempotencyKey: call.request.idempotencyKey, at: this.o.clock.now() });
    });
    const timeout = call.request.ringTimeoutSeconds;
    if (call.behaviour === 'no_answer' || ringSeconds >= timeout) {
      this.at(call, ringAt + s(timeout), () => this.end(call, 'no_answer'));
      return;
    }
    const answerAt = ringAt + s(ringSeconds);
    const by = call.behaviour === 'voicemail' ? 'machine' : 'person';
    this.at(call, answerAt, () => {
      call.state = 'answered';
      call.answeredAt = this.o.clock.now();
      return this.emit(call, { type: 'call.answered', callId: call.callId, idempotencyKey: call.request.idempotencyKey, at: call.answeredAt, by });
    });
    const digit = { confirm: '1', snooze: '2', stop: '9' }[call.behaviour as 'confirm' | 'snooze' | 'stop'];
    if (digit) {
      const keyAt = answerAt + s(this.o.keySeconds);
      this.at(call, keyAt, () =>
        this.emit(call, { type: 'call.digits', callId: call.callId, idempotencyKey: call.request.idempotencyKey, at: this.o.clock.now(), digits: digit }),
      );
      this.at(call, keyAt + s(this.o.lingerSeconds), () => this.end(call, 'completed'));
    } else {
      this.at(call, answerAt + s(this.o.talkSeconds), () => this.end(call, 'completed'));
    }
  }

  private end(call: SimulatedCall, reason: CallEndReason): void | Promise<void> {
    if (call.state === 'ended') return;
    this.clearTimers(call);
    call.state = 'ended';
    const at = this.o.clock.now();
    call.endedAt = at;
    const durationSeconds = call.answeredAt === null ? null : Math.round((at - call.answeredAt) / 1000);
    return this.emit(call, { type: 'call.ended', callId: call.callId, idempotencyKey: call.request.idempotencyKey, at, reason, durationSeconds });
  }

  private emit(call: SimulatedCall, event: TelephonyEvent): void | Promise<void> {
    call.events.push(event);
    return this.handler(event);
  }

  private at(call: SimulatedCall, when: EpochMs, fn: () => void | Promise<void>): void {
    const list = this.timers.get(call.callId) ?? [];
    list.push(this.o.clock.setTimer(when, fn));
    this.timers.set(call.callId, list);
  }

  private clearTimers(call: SimulatedCall): void {
    for (const t of this.timers.get(call.callId) ?? []) t.cancel();
    this.timers.delete(call.callId);
  }
}
