/**
 * Runtime options with their defaults, validated once by {@link resolveRuntimeOptions}.
 * @module
 */
import type { OccurrenceRecord } from '../model.js';
import type { ClosingPhrase } from '../machines/attempt.machine.js';
import { EngineError } from './errors.js';

/** Provider pacing: a calls-per-second limit per provider account (one runtime = one account). */
export interface PacingOptions {
  /** Calls placed per second at most; `Infinity` turns pacing off. @defaultValue Infinity */
  callsPerSecond?: number;
  /**
   * How early a call may be started so that a peak rings on time: calls due together are
   * spread backwards from their instant over at most this many ms, and never start earlier.
   * Only used when `callsPerSecond` is finite. @defaultValue 30000
   */
  maxLeadMs?: number;
}

/** Backoff of a port call whose outcome is unknown (it rejected): asked again with the same idempotency key. */
export interface EffectRetryOptions {
  /** Calls to the port at most, the first included. @defaultValue 6 for calls, 4 for texts */
  tries?: number;
  /** Delay before the n-th retry: `baseMs * 2^(n-1)` for calls, `baseMs * n` for texts, at most `maxMs`. */
  baseMs?: number;
  /** Longest delay between two tries, ms. @defaultValue 15000 for calls, 3600000 for texts */
  maxMs?: number;
}

/**
 * Leased claims, for several runtimes (several hosts) sharing one store that supports them
 * (the PostgreSQL store; see `DueQuery.lease` in ports.ts and docs/decisions/0012). With it the
 * wheel holds only rows this runtime claimed, due within the next poll; without it, nothing
 * changes (one process, the wheel loads the whole horizon).
 *
 * @example
 * // On every host, over one PostgreSQL database:
 * const runtime = createRuntime({ clock, ids, telephony, store: createPostgresStore(pool), options: { lease: { ttlMs: 30_000 } } });
 */
export interface LeaseOptions {
  /** This runtime's name in the store's lease column. @defaultValue a new id from the Ids port */
  owner?: string;
  /** How long a claim holds a row; a dead runtime's rows are claimed by another this long after its last poll. */
  ttlMs: number;
  /**
   * How often the runtime claims again from the start of its horizon: rows due soon that are
   * new, free, skipped because they were being written, or leased by a runtime whose lease
   * expired; its own rows are re-claimed, which renews their lease. A row is claimed about
   * one poll before it is due. At most `ttlMs / 2`. @defaultValue ttlMs / 3
   */
  pollMs?: number;
  /**
   * Claimed rows waiting in the wheel at most: a runtime claims more only when it has handled
   * half of them, so the runtimes share a spike instead of one taking it all.
   * @defaultValue 2 × batchSize
   */
  maxClaimed?: number;
}

/**
 * Options of `createRuntime`.
 *
 * @example
 * const runtime = createRuntime({
 *   clock, ids, store, telephony,
 *   options: { pacing: { callsPerSecond: 10 }, lateGraceMs: 5 * 60_000, phrases: { confirmed: 'Good morning!' } },
 * });
 */
