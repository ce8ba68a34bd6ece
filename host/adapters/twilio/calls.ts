/**
 * The calls this process knows, for the Twilio-compatible telephony adapter (telephony.ts):
 * each call's stage, its webhooks run one at a time in arrival order, and its events handed to
 * the engine at most once (by the stage here, and across restarts by the {@link EventLog}:
 * each event is recorded under `call:<CallSid>:<ringing|answered|digits|ended>` once handled).
 * Ended calls are forgotten after an hour, calls whose end never arrived after six.
 * @module
 */
import type {
  CallEndReason,
  Clock,
  TelephonyEvent,
  TelephonyEventHandler,
} from '../../../engine/ports.js';
import type { EventLog } from '../../ports/telephony.js';

/** A diagnostics sink (e.g. a pino logger's warn). */
export type Warn = (message: string, detail?: Record<string, unknown>) => void;

/** Where a call stands, as this process saw it. */
export type Stage = 'placed' | 'ringing' | 'answered' | 'ended';

/** One call this process knows. */
export interface CallState {
  sid: string;
  key: string;
  stage: Stage;
  digitsSeen: boolean;
  /** Webhooks of this call now awaiting the event handler. */
  inWebhook: number;
  /** A hangUp asked for while a webhook was running: its TwiML carries it. */
  pendingHangup: { say?: string } | null;
  hangupRequested: boolean;
  endedAt: number | null;
  /** When this process first saw the call (prunes calls whose end never arrived). */
  seenAt: number;
  queue: Promise<unknown>;
}

/** The provider's final statuses, as the engine's end reasons. */
export const END_REASONS: Record<string, CallEndReason> = {
  completed: 'completed',
  busy: 'busy',
  'no-answer': 'no_answer',
  failed: 'failed',
  canceled: 'cancelled',
};

/** Ended calls are remembered this long to drop the provider's late retries. */
const KEEP_ENDED_MS = 60 * 60_000;
/** A call whose end never arrived is forgotten after this long (no call lasts so long). */
const KEEP_UNENDED_MS = 6 * 60 * 60_000;

/** The table of calls, shared by the adapter's parts. */
export interface CallTable {
  readonly clock: Clock;
  readonly warn: Warn;
  /** The call `sid`, when this process knows it. */
  get(sid: string): CallState | undefined;
  /** The call `sid`, added (stage `placed`, attempt `key`) when this process did not know it. */
  stateOf(sid: string, key: string): CallState;
  /** Runs `fn` after every earlier webhook of the same call finished. */
  serial<T>(s: CallState, fn: () => Promise<T>): Promise<T>;
  /**
   * Hands `event` to the handler unless the log has it; records it once handled. `inWebhook`
   * marks the call as inside a webhook meanwhile, so that a hang-up asked for by the handler
   * is answered in that webhook's TwiML.
   */
  once(s: CallState, event: TelephonyEvent, inWebhook?: boolean): Promise<void>;
  /** Whether an event of this type was handled for the call (by any host: the event log). */
  handled(s: CallState, type: 'answered' | 'digits'): Promise<boolean>;
  /** Sets the handler that receives the events. */
  onEvent(next: TelephonyEventHandler): void;
  /** Forgets ended calls after an hour, unended ones after six. */
  prune(): void;
  /** Calls held in memory. */
  size(): number;
}

/** Creates the table; `log` makes the at-most-once hold across restarts. */
export function createCallTable(clock: Clock, warn: Warn, log?: EventLog): CallTable {
  const calls = new Map<string, CallState>();
  let handler: TelephonyEventHandler = () => undefined;

  const emitInWebhook = async (s: CallState, event: TelephonyEvent) => {
    s.inWebhook += 1;
    try {
      await handler(event);
    } finally {
      s.inWebhook -= 1;
    }
  };

  return {
    clock,
    warn,
    get: (sid) => calls.get(sid),

    stateOf(sid, key) {
      let s = calls.get(sid);
      if (!s) {
        s = {
          sid,
          key,
          stage: 'placed',
          digitsSeen: false,
          inWebhook: 0,
          pendingHangup: null,
          hangupRequested: false,
          endedAt: null,
          seenAt: clock.now(),
          queue: Promise.resolve(),
        };
        calls.set(sid, s);
      }
      return s;
    },

    serial(s, fn) {
      const run = s.queue.then(fn, fn);
      s.queue = run.catch(() => undefined);
      return run;
    },

    async once(s, event, inWebhook = false) {
      const key = `call:${s.sid}:${event.type.slice('call.'.length)}`;
      if (await log?.seen(key)) return;
      if (inWebhook) await emitInWebhook(s, event);
      else await handler(event);
      await log?.record(key);
    },

    async handled(s, type) {
      return (await log?.seen(`call:${s.sid}:${type}`)) ?? false;
    },

    onEvent(next) {
      handler = next;
    },

    prune() {
      const now = clock.now();
      for (const [sid, s] of calls) {
        if (s.endedAt !== null ? now - s.endedAt > KEEP_ENDED_MS : now - s.seenAt > KEEP_UNENDED_MS)
          calls.delete(sid);
      }
    },

    size: () => calls.size,
  };
}
