import type {
  CallEndReason,
  Clock,
  HangUpOptions,
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
export type PhoneBehaviour =
  'confirm' | 'snooze' | 'stop' | 'silent' | 'voicemail' | 'no_answer' | 'busy' | 'fail';

/** Timing of the simulated calls, in seconds. */
export interface MemoryTelephonyOptions {
  /** Drives every event: the runtime's clock (a VirtualClock in tests, `systemClock({ now: Date.now })` for real time). */
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
  /** Seconds an answering machine records before the provider ends the call. @defaultValue `talkSeconds` */
  voicemailSeconds?: number;
  /**
   * When set, a `verification_code` call offers no keypad: whoever answers only listens, and
   * the provider ends the call (completed) this many seconds after the answer. When unset,
   * such calls play the phone's behaviour like any other script.
   * @defaultValue undefined
   */
  codeCallSeconds?: number;
  /** Seconds a closing sentence (`hangUp` with `say` on an answered call) takes before the end. @defaultValue 2 */
  closingSaySeconds?: number;
  /** Makes the provider's id of each accepted call. @defaultValue `SIM` and an 8-digit sequence number */
  callId?: () => string;
  /** `detail` of the refusal a `fail` phone produces. @defaultValue 'simulated refusal' */
  refusalDetail?: string;
  /**
   * Whether to keep every call and request in {@link MemoryTelephony.calls} and
   * {@link MemoryTelephony.requests} for assertions. A long-running process turns it off so
   * that memory holds only live calls and the idempotency keys' results.
   * @defaultValue true
   */
  keepHistory?: boolean;
  /**
   * Arm each later step of an answered call (key press, end) only once the previous event
   * has been handled, timed from the clock at that moment, instead of arming the whole
   * timeline when the call is placed. On a virtual clock the instants are the same; what
   * changes is that a timer the handler arms for the same instant runs before the step, and
   * on a real clock the steps wait for slow handlers, like a provider waiting on webhooks.
   * @defaultValue false
   */
  chainSteps?: boolean;
  /** Called when a call is answered, just before `call.answered` is delivered. */
  onAnswered?: (call: SimulatedCall, by: 'person' | 'machine') => void;
}

/** One call the simulated provider accepted, kept for assertions. */
export interface SimulatedCall {
  /** The id `placeCall` answered with (see {@link MemoryTelephonyOptions.callId}). */
  callId: string;
  /** The request that placed it. */
  request: PlaceCallRequest;
  /** What the phone does with this call (its programme's next behaviour, or `confirm`). */
  behaviour: PhoneBehaviour;
  /** When `placeCall` accepted it (the clock's now). */
  placedAt: EpochMs;
  /** Where the call stands now. */
  state: 'placed' | 'ringing' | 'answered' | 'ended';
  /** When it was answered, or null. */
  answeredAt: EpochMs | null;
  /** When it ended, or null while live. */
  endedAt: EpochMs | null;
  /** What `hangUp` asked us to say, if it was called while the call was live. */
  hungUpWith: { say?: string } | null;
  /** The events delivered for it so far, in order (kept only with `keepHistory`). */
  events: TelephonyEvent[];
}

/**
 * An in-memory {@link Telephony} whose phones follow programmed behaviours on the given
 * clock: for tests, examples and benchmarks. Numbers without a programme answer and press 1.
 * Dedupes `placeCall` by idempotency key as the port requires. Events are delivered through
 * clock timers, so `VirtualClock.advance` runs a whole call deterministically.
 *
 * @example
 * const clock = new VirtualClock(Date.UTC(2027, 0, 4, 6, 0));
 * const phones = new MemoryTelephony({ clock });
 * phones.setPhone('+14155550123', ['snooze', 'confirm']);
 */
export class MemoryTelephony implements Telephony {
  /** Every accepted call, in the order placed. */
  readonly calls: SimulatedCall[] = [];
  /** Every `placeCall` request received, duplicates included. */
  readonly requests: PlaceCallRequest[] = [];
  /** The result given for each idempotency key, accepted or refused. */
  private readonly byKey = new Map<string, PlaceCallResult>();
  /** Calls not yet ended. */
  private readonly byId = new Map<string, SimulatedCall>();
  private readonly phones = new Map<
    string,
    { answers: PhoneBehaviour[]; ringSeconds: number | undefined; used: number }
  >();
  private readonly timers = new Map<string, TimerHandle[]>();
  private handler: TelephonyEventHandler = () => undefined;
  private seq = 0;
  private readonly o: Required<Omit<MemoryTelephonyOptions, 'codeCallSeconds' | 'onAnswered'>> &
    Pick<MemoryTelephonyOptions, 'codeCallSeconds' | 'onAnswered'>;

  constructor(options: MemoryTelephonyOptions) {
    const talkSeconds = options.talkSeconds ?? 20;
    this.o = {
      setupSeconds: 1,
      ringSeconds: 5,
      keySeconds: 3,
      lingerSeconds: 60,
      closingSaySeconds: 2,
      callId: () => `SIM${String(++this.seq).padStart(8, '0')}`,
      refusalDetail: 'simulated refusal',
      keepHistory: true,
      chainSteps: false,
      ...definedOnly(options),
      clock: options.clock,
      talkSeconds,
      voicemailSeconds: options.voicemailSeconds ?? talkSeconds,
    };
  }

  /** Number of calls not yet ended. */
  get liveCalls(): number {
    return this.byId.size;
  }

  /** Programmes the phone at `to`: one behaviour per call received, the last one repeating. */
  setPhone(to: string, answers: PhoneBehaviour[] | PhoneBehaviour, ringSeconds?: number): void {
    const list = Array.isArray(answers) ? answers : [answers];
    if (list.length === 0)
      throw new RangeError('MemoryTelephony.setPhone: answers must not be empty');
    this.phones.set(to, { answers: list, ringSeconds, used: 0 });
  }

  /** The calls placed to `to`. */
  callsTo(to: string): SimulatedCall[] {
    return this.calls.filter((c) => c.request.to === to);
  }

  /** Sets the handler every event is delivered to (the runtime's, from its `start()`). */
  onEvent(handler: TelephonyEventHandler): void {
    this.handler = handler;
  }

  /**
   * Accepts the call and plays the phone's next behaviour on the clock, or refuses it
   * (`provider_refused`) for a `fail` phone; a known idempotency key answers its first result.
   */
  async placeCall(request: PlaceCallRequest): Promise<PlaceCallResult> {
    if (this.o.keepHistory) this.requests.push(request);
    const known = this.byKey.get(request.idempotencyKey);
    if (known) return known;
    const phone = this.phones.get(request.to);
    const behaviour: PhoneBehaviour = phone
      ? phone.answers[Math.min(phone.used++, phone.answers.length - 1)]!
      : 'confirm';
    if (behaviour === 'fail') {
      const result: PlaceCallResult = {
        ok: false,
        code: 'provider_refused',
        detail: this.o.refusalDetail,
        retryable: false,
      };
      this.byKey.set(request.idempotencyKey, result);
      return result;
    }
    const now = this.o.clock.now();
    const call: SimulatedCall = {
      callId: this.o.callId(),
      request,
      behaviour,
      placedAt: now,
      state: 'placed',
      answeredAt: null,
      endedAt: null,
      hungUpWith: null,
      events: [],
    };
    if (this.o.keepHistory) this.calls.push(call);
    const result: PlaceCallResult = { ok: true, callId: call.callId };
    this.byKey.set(request.idempotencyKey, result);
    this.byId.set(call.callId, call);
    this.plan(call, phone?.ringSeconds ?? this.o.ringSeconds);
    return result;
  }

  /** Ends a live call: `completed` if answered (after the closing sentence, if any), else `cancelled`. An ended call is left alone. */
  async hangUp(callId: string, options?: HangUpOptions): Promise<void> {
    const call = this.byId.get(callId);
    if (!call || call.state === 'ended') return;
    call.hungUpWith = options?.say === undefined ? {} : { say: options.say };
    this.clearTimers(call);
    const reason: CallEndReason = call.state === 'answered' ? 'completed' : 'cancelled';
    // The closing sentence takes a moment to say; the end is reported from a timer so that
    // the caller's own bookkeeping for hangUp happens first, as with a real provider.
    const delay = call.state === 'answered' && options?.say ? this.o.closingSaySeconds * 1000 : 0;
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
      return this.emit(call, {
        type: 'call.ringing',
        callId: call.callId,
        idempotencyKey: call.request.idempotencyKey,
        at: this.o.clock.now(),
      });
    });
    const timeout = call.request.ringTimeoutSeconds;
    if (call.behaviour === 'no_answer' || ringSeconds >= timeout) {
      this.at(call, ringAt + s(timeout), () => this.end(call, 'no_answer'));
      return;
    }
    const answerAt = ringAt + s(ringSeconds);
    const by = call.behaviour === 'voicemail' ? 'machine' : 'person';
    const digit = { confirm: '1', snooze: '2', stop: '9' }[
      call.behaviour as 'confirm' | 'snooze' | 'stop'
    ];
    const codeCall =
      call.request.script.kind === 'verification_code' && this.o.codeCallSeconds !== undefined;
    const afterDigits = (keyAt: EpochMs) =>
      this.at(call, keyAt + s(this.o.lingerSeconds), () => this.end(call, 'completed'));
    const afterAnswer = (at: EpochMs) => {
      if (codeCall) {
        this.at(call, at + s(this.o.codeCallSeconds!), () => this.end(call, 'completed'));
      } else if (digit) {
        const keyAt = at + s(this.o.keySeconds);
        this.at(call, keyAt, async () => {
          await this.emit(call, {
            type: 'call.digits',
            callId: call.callId,
            idempotencyKey: call.request.idempotencyKey,
            at: this.o.clock.now(),
            digits: digit,
          });
          if (this.o.chainSteps && !ended(call)) afterDigits(this.o.clock.now());
        });
        if (!this.o.chainSteps) afterDigits(keyAt);
      } else {
        const talk = by === 'machine' ? this.o.voicemailSeconds : this.o.talkSeconds;
        this.at(call, at + s(talk), () => this.end(call, 'completed'));
      }
    };
    this.at(call, answerAt, async () => {
      call.state = 'answered';
      call.answeredAt = this.o.clock.now();
      this.o.onAnswered?.(call, by);
      await this.emit(call, {
        type: 'call.answered',
        callId: call.callId,
        idempotencyKey: call.request.idempotencyKey,
        at: call.answeredAt,
        by,
      });
      if (this.o.chainSteps && !ended(call)) afterAnswer(this.o.clock.now());
    });
    if (!this.o.chainSteps) afterAnswer(answerAt);
  }

  private end(call: SimulatedCall, reason: CallEndReason): void | Promise<void> {
    if (call.state === 'ended') return;
    this.clearTimers(call);
    this.byId.delete(call.callId);
    call.state = 'ended';
    const at = this.o.clock.now();
    call.endedAt = at;
    const durationSeconds =
      call.answeredAt === null ? null : Math.round((at - call.answeredAt) / 1000);
    return this.emit(call, {
      type: 'call.ended',
      callId: call.callId,
      idempotencyKey: call.request.idempotencyKey,
      at,
      reason,
      durationSeconds,
    });
  }

  private emit(call: SimulatedCall, event: TelephonyEvent): void | Promise<void> {
    if (this.o.keepHistory) call.events.push(event);
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

/** Whether `call` has ended (a function, so that TypeScript does not narrow across an await). */
function ended(call: SimulatedCall): boolean {
  return call.state === 'ended';
}

/** `options` without its `undefined` members, so that spreading it keeps the defaults. */
function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}
