/**
 * The runtime's lifecycle: `start()` (listen to telephony events, then the start-up recovery:
 * reconciliation, zone rules, the horizon's first fill and the dispatch loop, series repair;
 * awaited, or run in the background and retried while the store fails), `stop()` and
 * `idle()`. A stop ends a recovery of an earlier start at its next step.
 * @module
 */
import type { Clock, Store, Telephony } from '../ports.js';
import type { DispatchLoop } from './dispatch-loop.js';
import type { EffectRunner } from './effect-runner.js';
import type { SafeEmitter } from './events.js';
import type { DueHorizon } from './horizon.js';
import type { Inbox } from './inbox.js';
import type { ResolvedRuntimeOptions } from './options.js';
import { reconcile } from './reconcile.js';
import type { Runtime, StartOptions } from './types.js';
import type { RunUnit } from './unit-runner.js';

/** What the lifecycle needs. */
export interface LifecycleDeps {
  clock: Clock;
  store: Store;
  telephony: Telephony;
  options: ResolvedRuntimeOptions;
  events: SafeEmitter;
  horizon: DueHorizon;
  runner: EffectRunner;
  inbox: Inbox;
  loop: DispatchLoop;
  unit: RunUnit;
  /** Re-resolves pending occurrences resolved under other zone rules (part of the recovery). */
  rulesChanged(): Promise<number>;
}

/** The runtime's lifecycle methods. */
export type Lifecycle = Pick<Runtime, 'start' | 'stop' | 'idle'>;

/** See the module comment. */
export function createLifecycle(d: LifecycleDeps): Lifecycle {
  let running = false;
  let stopped = false;
  /** Bumped by stop(): a recovery of an earlier start() stops at its next step. */
  let runId = 0;

  /**
   * Start-up recovery: reconciliation (its calls join the runner's line), zone rules, the
   * horizon's first fill and the dispatch loop, then series repair. In the background every
   * page of it yields to the event loop first (the fill yields between pages anyway).
   */
  async function recover(background: boolean): Promise<void> {
    const run = runId;
    if (background) await d.options.yieldToLoop();
    if (run !== runId) return;
    await reconcile({
      store: d.store,
      options: d.options,
      runner: d.runner,
      rulesChanged: () => d.rulesChanged(),
      unit: d.unit,
      yieldToLoop: background ? d.options.yieldToLoop : null,
      startDispatch: async () => {
        await d.horizon.refill(d.clock.now());
        if (run === runId) d.loop.start();
      },
      stopped: () => run !== runId,
    });
  }

  async function recoverInBackground(): Promise<void> {
    const run = runId;
    for (let tries = 1; run === runId; tries++) {
      try {
        await recover(true);
        return;
      } catch (error) {
        // A failing store: say so and try again (reconciliation is idempotent: same keys).
        d.events.emit('runtime:error', { error, where: 'recovery' });
        const ms = Math.min(1000 * 2 ** (tries - 1), d.options.maxTimerStepMs);
        await new Promise<void>((resolve) => d.clock.setTimer(d.clock.now() + ms, resolve));
      }
    }
  }

  async function idle(): Promise<void> {
    await d.runner.settled();
  }

  return {
    async start(options: StartOptions = {}): Promise<void> {
      if (running) return;
      running = true;
      stopped = false;
      d.runner.start();
      d.telephony.onEvent((event) =>
        stopped ? undefined : d.inbox.add({ type: 'telephony', event }),
      );
      if (!options.background) {
        await recover(false);
        return;
      }
      // Tracked, so that idle() (and a virtual clock's settle) waits for the recovery too.
      d.runner.track(recoverInBackground());
    },

    async stop(options: { drain?: boolean } = {}): Promise<void> {
      runId++;
      stopped = true;
      running = false;
      d.loop.stop();
      d.telephony.onEvent(() => undefined);
      d.runner.stop();
      if (options.drain ?? true) await idle();
    },

    idle,
  };
}
