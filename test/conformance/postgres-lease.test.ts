/**
 * Several runtimes ("hosts", each with its own pool) sharing one PostgreSQL store by leased
 * claims (RuntimeOptions.lease, docs/decisions/0012), on one virtual clock: a spike is shared
 * and each attempt placed once; a host that dies mid-spike (stopped without draining: its
 * leases stay) costs lateness, not calls, once its leases expire; a host whose rows another
 * claimed after its load (its lease had expired) has its commit refused and does not place the
 * call. On the server named by WAKEUP_TEST_PG_URL (`scripts/with-pg.sh`); skipped without it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import type { Store } from '../../engine/index.js';
import { createPostgresStore, ensurePostgresEngineSchema } from '../../engine/postgres/index.js';
import { MIN, T0 } from '../engine/harness.js';
import { startCluster } from '../engine/lease-cluster.js';
import { throwawaySchema } from '../helpers/pg-schema.js';

const url = process.env.WAKEUP_TEST_PG_URL;
const FINISHED = new Set(['confirmed', 'missed', 'failed', 'cancelled', 'unconfirmed']);

/** A fresh schema and `hosts` stores on it (one pool each); `close` drops it all. */
async function database(
  hosts: number,
): Promise<{ stores: Store[]; extra: () => Store; close: () => Promise<void> }> {
  const schema = await throwawaySchema(url!);
  const pools: pg.Pool[] = [];
  const open = () => {
    const pool = new pg.Pool({ connectionString: schema.url, max: 3 });
    pools.push(pool);
    return createPostgresStore(pool);
  };
  const stores = Array.from({ length: hosts }, open);
  await ensurePostgresEngineSchema(pools[0]!);
  return {
    stores,
    extra: open,
    close: async () => {
      await Promise.all(pools.map((p) => p.end()));
      await schema.drop();
    },
  };
}

