/**
 * Several runtimes ("hosts") sharing one store by leased claims (RuntimeOptions.lease), on one
 * virtual clock, each with its own MemoryTelephony (a provider account per host): shared by
 * the memory-store lease test and the PostgreSQL one. Every call placed is noted with the host
 * that placed it, so a test can check that each attempt was placed once across hosts.
 */
import assert from 'node:assert/strict';
import {
  createRuntime,
  type EpochMs,
  type OccurrenceRecord,
  type Runtime,
  type RuntimeOptions,
  type Store,
} from '../../engine/index.js';
import { MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { sequentialIds } from './harness.js';

export interface Placed {
  host: number;
  key: string;
  at: EpochMs;
}

export interface Cluster {
  clock: VirtualClock;
  runtimes: Runtime[];
  phones: MemoryTelephony[];
  placed: Placed[];
  /** Makes `n` occurrences due at `at` through host 0 (in parallel chunks), returns their ids. */
  spike(n: number, at: EpochMs): Promise<string[]>;
  /** Loads occurrences by id from host `host`'s store, in chunks. */
  load(ids: string[], host?: number): Promise<OccurrenceRecord[]>;
  /** Asserts that no attempt was placed twice across hosts; returns the count per key. */
  assertPlacedAtMostOnce(): Map<string, number>;
  stopAll(): Promise<void>;
}

/** Starts one runtime per store (each store is one host's view of the same data). */
export async function startCluster(
  stores: Store[],
  start: EpochMs,
  options: RuntimeOptions = {},
  /** Deliver the provider's events of host h's calls to host h + 1 (a load balancer in front of the webhooks). */
  crossEvents = false,
): Promise<Cluster> {
  const clock = new VirtualClock(start);
  const placed: Placed[] = [];
  let seq = 0;
  const phones = stores.map(
    (_, h) => new MemoryTelephony({ clock, callId: () => `SIM${h}-${++seq}` }),
  );
  const runtimes = stores.map((store, host) => {
    const phone = phones[host]!;
    const telephony = {
      placeCall: async (req: Parameters<MemoryTelephony['placeCall']>[0]) => {
        placed.push({ host, key: req.idempotencyKey, at: clock.now() });
        return phone.placeCall(req);
      },
      // The provider knows the call whichever host asks.
      hangUp: async (id: string, o?: { say?: string }) => {
        for (const p of phones) await p.hangUp(id, o);
      },
      onEvent: (h: Parameters<MemoryTelephony['onEvent']>[0]) =>
        (crossEvents ? phones[(host + phones.length - 1) % phones.length]! : phone).onEvent(h),
    };
    return createRuntime({
      clock,
      ids: sequentialIds(String(host + 1)),
      store,
      telephony,
      options: {
        ...options,
        lease: { owner: `host-${host}`, ttlMs: 30_000, pollMs: 5_000, ...options.lease },
      },
    });
  });
  for (const r of runtimes) await r.start();
  return {
    clock,
    runtimes,
    phones,
    placed,
    async spike(n, at) {
      const ids: string[] = [];
      for (let i = 0; i < n; i += 50) {
        const chunk = Array.from({ length: Math.min(50, n - i) }, (_, j) =>
          runtimes[0]!.schedule({
            accountId: `acct-${(i + j) % 7}`,
            to: `+1415555${String(i + j).padStart(4, '0')}`,
            scheduledAt: at,
          }),
        );
        for (const o of await Promise.all(chunk)) ids.push(o.id);
      }
      return ids;
    },
    async load(ids, host = 0) {
      const out: OccurrenceRecord[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        out.push(...(await stores[host]!.load({ occurrences: ids.slice(i, i + 500) })).occurrences);
      }
      return out;
    },
    assertPlacedAtMostOnce() {
      const count = new Map<string, number>();
      for (const p of placed) count.set(p.key, (count.get(p.key) ?? 0) + 1);
      const twice = [...count].filter(([, c]) => c > 1);
      assert.deepEqual(twice, [], 'no attempt placed twice across hosts');
      return count;
    },
    async stopAll() {
      for (const r of runtimes) await r.stop({ drain: false });
    },
  };
}
