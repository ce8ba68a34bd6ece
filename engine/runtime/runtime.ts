/**
 * The runtime (scheduler): owns the timer wheel, turns due instants, provider answers and
 * telephony events into units of work (load rows → memoised machine step → persist), and
 * only after each commit executes the effects through the ports.
 *
 * Guarantees:
 * - Intent before action: an attempt's row (status `requested`) is committed before
 *   `placeCall` is called, with the attempt id as idempotency key.
 * - Reconciliation at start: attempts whose intent is stored but whose acceptance is not
 *   are placed again with the same key (the provider dedupes: never two calls, never none);
 *   fallback texts decided but not known sent are sent again with the same key. Calls the
 *   provider accepted are followed by their events or, failing those, their watchdog.
 * - Never early: the wheel is advanced with `clock.now()` when a host timer fires (a timer
 *   is a hint), host timers never exceed `maxTimerStepMs`, and a paced call starts at most
 *   `pacing.maxLeadMs` before its instant.
 * - Bounded memory and loop blocking: the wheel holds the next `horizonMs` (at most
 *   `wheelCapacity` entries; the store holds the rest), and work runs in units of at most
 *   `batchSize` rows (one load and one commit each, shrunk when units get slow), yielding to
 *   the event loop after `sliceMs` of work (measured with the Clock port).
 * - Optimistic concurrency: units on the same rows are queued in-process (KeyedQueue); a
 *   commit the store refuses because a row changed elsewhere is computed again from a fresh
 *   load, so several processes may share one store.
 *
 * This file is the composition: it creates the parts, wires them and returns the Runtime.
 * The jobs are in their own modules: unit-runner.ts (units of work), horizon.ts (scheduling
 * and the wheel), dispatch-loop.ts, inbox.ts (provider answers), effect-runner.ts,
 * lifecycle.ts (start, stop, recovery; reconcile.ts), and the commands: occurrence-commands.ts,
 * series-commands.ts, standalone-calls.ts.
 * @module
 */
import { DispatchLoop } from './dispatch-loop.js';
import { EffectRunner } from './effect-runner.js';
import { EngineError } from './errors.js';
import { SafeEmitter, type RuntimeEventMap, type RuntimeListener } from './events.js';
import { attemptStep, occurrenceStep } from './facts.js';
import { DueHorizon, type Ref } from './horizon.js';
import { Inbox } from './inbox.js';
import { createLifecycle } from './lifecycle.js';
import { createOccurrenceCommands } from './occurrence-commands.js';
import { resolveRuntimeOptions } from './options.js';
import { Pacer } from './pacer.js';
import { createSeriesCommands } from './series-commands.js';
import { createStandaloneCalls } from './standalone-calls.js';
import type { Runtime, RuntimeDeps, RuntimeStats } from './types.js';
import { UnitRunner, type RunUnit } from './unit-runner.js';
import { UnitSizer } from './unit-sizer.js';

/**
 * Creates the runtime over the given ports. Nothing is dispatched until `start()`.
 *
 * @example
 * const runtime = createRuntime({ clock, ids, store: new MemoryStore(), telephony });
 * await runtime.start();
 * await runtime.schedule({ accountId: 'a1', to: '+14155550123', scheduledAt: clock.now() + 60_000 });
 */
export function createRuntime<Tx = unknown>(deps: RuntimeDeps<Tx>): Runtime {
  const ports = deps as RuntimeDeps;
  // Time and ids come only through these ports: the engine reads no clock or randomness.
  for (const port of ['clock', 'ids', 'store', 'telephony'] as const)
    if (!ports[port])
      throw new EngineError('invalid_option', `createRuntime: ${port} is required`, port);
  const { clock, ids, store, telephony, accounts } = ports;
  const options = resolveRuntimeOptions(ports.options, () => `runtime-${ids.uuid()}`);
  const events = new SafeEmitter();
  const { callsPerSecond, maxLeadMs } = options.pacing;
  const pacer = Number.isFinite(callsPerSecond) ? new Pacer<Ref>(callsPerSecond, maxLeadMs) : null;
  const horizon = new DueHorizon(store, options, clock.now(), pacer ? maxLeadMs : 0);
  const sizer = new UnitSizer(clock, options);
  // The runner records provider answers through the inbox, and the inbox and the loop run
  // units that hand effects to the runner: the parts created later are reached through
  // callbacks, called only once the runtime runs.
  const runner: EffectRunner = new EffectRunner({
    clock,
    telephony,
    messaging: ports.messaging,
    events,
    options,
    placed: (attemptId, result) => inbox.add({ type: 'placed', attemptId, result }),
    texted: (occurrenceId, result) => inbox.add({ type: 'texted', occurrenceId, result }),
  });
  const units: UnitRunner = new UnitRunner({
    clock,
    ids,
    store,
    options,
    events,
    horizon,
    runner,
    accounts,
    unitWrites: ports.unitWrites,
    armDispatch: () => {
      if (!loop.ticking) loop.arm();
    },
  });
  const unit: RunUnit = units.run.bind(units);
  const inbox: Inbox = new Inbox({
    clock,
    events,
    runner,
    sizer,
    unit: units.runStarting.bind(units),
  });
  const loop: DispatchLoop = new DispatchLoop({
    clock,
    options,
    events,
    horizon,
    pacer,
    sizer,
    runner,
    unit,
  });
  const series = createSeriesCommands({ clock, ids, store, events, unit });
  return {
    options,
    get stats(): RuntimeStats {
      return {
        ...units.counters,
        wheelSize: horizon.size,
        paced: pacer?.size ?? 0,
        inFlight: runner.size,
        memo: {
          occurrence: { hits: occurrenceStep.stats.hits, misses: occurrenceStep.stats.misses },
          attempt: { hits: attemptStep.stats.hits, misses: attemptStep.stats.misses },
        },
      };
    },
    on<K extends keyof RuntimeEventMap>(name: K, listener: RuntimeListener<K>): () => void {
      return events.on(name, listener);
    },
    ...createLifecycle({
      clock,
      store,
      telephony,
      options,
      events,
      horizon,
      runner,
      inbox,
      loop,
      unit,
      rulesChanged: () => series.rulesChanged(),
    }),
    ...createOccurrenceCommands({ clock, ids, options, unit }),
    ...series,
    ...createStandaloneCalls({ clock, ids, accounts, pacer, unit }),
  };
}