export interface RuntimeOptions {
  /** Share due work with other runtimes on the same store by leased claims (see {@link LeaseOptions}). @defaultValue off */
  lease?: LeaseOptions;
  /**
   * Late-dispatch grace: a dispatch (first attempt, retry or snooze) up to this many ms late
   * (after downtime or a backlog) still rings; later, the occurrence ends `missed` with
   * outcome_reason `late_dispatch` and the fallback text goes out if `smsFallback`.
   * @defaultValue 600000 (10 minutes)
   */
  lateGraceMs?: number;
  /** Calls-per-second limit of the provider account (see {@link PacingOptions}). @defaultValue off */
  pacing?: PacingOptions;
  /** How far ahead the timer wheel is filled from the store. @defaultValue 600000 (10 minutes) */
  horizonMs?: number;
  /** Most entries the wheel holds; the store holds the rest until they come near. @defaultValue 200000 */
  wheelCapacity?: number;
  /** Rows read from the store per refill page (one unit of work). @defaultValue 1000 */
  refillPage?: number;
  /**
   * Most rows handled per unit of work (one database transaction). The runtime halves the
   * unit when one takes longer than half of `sliceMs` and grows it back when units are quick.
   * @defaultValue 512
   */
  batchSize?: number;
  /**
   * Longest run of units, by the Clock port, before yielding to the event loop: bounds how
   * long timers, I/O and HTTP requests wait behind a spike. @defaultValue 10
   */
  sliceMs?: number;
  /** Units run back to back at most before yielding (for clocks that do not move, like a virtual one). @defaultValue 8 */
  batchesPerSlice?: number;
  /**
   * Dispatch units of work running at once, each on its own batch of due rows. SQLite has one
   * writer, so a second unit would only wait: keep 1. On PostgreSQL a unit mostly waits on
   * round trips, and 2 to 4 keep the server's cores busy (docs/performance/spike-profile.md).
   * @defaultValue 1
   */
  unitsInFlight?: number;
  /** Longest host timer the runtime arms; it re-checks the clock when one fires. @defaultValue 60000 */
  maxTimerStepMs?: number;
  /**
   * Requests to the provider's `placeCall` awaiting its answer at once. More wait in one
   * first-in, first-out line (dispatch, start-up reconciliation, standalone calls and retries
   * alike), and the dispatch loop commits new intents only while nobody waits in it: a spike
   * or a restart's backlog never opens thousands of requests at once, which would starve the
   * event loop (webhooks, health checks) and slow the drain. @defaultValue 256
   */
  maxInFlight?: number;
  /** Extra seconds past the ring timeout before the watchdog gives up on a call that never rang. @defaultValue 60 */
  setupGraceSeconds?: number;
  /** Extra seconds past the ring timeout before the watchdog ends a ringing call. @defaultValue 15 */
  ringGraceSeconds?: number;
  /** Longest answered call before the watchdog hangs up (no key pressed). @defaultValue 120 */
  maxTalkSeconds?: number;
  /**
   * The app backup alarm rings this long after the series base (the scheduled instant, or
   * the snooze attempt's instant after a snooze) when the occurrence has `backupAlarm`.
   * @defaultValue 120
   */
  backupAlarmDelaySeconds?: number;
  /**
   * Backoff of effects whose port rejected (outcome unknown). A crash drops pending retries;
   * start-up reconciliation places or sends them again.
   * @defaultValue placeCall: 6 tries, 1 s doubling up to 15 s; sendText: 4 tries, 60 s more each time
   */
  effectRetry?: { placeCall?: EffectRetryOptions; sendText?: EffectRetryOptions };
  /** Words said before hanging up after a key. */
  phrases?: Partial<Record<ClosingPhrase, string>>;
  /** Body of the fallback text. */
  fallbackText?: (occurrence: OccurrenceRecord) => string;
  /** Yields to the event loop between slices. @defaultValue setImmediate */
  yieldToLoop?: () => Promise<void>;
}

/** {@link RuntimeOptions} with every default applied, as `Runtime.options` shows them; `lease` is null without leases. */
export type ResolvedRuntimeOptions = Readonly<
  Required<Omit<RuntimeOptions, 'pacing' | 'phrases' | 'effectRetry' | 'lease'>> & {
    lease: Readonly<Required<LeaseOptions>> | null;
    pacing: Readonly<Required<PacingOptions>>;
    phrases: Readonly<Record<ClosingPhrase, string>>;
    effectRetry: Readonly<{
      placeCall: Readonly<Required<EffectRetryOptions>>;
      sendText: Readonly<Required<EffectRetryOptions>>;
    }>;
  }
>;

const DEFAULT_PHRASES: Record<ClosingPhrase, string> = {
  confirmed: 'Thank you. Have a good day.',
  snoozed: 'Snoozed. We will call you again soon.',
  stopped: 'Calls are turned off. We will not call you again until you turn them back on.',
  no_snoozes: 'No snoozes are left. Please get up now.',
};

function defaultFallbackText(o: OccurrenceRecord): string {
  const what = o.label ? `Your wake-up call "${o.label}"` : 'Your wake-up call';
  return `${what} was not confirmed. This is your backup reminder: time to get up.`;
}

function positive(name: string, value: number, allowInfinity = false): number {
  if (!(value > 0) || (!allowInfinity && !Number.isFinite(value))) {
    throw new EngineError(
      'invalid_option',
      `RuntimeOptions: ${name} must be a positive number, got ${value}`,
      name,
    );
  }
  return value;
}

/**
 * Applies defaults and validates; throws EngineError `invalid_option` naming the field.
 * `newOwner` names a lease owner when `lease.owner` is not given (the runtime passes its Ids port).
 */
