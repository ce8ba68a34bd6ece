/**
 * Runs async work one at a time per key (per process: one process owns the database).
 *
 * Code checks await a slow hash before they count a wrong guess; without a queue, many
 * guesses sent at once would all pass the lock check before the first wrong one is counted,
 * and a "5 wrong codes lock" rule would not hold. Sign-in (per address) and phone
 * verification (per number) both queue their checks here.
 * @module
 */

/** A queue keyed by string: `run(key, fn)` starts `fn` once every earlier `fn` of that key settled. */
export interface KeyedQueue {
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** Creates an empty keyed queue; keys are forgotten once their last task settles. */
export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, fn) {
      const previous = tails.get(key) ?? Promise.resolve();
      const run = previous.then(fn, fn);
      const settled = run.catch(() => undefined);
      tails.set(key, settled);
      void settled.then(() => {
        if (tails.get(key) === settled) tails.delete(key);
      });
      return run;
    },
  };
}
