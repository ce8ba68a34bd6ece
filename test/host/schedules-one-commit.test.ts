/**
 * One save is one commit (issue 29, decision 0021): POST /schedules, PATCH, pause, resume,
 * skip-next and DELETE each write the schedule in ONE commit of the engine's store (a schedule
 * is its series), and the host writes nothing of it: counted by wrapping the server's engine
 * store (its `commit` and its maintenance writes) and the host's database handle (every
 * statement and transaction it runs, a credential's last use aside) for the duration of each
 * request. On SQLite and, with
 * WAKEUP_TEST_DB=postgres, on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEngineStore } from '../../host/db/engine-store.js';
import type { Db } from '../../host/db/sql.js';
import { setup, type Fixture } from './schedules-fixture.js';

/** What one request wrote. */
interface Writes {
  /** Commits of the engine's store (units of work). */
  commits: number;
  /** Writes of the engine's store outside a unit of work (a never-rung schedule removed). */
  maintenance: string[];
  /** The host's transactions, and its statements that write (not SELECT). */
  hostTx: number;
  hostWrites: string[];
}

describe('one save of a schedule is one commit', () => {
  let f: Fixture;
  let measure: <T>(fn: () => Promise<T>) => Promise<{ result: T; writes: Writes }>;

  before(async () => {
    f = await setup();
    const db = f.server.running.deps.db as Db & Record<string, unknown>;
    const store = createEngineStore(db) as unknown as Record<
      string,
      (...args: unknown[]) => Promise<unknown>
    >;
    let writes: Writes | null = null;
    const wrap = (
      target: Record<string, unknown>,
      name: string,
      count: (args: unknown[]) => void,
    ) => {
      const original = target[name] as (...args: unknown[]) => Promise<unknown>;
      target[name] = (...args: unknown[]) => {
        if (writes) count(args);
        return original(...args);
      };
    };
    wrap(store, 'commit', () => writes!.commits++);
    for (const name of ['deleteSeries', 'eraseAccount', 'purgeAccount'])
      wrap(store, name, () => writes!.maintenance.push(name));
    wrap(db, 'tx', () => writes!.hostTx++);
    for (const name of ['run', 'exec']) {
      wrap(db, name, (args) => {
        const text = String(args[0]);
        // A credential's last use is noted now and then, whatever the request: not the schedule's.
        if (
          !/^\s*SELECT\b/i.test(text) &&
          !/^\s*UPDATE (sessions|api_keys) SET last_used_at\b/i.test(text)
        )
          writes!.hostWrites.push(text);
      });
    }
    measure = async (fn) => {
      writes = { commits: 0, maintenance: [], hostTx: 0, hostWrites: [] };
      try {
        const result = await fn();
        return { result, writes };
      } finally {
        writes = null;
      }
    };
  });
  after(async () => {
    await f.server.close();
  });

  const ONE_COMMIT: Writes = { commits: 1, maintenance: [], hostTx: 0, hostWrites: [] };

  it('POST, PATCH, pause, resume and skip-next: one commit of the engine, no write of the host', async () => {
    const created = await measure(() =>
      f.api('POST', '/schedules', {
        kind: 'recurring',
        days_of_week: ['mon', 'wed', 'fri'],
        local_time: '07:00',
        label: 'Gym',
        retry_policy: { max_snoozes: 1, offsets_minutes: [4] },
        created_in_timezone: 'Europe/Paris',
      }),
    );
    assert.equal(created.result.status, 201, JSON.stringify(created.result.body));
    assert.deepEqual(created.writes, ONE_COMMIT);
    const id = created.result.body.id as string;
    for (const [method, path, body] of [
      ['PATCH', `/schedules/${id}`, { label: 'Gym at seven', local_time: '07:15' }],
      ['POST', `/schedules/${id}/pause`, { until: '2027-03-20' }],
      ['POST', `/schedules/${id}/resume`, undefined],
      ['POST', `/schedules/${id}/skip-next`, undefined],
    ] as const) {
      const r = await measure(() => f.api(method, path, body));
      assert.equal(r.result.status, 200, `${method} ${path}: ${JSON.stringify(r.result.body)}`);
      assert.deepEqual(r.writes, ONE_COMMIT, `${method} ${path}`);
    }
  });

  it('DELETE: a schedule that never rang is removed in one transaction of the store; one that rang is turned off in one commit', async () => {
    const never = await f.api('POST', '/schedules', {
      kind: 'once',
      local_date: '2027-03-12',
      local_time: '07:00',
    });
    const removed = await measure(() => f.api('DELETE', `/schedules/${never.body.id}`));
    assert.equal(removed.result.status, 204);
    assert.deepEqual(removed.writes, {
      commits: 0,
      maintenance: ['deleteSeries'],
      hostTx: 0,
      hostWrites: [],
    });
    assert.equal((await f.api('GET', `/schedules/${never.body.id}`)).status, 404);

    const rang = await f.api('POST', '/schedules', {
      kind: 'once',
      in_minutes: 1,
      retry_policy: { offsets_minutes: [] },
    });
    await f.advance(5 * 60);
    const kept = await measure(() => f.api('DELETE', `/schedules/${rang.body.id}`));
    assert.equal(kept.result.status, 204);
    // The removal is asked first and refused (the call rang), then the save turns it off.
    assert.deepEqual(kept.writes, {
      commits: 1,
      maintenance: ['deleteSeries'],
      hostTx: 0,
      hostWrites: [],
    });
    const shown = await f.api('GET', `/schedules/${rang.body.id}`);
    assert.deepEqual([shown.body.enabled, shown.body.status], [false, 'disabled']);
  });
});
