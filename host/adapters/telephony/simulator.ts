/**
 * The built-in telephony simulator: the default provider, needing no network.
 *
 * Each destination number is a simulated phone with a list of behaviours, set by
 * PUT /dev/phones/{e164} (contract §3). Every call the phone receives plays the next
 * behaviour; the last one repeats. A phone nobody configured plays `["confirm"]` and rings
 * for 5 seconds before it answers.
 *
 * A call is a handful of timers armed on the {@link Clock}, so with the engine's
 * VirtualClock, `advance()` plays whole calls in due order, and with the system clock they
 * play in real time. Timeline of one call placed at t (R = ring_seconds, S = speech):
 *
 * | behaviour | events |
 * |---|---|
 * | confirm / snooze / stop | t ringing; t+R answered(person); t+R+S digits 1 / 2 / 9; stays open until hangUp (or the callee hangs up 60 s later) |
 * | silent | t ringing; t+R answered(person); t+R+S+10 ended completed (nobody pressed anything) |
 * | voicemail | t ringing; t+R answered(machine); ended completed 30 s later unless hung up first |
 * | no_answer | t ringing; t+ringTimeoutSeconds ended no_answer |
 * | busy | t ended busy |
 * | fail | `placeCall` resolves `{ ok: false, code: 'provider_refused' }`; no events |
 *
 * A phone whose R reaches the request's `ringTimeoutSeconds` never answers: it ends
 * no_answer at the timeout, as a real phone would. A `verification_code` call offers no
 * keypad: every answering behaviour listens to the code, and the simulator hangs up
 * (ended completed) once it has been spoken.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type {
  CallScript,
  Clock,
  EpochMs,
  PlaceCallRequest,
  PlaceCallResult,
  Telephony,
  TelephonyEvent,
  TelephonyEventHandler,
  TimerHandle,
} from '../../../engine/ports.js';

/** What a simulated phone does with one call (contract §3). */
export type PhoneBehaviour = 'confirm' | 'snooze' | 'stop' | 'silent' | 'voicemail' | 'no_answer' | 'busy' | 'fail';

/** Every behaviour name, for validation. */
export const PHONE_BEHAVIOURS: readonly PhoneBehaviour[] = [
  'confirm',
  'snooze',
  'stop',
  'silent',
  'voicemail',
  'no_answer',
  'busy',
  'fail',
];

/** Configuration of one simulated phone. */
export interface SimulatedPhone {
  /** Behaviours in order, one per call; the last repeats. Never empty. */
  answers: PhoneBehaviour[];
  /** Seconds it rings before answering. */
  ring_seconds: number;
}

/** The phone every unconfigured number is. */
export const DEFAULT_PHONE: Readonly<SimulatedPhone> = Object.freeze<SimulatedPhone>({ answers: ['confirm'], ring_seconds: 5 });

/** What the callee heard, reported once a call is answered (used by the dev outbox). */
export interface SpokenRecord {
  callId: string;
  to: string;
  from: string;
  script: CallScript;
  answeredBy: 'person' | 'machine';
  at: EpochMs;
}

/** Options of {@link createSimulatorTelephony}. */
export interface SimulatorTelephonyOptions {
  clock: Clock;
  /** Caller id used when a request has no `from`. */
  from: string;
  /** Called when a call is answered, with what the script says (e.g. to show a spoken code). */
  onSpoken?: (record: SpokenRecord) => void;
  /** Timing knobs, in seconds. */
  timings?: Partial<SimulatorTimings>;
}

/** Seconds between the simulated steps of a call. */
export interface SimulatorTimings {
  /** Speech before the callee presses a key (or the gather times out). @defaultValue 6 */
  speech: number;
  /** How long a silent callee listens after the speech before hanging up. @defaultValue 10 */
  silentListen: number;
  /** How long an answering machine records before the call ends. @defaultValue 30 */
  machineRecord: number;
  /** How long the callee waits after pressing a key before hanging up themselves. @defaultValue 60 */
  holdAfterDigits: number;
  /** Length of the spoken verification code call after answer. @defaultValue 12 */
  codeSpeech: number;
  /** Extra seconds a closing sentence (`hangUp` with `say`) takes. @defaultValue 2 */
  closingSay: number;
}

const DEFAULT_TIMINGS: SimulatorTimings = {
  speech: 6,
  silentListen: 10,
  machineRecord: 30,
  holdAfterDigits: 60,
  codeSpeech: 12,
  closingSay: 2,
};

/** The simulator: a {@link Telephony} plus the dev controls. */
export interface SimulatorTelephony extends Telephony {
  /** Configures the phone at `e164` (PUT /dev/phones) and restarts its behaviour list. */
  setPhone(e164: string, phone: SimulatedPhone): void;
  /** The configuration of the phone at `e164` (the default when never set). */
  getPhone(e164: string): SimulatedPhone;
  /** Number of calls not yet ended. */
  readonly liveCalls: number;
}

type Stage = 'placed' | 'ringing' | 'answered' | 'ended';

interface SimCall {
  callId: string;
  key: string;
  to: string;
  from: string;
  script: CallScript;
  stage: Stage;
  answeredAt: EpochMs | null;
  timers: TimerHandle[];
}

const DIGIT: Partial<Record<PhoneBehaviour, string>> = { confirm: '1', snooze: '2', stop: '9' };

