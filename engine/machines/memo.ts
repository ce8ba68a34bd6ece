/**
 * Memoised pure transitions. A full XState `transition()` costs tens of microseconds; the
 * dispatch hot path runs it for every occurrence of a spike. Our machines read only
 * discrete facts and discrete event fields, and their action params are constants, so the
 * result of (state value, facts, event) is a pure function of a short key: we compute it
 * once with XState and replay it afterwards. XState stays the single definition of the
 * behaviour; the cache is bounded and only ever holds XState's own answers.
 * @module
 */
import { initialTransition, transition, type AnyStateMachine } from 'xstate';

/** One named action of a step, as XState resolved it. */
export interface StepAction<N extends string = string> {
  type: N;
  params: Record<string, unknown> | undefined;
}

/** The result of one step: the next state value and the named actions, in order. */
export interface StepResult<V extends string = string, N extends string = string> {
  value: V;
  /** True when `value` is a final state. */
  done: boolean;
  /** True when the event changed nothing (no transition taken). */
  unchanged: boolean;
  actions: readonly StepAction<N>[];
}

/** Counters of a {@link MemoStep}. */
export interface MemoStats {
  hits: number;
  misses: number;
  size: number;
}

/** A memoised step function over one machine. */
export interface MemoStep<V extends string, N extends string, F, E> {
  /** The result of sending `event` to a snapshot in `value` with context `facts`. */
  step(value: V, facts: F, event: E): StepResult<V, N>;
  /** The initial state value and entry actions for `facts` (the machine's input). */
  initial(facts: F): StepResult<V, N>;
  readonly stats: MemoStats;
}

/** Options of {@link memoStep}: how to turn facts and events into cache keys. */
export interface MemoKeys<F, E> {
  /** A string that is equal for facts the guards cannot tell apart. Must cover every fact read. */
  facts(facts: F): string;
  /** A string that is equal for events the guards cannot tell apart (type and discrete fields). */
  event(event: E): string;
  /** Entries kept before the cache is cleared. @defaultValue 10000 */
  limit?: number;
}

function toResult<V extends string, N extends string>(
  value: unknown,
  status: string,
  actions: ReadonlyArray<{ type: string; params?: unknown }>,
  unchanged: boolean,
): StepResult<V, N> {
  if (typeof value !== 'string')
    throw new Error(`memoStep: only flat machines are supported, got ${JSON.stringify(value)}`);
  return Object.freeze({
    value: value as V,
    done: status === 'done',
    unchanged,
    actions: Object.freeze(
      actions
        .filter((a) => !a.type.startsWith('xstate.'))
        .map((a) =>
          Object.freeze({
            type: a.type as N,
            params: a.params as Record<string, unknown> | undefined,
          }),
        ),
    ),
  });
}

/**
 * Wraps `machine` (flat, context = facts taken from input, no `after`, no invoked actors)
 * in a memoised step function.
 *
 * @example
 * const occ = memoStep(occurrenceMachine, { facts: factsKey, event: eventKey });
 * const { value, actions } = occ.step('pending', facts, { type: 'DUE', verdict: 'go' });
 */
export function memoStep<V extends string, N extends string, F, E extends { type: string }>(
  machine: AnyStateMachine,
  keys: MemoKeys<F, E>,
): MemoStep<V, N, F, E> {
  const cache = new Map<string, StepResult<V, N>>();
  const limit = keys.limit ?? 10_000;
  const stats: MemoStats = { hits: 0, misses: 0, size: 0 };
  const remember = (key: string, result: StepResult<V, N>) => {
    if (cache.size >= limit) cache.clear();
    cache.set(key, result);
    stats.size = cache.size;
    return result;
  };
  return {
    stats,
    step(value, facts, event) {
      const key = `${value}|${keys.facts(facts)}|${keys.event(event)}`;
      const hit = cache.get(key);
      if (hit) {
        stats.hits++;
        return hit;
      }
      stats.misses++;
      const snapshot = machine.resolveState({ value, context: facts });
      const [next, actions] = transition(machine, snapshot, event as never);
      // A targetless transition may return the same snapshot object and still have actions.
      const unchanged = next.value === value && actions.length === 0;
      return remember(key, toResult<V, N>(next.value, next.status, actions, unchanged));
    },
    initial(facts) {
      const key = `#init|${keys.facts(facts)}`;
      const hit = cache.get(key);
      if (hit) {
        stats.hits++;
        return hit;
      }
      stats.misses++;
      const [first, actions] = initialTransition(machine, facts as never);
      return remember(key, toResult<V, N>(first.value, first.status, actions, false));
    },
  };
}
