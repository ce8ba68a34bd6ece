/**
 * The lifecycle of the composed host: what starts, and what stops, each as one ordered list
 * read top to bottom. Starting happens before the server listens; stopping after it stopped
 * taking requests (`beginShutdown` first marks the host closing: GET /readyz answers 503,
 * responses say Connection: close).
 *
 * The stop order is the reverse of dependence: work that may still write (extra hooks
 * registered through `Lifecycle.onClose`, the webhook worker, the runtime draining its calls)
 * stops first, while everything it writes to is open; the texts the runtime's last events
 * started finish after it; then the shared state (no code check queues by then), the
 * mail connections, the real-time timers and, last, the database.
 * @module
 */
import type { Logger } from '../logger.js';
import type { Lifecycle } from '../services.js';

/** One step of a list: a name for the logs and what it does. */
export interface Step {
  readonly name: string;
  run(): void | Promise<void>;
  /**
   * The step's failure ends the list and is thrown (the database's close); otherwise it is
   * logged and the next step runs.
   */
  readonly fatal?: boolean;
}

/** What the composed host's lifecycle offers: the features' view, and the server's hooks. */
export interface HostLifecycle {
  /** What features and the server see: `onClose` hooks and whether shutdown began. */
  readonly lifecycle: Lifecycle;
  /** Runs the start list, in order. */
  start(): Promise<void>;
  /** Marks shutdown begun. */
  beginShutdown(): void;
  /** Marks shutdown begun, then runs the hooks (newest first) and the stop list, in order. */
  close(): Promise<void>;
}

/**
 * Creates the lifecycle over the two lists. Hooks registered through `onClose` (the server's
 * dev clock save) run before the stop list, newest first.
 */
export function createHostLifecycle(
  logger: Logger,
  lists: { start: readonly Step[]; stop: readonly Step[] },
): HostLifecycle {
  const hooks: Array<() => void | Promise<void>> = [];
  let closing = false;
  const lifecycle: Lifecycle = {
    onClose(fn) {
      hooks.push(fn);
    },
    get closing() {
      return closing;
    },
  };

  const run = async (step: Step) => {
    if (step.fatal) return await step.run();
    try {
      await step.run();
    } catch (err) {
      logger.error({ err, step: step.name }, 'shutdown hook failed');
    }
  };

  return {
    lifecycle,
    async start() {
      for (const step of lists.start) await step.run();
    },
    beginShutdown() {
      closing = true;
    },
    async close() {
      closing = true;
      const registered = hooks.splice(0).reverse();
      for (const [i, fn] of registered.entries()) await run({ name: `onClose hook ${i}`, run: fn });
      for (const step of lists.stop) await run(step);
    },
  };
}