/** Creates the simulator. State (phones, calls) lives in memory for the process's life. */
export function createSimulatorTelephony(options: SimulatorTelephonyOptions): SimulatorTelephony {
  const { clock } = options;
  const t: SimulatorTimings = { ...DEFAULT_TIMINGS, ...options.timings };
  const phones = new Map<string, { phone: SimulatedPhone; next: number }>();
  const byKey = new Map<string, PlaceCallResult>();
  const calls = new Map<string, SimCall>();
  let handler: TelephonyEventHandler = () => undefined;

  const emit = (event: TelephonyEvent) => handler(event);

  /** Arms a timer `seconds` from now that runs `step` unless the call ended meanwhile. */
  const after = (call: SimCall, seconds: number, step: () => void | Promise<void>) => {
    const handle = clock.setTimer(clock.now() + seconds * 1000, () => {
      if (call.stage === 'ended') return;
      return step();
    });
    call.timers.push(handle);
  };

  const end = (call: SimCall, reason: 'completed' | 'no_answer' | 'busy' | 'canceled') => {
    if (call.stage === 'ended') return;
    call.stage = 'ended';
    for (const h of call.timers) h.cancel();
    call.timers = [];
    calls.delete(call.callId);
    const at = clock.now();
    const durationSeconds = call.answeredAt === null ? null : Math.round((at - call.answeredAt) / 1000);
    return emit({ type: 'call.ended', callId: call.callId, idempotencyKey: call.key, at, reason, durationSeconds });
  };

  const answer = (call: SimCall, by: 'person' | 'machine') => {
    call.stage = 'answered';
    call.answeredAt = clock.now();
    options.onSpoken?.({ callId: call.callId, to: call.to, from: call.from, script: call.script, answeredBy: by, at: call.answeredAt });
    return emit({ type: 'call.answered', callId: call.callId, idempotencyKey: call.key, at: call.answeredAt, by });
  };

  /** Arms the timers that play `behaviour` for a call just accepted. */
  const play = (call: SimCall, behaviour: PhoneBehaviour, ringSeconds: number, ringTimeout: number) => {
    if (behaviour === 'busy') {
      after(call, 0, () => end(call, 'busy'));
      return;
    }
    after(call, 0, () => {
      call.stage = 'ringing';
      return emit({ type: 'call.ringing', callId: call.callId, idempotencyKey: call.key, at: clock.now() });
    });
    if (behaviour === 'no_answer' || ringSeconds >= ringTimeout) {
      after(call, ringTimeout, () => end(call, 'no_answer'));
      return;
    }
    const by = behaviour === 'voicemail' ? 'machine' : 'person';
    after(call, ringSeconds, async () => {
      await answer(call, by);
      if (call.script.kind === 'verification_code') {
        after(call, t.codeSpeech, () => end(call, 'completed'));
      } else if (by === 'machine') {
        after(call, t.machineRecord, () => end(call, 'completed'));
      } else {
        const digit = DIGIT[behaviour];
        if (digit) {
          after(call, t.speech, async () => {
            await emit({ type: 'call.digits', callId: call.callId, idempotencyKey: call.key, at: clock.now(), digits: digit });
            after(call, t.holdAfterDigits, () => end(call, 'completed'));
          });
        } else {
          after(call, t.speech + t.silentListen, () => end(call, 'completed'));
        }
      }
    });
  };

  const phoneState = (e164: string) => {
    let state = phones.get(e164);
    if (!state) {
      state = { phone: { answers: [...DEFAULT_PHONE.answers], ring_seconds: DEFAULT_PHONE.ring_seconds }, next: 0 };
      phones.set(e164, state);
    }
    return state;
  };

  return {
    async placeCall(request: PlaceCallRequest): Promise<PlaceCallResult> {
      const known = byKey.get(request.idempotencyKey);
      if (known) return known;
      const state = phoneState(request.to);
      const answers = state.phone.answers;
      const behaviour = answers[Math.min(state.next, answers.length - 1)]!;
      state.next += 1;
      if (behaviour === 'fail') {
        const refused: PlaceCallResult = {
          ok: false,
          code: 'provider_refused',
          detail: 'The simulated provider refused the call (behaviour "fail").',
          retryable: false,
        };
        byKey.set(request.idempotencyKey, refused);
        return refused;
      }
      const call: SimCall = {
        callId: `SIM${randomUUID().replaceAll('-', '')}`,
        key: request.idempotencyKey,
        to: request.to,
        from: request.from ?? options.from,
        script: request.script,
        stage: 'placed',
        answeredAt: null,
        timers: [],
      };
      calls.set(call.callId, call);
      const result: PlaceCallResult = { ok: true, callId: call.callId };
      byKey.set(request.idempotencyKey, result);
      play(call, behaviour, state.phone.ring_seconds, request.ringTimeoutSeconds);
      return result;
    },

    async hangUp(callId: string, hangUpOptions?: { say?: string }): Promise<void> {
      const call = calls.get(callId);
      if (!call || call.stage === 'ended') return;
      for (const h of call.timers) h.cancel();
      call.timers = [];
      if (call.stage !== 'answered') {
        after(call, 0, () => end(call, 'canceled'));
      } else {
        after(call, hangUpOptions?.say ? t.closingSay : 0, () => end(call, 'completed'));
      }
    },

    onEvent(next: TelephonyEventHandler): void {
      handler = next;
    },

    setPhone(e164: string, phone: SimulatedPhone): void {
      if (phone.answers.length === 0) throw new RangeError('SimulatedPhone: answers must not be empty');
      phones.set(e164, { phone: { answers: [...phone.answers], ring_seconds: phone.ring_seconds }, next: 0 });
    },

    getPhone(e164: string): SimulatedPhone {
      const p = phoneState(e164).phone;
      return { answers: [...p.answers], ring_seconds: p.ring_seconds };
    },

    get liveCalls() {
      return calls.size;
    },
  };
}
