/**
 * Bounded, fair slow-hash work (scrypt for code checks): at most `concurrency` jobs run at
 * once in the process, waiting jobs are served round-robin across client addresses (so a
 * flood from one address delays another address's sign-in by at most one job per address
 * ahead of it, not by the whole flood), and one address may have at most `perClient` jobs
 * waiting or running: beyond that it is refused at once with 429 rate_limited, without
 * hashing. Client addresses come from the HTTP layer (`ctx.state.client`: `ctx.ip`, WAKEUP_TRUST_PROXY, an IPv6 one by its prefix).
 * @module
 */
import { problem } from '../errors.js';

/** Options of {@link createWorkGate}. */
export interface WorkGateOptions {
  /** Jobs running at once (about the CPU cores). */
  concurrency: number;
  /** Jobs one client may have waiting or running. */
  perClient: number;
}

/** The gate. */
export interface WorkGate {
  /** Runs `fn` when its turn comes; throws 429 rate_limited when `client` has too many jobs. */
  run<T>(client: string, fn: () => Promise<T>): Promise<T>;
  /** Jobs waiting and running (tests). */
  load(): { running: number; waiting: number };
}

type Job = () => void;

/** Creates a gate (see the module header). */
export function createWorkGate(options: WorkGateOptions): WorkGate {
  let running = 0;
  /** Waiting jobs per client; the Map's order is the round-robin order. */
  const queues = new Map<string, Job[]>();
  const held = new Map<string, number>();

  const next = () => {
    while (running < options.concurrency && queues.size > 0) {
      const [client, jobs] = queues.entries().next().value as [string, Job[]];
      const job = jobs.shift()!;
      queues.delete(client);
      // Back of the line for this client's next job.
      if (jobs.length > 0) queues.set(client, jobs);
      running++;
      job();
    }
  };

  return {
    run(client, fn) {
      const count = held.get(client) ?? 0;
      if (count >= options.perClient) {
        return Promise.reject(
          problem('rate_limited', {
            detail:
              'Too many code checks in progress from your address. Try again in a few seconds.',
            headers: { 'Retry-After': '5' },
          }),
        );
      }
      held.set(client, count + 1);
      return new Promise((resolve, reject) => {
        const job = () => {
          fn()
            .then(resolve, reject)
            .finally(() => {
              running--;
              const left = (held.get(client) ?? 1) - 1;
              if (left > 0) held.set(client, left);
              else held.delete(client);
              next();
            });
        };
        const jobs = queues.get(client);
        if (jobs) jobs.push(job);
        else queues.set(client, [job]);
        next();
      });
    },
    load() {
      let waiting = 0;
      for (const jobs of queues.values()) waiting += jobs.length;
      return { running, waiting };
    },
  };
}