if (!url) {
  describe('runtime leases on PostgreSQL', () => {
    it('runs on PostgreSQL', (t) => {
      t.skip(
        'WAKEUP_TEST_PG_URL is not set: no PostgreSQL server (run `scripts/with-pg.sh npm test`, as .ci/run does)',
      );
    });
  });
} else {
  describe('runtime leases on PostgreSQL', () => {
    it('three runtimes share a spike: each attempt placed once, every call on time, each host a share', async () => {
      const db = await database(3);
      try {
        const c = await startCluster(db.stores, T0 - MIN, { batchSize: 100 });
        const ids = await c.spike(1500, T0);
        await c.clock.advance(T0 + 5 * MIN);
        await c.stopAll();
        const counts = c.assertPlacedAtMostOnce();
        assert.equal(counts.size, 1500, 'one call per occurrence');
        const rows = await c.load(ids, 2);
        assert.deepEqual(
          rows.filter((o) => o.status !== 'confirmed').map((o) => o.id),
          [],
        );
        assert.deepEqual(
          c.placed.filter((p) => p.at !== T0),
          [],
          'every call placed at its instant',
        );
        const perHost = [0, 1, 2].map((h) => c.placed.filter((p) => p.host === h).length);
        assert.ok(
          perHost.every((n) => n >= 200),
          `each host placed a share: ${perHost.join(' + ')}`,
        );
      } finally {
        await db.close();
      }
    });

    it('the provider’s events reach a host that does not hold the row: it applies them (no lease needed)', async () => {
      const db = await database(2);
      try {
        const c = await startCluster(db.stores, T0 - MIN, { batchSize: 100 }, true);
        const applied = [0, 0];
        c.runtimes.forEach((r, h) =>
          r.on('attempt:status', (e) => (e.attempt.status === 'confirmed' ? applied[h]!++ : 0)),
        );
        const ids = await c.spike(300, T0);
        await c.clock.advance(T0 + 5 * MIN);
        await c.stopAll();
        c.assertPlacedAtMostOnce();
        assert.equal(c.placed.length, 300);
        const byHost = [0, 1].map((h) => c.placed.filter((p) => p.host === h).length);
        assert.ok(byHost[0]! > 0 && byHost[1]! > 0, `both placed calls: ${byHost.join(' + ')}`);
        // Each host confirmed the calls the other placed (their events came to it).
        assert.deepEqual(applied, [byHost[1], byHost[0]]);
        const rows = await c.load(ids);
        assert.equal(rows.filter((o) => o.status === 'confirmed').length, 300);
      } finally {
        await db.close();
      }
    });

    it('a host stopped mid-spike (its leases left behind): the others place the rest once its leases expire', async () => {
      const db = await database(3);
      try {
        const c = await startCluster(db.stores, T0 - MIN, { batchSize: 100 });
        const ids = await c.spike(1500, T0);
        let stoppedAt = 0;
        c.runtimes[0]!.on('attempt:status', () => {
          if (stoppedAt === 0 && c.placed.filter((p) => p.host === 0).length >= 150) {
            stoppedAt = c.clock.now();
            void c.runtimes[0]!.stop({ drain: false }); // dies: no release, its calls' events lost
          }
        });
        await c.clock.advance(T0 + 30 * MIN);
        await c.stopAll();
        assert.equal(stoppedAt, T0);
        c.assertPlacedAtMostOnce();
        const rows = await c.load(ids, 1);
        assert.equal(rows.length, 1500);
        assert.deepEqual(
          rows.filter((o) => !FINISHED.has(o.status)).map((o) => `${o.id} ${o.status}`),
          [],
          'every occurrence finished',
        );
        // Rows the dead host had claimed but not dispatched waited for its lease (30 s), then went to the others.
        const late = c.placed.filter((p) => p.host !== 0 && p.at >= T0 + 30_000 && p.at < T0 + MIN);
        assert.ok(
          late.length > 0,
          'the others took over the dead host’s claimed rows after its lease expired',
        );
        assert.deepEqual(
          c.placed.filter((p) => p.host !== 0 && p.at > T0 && p.at < T0 + 30_000),
          [],
          'not before the lease expired',
        );
        // Its calls in progress (events lost with it) end by their watchdog; the retries ring at +5 minutes.
        assert.ok(c.placed.some((p) => p.host !== 0 && p.at === T0 + 5 * MIN));
        assert.equal(rows.filter((o) => o.status === 'confirmed').length, 1500);
      } finally {
        await db.close();
      }
    });

    it('a host whose rows another claimed after its load has its commit refused: it drops them and places nothing', async () => {
      const db = await database(2);
      try {
        const [a, b] = db.stores as [Store, Store];
        const intruder = db.extra();
        let intrusions = 0;
        const tried = new Set<string>();
        // Between host 0's load and its first dispatch commit of each row, a process that sees
        // host 0's lease expired (as after a pause) claims every due row under a new owner,
        // moving the version (the fence). Its lease runs to T0 + 1 minute by host 1's clock.
        // (A commit retried from a fresh load is not intruded on: a runtime that reloaded and
        // retried, instead of dropping the rows, would then place the calls.)
        const fenced: Store = {
          ...a,
          async commit(changes) {
            const dispatch = changes.attempts.some((w) => w.expectedVersion === null);
            const fresh = dispatch && changes.occurrences.some((w) => !tried.has(w.record.id));
            if (dispatch) for (const w of changes.occurrences) tried.add(w.record.id);
            if (fresh) {
              const owner = `intruder-${++intrusions}`;
              await intruder.listDue({
                until: T0,
                limit: 1000,
                lease: { owner, until: T0 + MIN, now: T0 + 10 * MIN },
              });
            }
            return a.commit(changes);
          },
        };
        const c = await startCluster([fenced, b], T0 - MIN, { batchSize: 100 });
        const refused: number[] = [];
        c.runtimes[0]!.on('store:conflict', (e) => refused.push(e.conflicts.length));
        const ids = await c.spike(150, T0);
        await c.clock.advance(T0 + 5 * MIN);
        await c.stopAll();
        assert.ok(intrusions > 0 && refused.length > 0, 'host 0 tried to commit and was refused');
        assert.deepEqual(
          c.placed.filter((p) => p.host === 0),
          [],
          'host 0 placed none of the rows taken from it, and did not retry them into a call',
        );
        c.assertPlacedAtMostOnce();
        assert.equal(c.placed.length, 150);
        assert.ok(
          c.placed.every((p) => p.at >= T0 + MIN && p.at < T0 + MIN + 10_000),
          'host 1 placed them once the last claim expired',
        );
        const rows = await c.load(ids);
        assert.equal(rows.filter((o) => o.status === 'confirmed').length, 150);
      } finally {
        await db.close();
      }
    });
  });
}
