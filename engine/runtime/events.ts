/**
 * Observability: the runtime's typed events, one line each. Listeners run synchronously
 * after the unit of work that caused them has committed; a throwing listener is caught and
 * never breaks the runtime.
 * @module
 */
import type { RowRef, TelephonyEvent } from '../ports.js';
import type { AttemptRecord, AttemptStatus, OccurrenceRecord, OccurrenceStatus } from '../model.js';
import type { Effect } from '../machines/effects.js';

/**
 * Every event the runtime emits, by name.
 *
 * @example
 * const off = runtime.on('occurrence:status', ({ occurrence, from }) => {
 *   console.log(`${occurrence.id}: ${from ?? 'new'} -> ${occurrence.status}`);
 * });
 * off(); // unsubscribes
 */
export interface RuntimeEventMap {
  /** An occurrence was created (`from` null) or changed status. */
  'occurrence:status': { occurrence: OccurrenceRecord; from: OccurrenceStatus | null };
  /** An attempt was created (`from` null) or changed status. */
  'attempt:status': { attempt: AttemptRecord; from: AttemptStatus | null };
  /** A port rejected an effect (outcome unknown); the runtime retries or reconciles it later. */
  'effect:failed': { effect: Effect; error: unknown; willRetry: boolean };
  /** A telephony event named a call the store does not know (ignored). */
  'telephony:unknown': { event: TelephonyEvent };
  /** A host timer fired more than a second after its instant (the loop was blocked or the clock jumped). */
  'timer:late': { expectedAt: number; now: number };
  /** The store refused a unit's commit because rows changed since they were loaded; `willRetry`: computed again from a fresh load. */
  'store:conflict': { conflicts: RowRef[]; willRetry: boolean };
  /**
   * The zone rules changed (a new tzdata `version`) and a pending occurrence resolved under
   * the old ones moved from `from` to its `occurrence.scheduledAt` (its wall time, in its zone,
   * is unchanged: `occurrence.localDate` at its series' `localTime`).
   */
  'occurrence:reresolved': {
    occurrence: OccurrenceRecord;
    from: number;
    version: string;
  };
  /**
   * Work failed inside the runtime (`where`: `recovery`, `tick`, or `timer`: a callback of the
   * clock the runtime made for itself threw); the entry is retried after a pause.
   */
  'runtime:error': { error: unknown; where: string };
}

/**
 * A listener of one runtime event: it receives that event's payload ({@link RuntimeEventMap}).
 *
 * @example
 * const onAttempt: RuntimeListener<'attempt:status'> = ({ attempt, from }) => console.log(attempt.id, from, attempt.status);
 * runtime.on('attempt:status', onAttempt);
 */
export type RuntimeListener<K extends keyof RuntimeEventMap> = (
  payload: RuntimeEventMap[K],
) => void;

/** A tiny typed emitter whose `emit` never throws. */
export class SafeEmitter {
  private readonly listeners = new Map<keyof RuntimeEventMap, Set<(payload: never) => void>>();

  /** Subscribes; returns the unsubscribe function. */
  on<K extends keyof RuntimeEventMap>(name: K, listener: RuntimeListener<K>): () => void {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** True when somebody listens to `name` (so callers can skip building payloads). */
  has(name: keyof RuntimeEventMap): boolean {
    return (this.listeners.get(name)?.size ?? 0) > 0;
  }

  /** Calls every listener; exceptions are swallowed (a listener must not break the engine). */
  emit<K extends keyof RuntimeEventMap>(name: K, payload: RuntimeEventMap[K]): void {
    const set = this.listeners.get(name);
    if (!set) return;
    for (const l of set) {
      try {
        (l as RuntimeListener<K>)(payload);
      } catch {
        /* a listener's failure is its own */
      }
    }
  }
}
