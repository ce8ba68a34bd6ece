/**
 * A keyed queue: runs tasks so that two tasks sharing a key never overlap, in the order they
 * were queued, while tasks with disjoint keys run concurrently. The runtime queues each unit
 * of work under the ids of the rows it will touch, so in one process two units on the same
 * occurrence never race (the store's version check still refuses a race with another process).
 * @module
 */

/** See the module comment. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task on any of `keys` has settled. */
  run<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
    const before: Promise<void>[] = [];
    for (const k of keys) {
      const t = this.tails.get(k);
      if (t) before.push(t);
    }
    const result = before.length === 0 ? task() : Promise.allSettled(before).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    for (const k of keys) this.tails.set(k, tail);
    void tail.then(() => {
      for (const k of keys) if (this.tails.get(k) === tail) this.tails.delete(k);
    });
    return result;
  }

  /** Keys with a task queued or running (for tests and stats). */
  get size(): number {
    return this.tails.size;
  }
}
