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
 *
 * The timeline itself is the engine's {@link MemoryTelephony} (one simulated network, not
 * two), run with the timings above; this module adds the PUT /dev/phones configuration,
 * the spoken-code records and random call ids (ids survive a restart of the process, and
 * a sequence number would repeat).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Clock, EpochMs, Telephony } from '../../../engine/ports.js';
import type { CallScript } from '../../../engine/model.js';
import { MemoryTelephony, type PhoneBehaviour } from '../../../engine/sim/index.js';
import type { SimulatedPhone, SimulatedPhones } from '../../ports/telephony.js';

export type { PhoneBehaviour };

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

/** The phone every unconfigured number is. */
export const DEFAULT_PHONE: Readonly<SimulatedPhone> = Object.freeze<SimulatedPhone>({
  answers: ['confirm'],
  ring_seconds: 5,
});

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
export interface SimulatorTelephony extends Telephony, SimulatedPhones {
  /** The configuration of the phone at `e164` (the default when never set). */
  getPhone(e164: string): SimulatedPhone;
  /** Number of calls not yet ended. */
  readonly liveCalls: number;
}

/** Creates the simulator. State (phones, calls) lives in memory for the process's life. */
export function createSimulatorTelephony(options: SimulatorTelephonyOptions): SimulatorTelephony {
  const t: SimulatorTimings = { ...DEFAULT_TIMINGS, ...options.timings };
  const { onSpoken } = options;
  const network = new MemoryTelephony({
    clock: options.clock,
    // Ringing is reported as soon as the call is placed.
    setupSeconds: 0,
    ringSeconds: DEFAULT_PHONE.ring_seconds,
    keySeconds: t.speech,
    // A silent callee hears the speech, listens a while, then hangs up.
    talkSeconds: t.speech + t.silentListen,
    voicemailSeconds: t.machineRecord,
    lingerSeconds: t.holdAfterDigits,
    codeCallSeconds: t.codeSpeech,
    closingSaySeconds: t.closingSay,
    callId: () => `SIM${randomUUID().replaceAll('-', '')}`,
    refusalDetail: 'The simulated provider refused the call (behaviour "fail").',
    keepHistory: false,
    // The next step of a call is armed once the engine has handled the previous event.
    chainSteps: true,
    onAnswered: onSpoken
      ? (call, by) =>
          onSpoken({
            callId: call.callId,
            to: call.request.to,
            from: call.request.from ?? options.from,
            script: call.request.script,
            answeredBy: by,
            at: call.answeredAt!,
          })
      : undefined,
  });
  /** What PUT /dev/phones set, for getPhone; the behaviour lists themselves live in `network`. */
  const phones = new Map<string, SimulatedPhone>();

  return {
    placeCall: (request) => network.placeCall(request),
    hangUp: (callId, hangUpOptions) => network.hangUp(callId, hangUpOptions),
    onEvent: (handler) => network.onEvent(handler),

    setPhone(e164: string, phone: SimulatedPhone): void {
      if (phone.answers.length === 0)
        throw new RangeError('SimulatedPhone: answers must not be empty');
      const copy = { answers: [...phone.answers], ring_seconds: phone.ring_seconds };
      phones.set(e164, copy);
      network.setPhone(e164, [...copy.answers], copy.ring_seconds);
    },

    getPhone(e164: string): SimulatedPhone {
      const p = phones.get(e164) ?? DEFAULT_PHONE;
      return { answers: [...p.answers], ring_seconds: p.ring_seconds };
    },

    get liveCalls() {
      return network.liveCalls;
    },
  };
}