export function resolveRuntimeOptions(
  o: RuntimeOptions = {},
  newOwner?: () => string,
): ResolvedRuntimeOptions {
  const callsPerSecond = positive(
    'pacing.callsPerSecond',
    o.pacing?.callsPerSecond ?? Infinity,
    true,
  );
  const maxLeadMs = o.pacing?.maxLeadMs ?? 30_000;
  if (!(maxLeadMs >= 0) || !Number.isFinite(maxLeadMs)) {
    throw new EngineError(
      'invalid_option',
      `RuntimeOptions: pacing.maxLeadMs must be >= 0, got ${maxLeadMs}`,
      'pacing.maxLeadMs',
    );
  }
  const lateGraceMs = o.lateGraceMs ?? 600_000;
  if (!(lateGraceMs >= 0))
    throw new EngineError(
      'invalid_option',
      `RuntimeOptions: lateGraceMs must be >= 0`,
      'lateGraceMs',
    );
  const batchSize = positive('batchSize', o.batchSize ?? 512);
  let lease: Readonly<Required<LeaseOptions>> | null = null;
  if (o.lease) {
    const ttlMs = positive('lease.ttlMs', o.lease.ttlMs);
    const pollMs = positive('lease.pollMs', o.lease.pollMs ?? Math.floor(ttlMs / 3));
    if (pollMs > ttlMs / 2) {
      throw new EngineError(
        'invalid_option',
        `RuntimeOptions: lease.pollMs must be at most lease.ttlMs / 2, got ${pollMs}`,
        'lease.pollMs',
      );
    }
    const owner = o.lease.owner ?? newOwner?.();
    if (typeof owner !== 'string' || owner.length === 0) {
      throw new EngineError(
        'invalid_option',
        'RuntimeOptions: lease.owner must be a non-empty string',
        'lease.owner',
      );
    }
    lease = Object.freeze({
      owner,
      ttlMs,
      pollMs,
      maxClaimed: positive('lease.maxClaimed', o.lease.maxClaimed ?? 2 * batchSize),
    });
  }
  const resolved = {
    lateGraceMs,
    lease,
    pacing: Object.freeze({ callsPerSecond, maxLeadMs }),
    horizonMs: positive('horizonMs', o.horizonMs ?? 600_000),
    wheelCapacity: positive('wheelCapacity', o.wheelCapacity ?? 200_000),
    batchSize,
    sliceMs: positive('sliceMs', o.sliceMs ?? 10),
    batchesPerSlice: positive('batchesPerSlice', o.batchesPerSlice ?? 8),
    unitsInFlight: positive('unitsInFlight', o.unitsInFlight ?? 1),
    refillPage: positive('refillPage', o.refillPage ?? 1000),
    maxTimerStepMs: positive('maxTimerStepMs', o.maxTimerStepMs ?? 60_000),
    maxInFlight: positive('maxInFlight', o.maxInFlight ?? 256),
    setupGraceSeconds: positive('setupGraceSeconds', o.setupGraceSeconds ?? 60),
    ringGraceSeconds: positive('ringGraceSeconds', o.ringGraceSeconds ?? 15),
    maxTalkSeconds: positive('maxTalkSeconds', o.maxTalkSeconds ?? 120),
    backupAlarmDelaySeconds: positive('backupAlarmDelaySeconds', o.backupAlarmDelaySeconds ?? 120),
    phrases: Object.freeze({ ...DEFAULT_PHRASES, ...o.phrases }),
    effectRetry: Object.freeze({
      placeCall: Object.freeze({
        tries: positive('effectRetry.placeCall.tries', o.effectRetry?.placeCall?.tries ?? 6),
        baseMs: positive('effectRetry.placeCall.baseMs', o.effectRetry?.placeCall?.baseMs ?? 1000),
        maxMs: positive('effectRetry.placeCall.maxMs', o.effectRetry?.placeCall?.maxMs ?? 15_000),
      }),
      sendText: Object.freeze({
        tries: positive('effectRetry.sendText.tries', o.effectRetry?.sendText?.tries ?? 4),
        baseMs: positive('effectRetry.sendText.baseMs', o.effectRetry?.sendText?.baseMs ?? 60_000),
        maxMs: positive('effectRetry.sendText.maxMs', o.effectRetry?.sendText?.maxMs ?? 3_600_000),
      }),
    }),
    fallbackText: o.fallbackText ?? defaultFallbackText,
    yieldToLoop: o.yieldToLoop ?? (() => new Promise<void>((resolve) => setImmediate(resolve))),
  };
  return Object.freeze(resolved);
}
