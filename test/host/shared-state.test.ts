/**
 * The database implementations of the state several hosts share (host/shared-state.ts,
 * docs/decisions/0013-shared-state.md), directly on the Db: the rate-window store, the
 * idempotency claims and, on PostgreSQL, the advisory-lock queues. "Two hosts" are two Db
 * pools on one database. The window store and the claims also run on SQLite (one Db), where
 * the app uses the memory implementations but the SQL must stay portable. The PostgreSQL
 * runs use WAKEUP_TEST_PG_URL (scripts/with-pg.sh), one fresh schema each.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createPgKeyedQueues } from '../../host/rate-limit/one-at-a-time.js';
import {
  createSharedIdempotencyStore,
  IDEMPOTENCY_CLAIM_MS,
  type IdempotencyRecord,
} from '../../host/db/idempotency.js';
import { openSqliteDatabase } from '../../host/db/open.js';
import { openPostgresDb, type Db, type PostgresDb } from '../../host/db/sql.js';
import { runIdempotent } from '../../host/http/idempotency.js';
import { createDbWindowStore, type WindowRef } from '../../host/rate-limit/windows.js';

const PG_URL = process.env['WAKEUP_TEST_PG_URL'];
const NO_PG = 'WAKEUP_TEST_PG_URL is not set: no PostgreSQL server (run under scripts/with-pg.sh)';
const T0 = Date.parse('2027-03-01T07:00:00Z');

// The base table of host/db/migrations/0001 (PostgreSQL types), then the PostgreSQL 0016.
const PG_BASE = `CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER NOT NULL,
  headers TEXT NOT NULL, body TEXT, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
  PRIMARY KEY (scope, key));
CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);`;
const PG_0016 = readFileSync(
  new URL('../../host/db/migrations-pg/0016_shared_state.sql', import.meta.url),
  'utf8',
);

/** Two hosts' Db on one fresh database. */
interface Hosts {
  a: Db;
  b: Db;
  done(): Promise<void>;
}

function sqliteHosts(): Hosts {
  const db = openSqliteDatabase(':memory:');
  return { a: db, b: db, done: () => db.close() };
}

async function pgHosts(url: string): Promise<Hosts & { a: PostgresDb; b: PostgresDb }> {
  const schema = `shared_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const open = () =>
    openPostgresDb({ connectionString: url, options: `-c search_path=${schema}`, max: 4 });
  const a = open();
  const b = open();
  await a.exec(PG_BASE);
  await a.exec(PG_0016);
  return {
    a,
    b,
    async done() {
      await a.close();
      await b.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(
    `shared state on ${dialect}`,
    { skip: dialect === 'postgres' && !PG_URL ? NO_PG : false },
    () => {
      let hosts: Hosts;
      before(async () => {
        hosts = dialect === 'sqlite' ? sqliteHosts() : await pgHosts(PG_URL!);
      });
      after(() => hosts.done());

      describe('rate windows (createDbWindowStore)', () => {
        it('a fixed window opened by the first hit: `limit` hits pass, then none until it ends', async () => {
          const store = createDbWindowStore(hosts.a);
          const ref: WindowRef = { limiter: 'fixed', key: 'k', limit: 2, windowMs: 60_000 };
          assert.deepEqual(await store.hit([ref], T0), {
            allowed: true,
            windows: [{ count: 1, start: T0 }],
          });
          assert.deepEqual(await store.hit([ref], T0 + 10_500), {
            allowed: true,
            windows: [{ count: 2, start: T0 }],
          });
          const refused = await store.hit([ref], T0 + 59_999);
          assert.equal(refused.allowed, false);
          assert.equal(refused.windows[0]!.start, T0);
          assert.equal(
            (await store.hit([{ ...ref, key: 'other' }], T0 + 59_999)).allowed,
            true,
            'keys are independent',
          );
          assert.equal(
            (await store.hit([{ ...ref, limiter: 'fixed2' }], T0 + 59_999)).allowed,
            true,
            'limiters are independent',
          );
          assert.deepEqual(
            await store.hit([ref], T0 + 60_000),
            { allowed: true, windows: [{ count: 1, start: T0 + 60_000 }] },
            'a new window',
          );
        });

        it('two hosts counting one key at once never lose a hit', async () => {
          const a = createDbWindowStore(hosts.a);
          const b = createDbWindowStore(hosts.b);
          const ref: WindowRef = { limiter: 'race', key: 'k', limit: 20, windowMs: 60_000 };
          const hits = await Promise.all(
            Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).hit([ref], T0 + i)),
          );
          assert.equal(hits.filter((h) => h.allowed).length, 20);
          assert.ok(
            hits.every((h) => h.windows[0]!.start === T0 || h.windows[0]!.start <= T0 + 49),
          );
        });

        it('several windows count all or nothing', async () => {
          const store = createDbWindowStore(hosts.a);
          const tight: WindowRef = {
            limiter: 'multi.tight',
            key: 'n',
            limit: 1,
            windowMs: 3_600_000,
          };
          const loose: WindowRef = {
            limiter: 'multi.loose',
            key: 'n',
            limit: 5,
            windowMs: 3_600_000,
          };
          assert.equal((await store.hit([loose, tight], T0)).allowed, true);
          const refused = await store.hit([loose, tight], T0 + 1000);
          assert.equal(refused.allowed, false);
          assert.deepEqual(
            refused.windows.map((w) => w.count),
            [1, 1],
            'the refused hit is not counted',
          );
          assert.deepEqual(
            (await store.hit([loose], T0 + 2000)).windows,
            [{ count: 2, start: T0 }],
            'the loose window kept its count',
          );
        });

        it('several windows under a race on two hosts: never past a limit, refused hits counted nowhere', async () => {
          const a = createDbWindowStore(hosts.a);
          const b = createDbWindowStore(hosts.b);
          const loose: WindowRef = {
            limiter: 'race.loose',
            key: 'n',
            limit: 100,
            windowMs: 3_600_000,
          };
          const tight: WindowRef = {
            limiter: 'race.tight',
            key: 'n',
            limit: 10,
            windowMs: 3_600_000,
          };
          const hits = await Promise.all(
            Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).hit([loose, tight], T0)),
          );
          const allowed = hits.filter((h) => h.allowed).length;
          assert.ok(allowed >= 1 && allowed <= 10, `allowed ${allowed}`);
          assert.deepEqual((await a.hit([loose], T0 + 1)).windows, [
            { count: allowed + 1, start: T0 },
          ]);
        });
      });

      describe('idempotency claims (createSharedIdempotencyStore)', () => {
        const record = (print: string, at: number): IdempotencyRecord => ({
          fingerprint: print,
          status: 201,
          headers: { Location: '/x' },
          body: '{"ok":true}',
          createdAt: at,
        });

        it('two concurrent claims of one key: exactly one runs; the other sees it, then its response', async () => {
          const a = createSharedIdempotencyStore(hosts.a);
          const b = createSharedIdempotencyStore(hosts.b);
          const claims = await Promise.all([
            a.claim('acct:1', 'k1', 'p', T0),
            b.claim('acct:1', 'k1', 'p', T0),
          ]);
          const won = claims.findIndex((c) => c.kind === 'claimed');
          assert.ok(won >= 0);
          const lost = claims[1 - won]!;
          assert.deepEqual(lost, { kind: 'running', fingerprint: 'p', settled: null });
          const token = (claims[won] as { token: string }).token;
          await [a, b][won]!.keep('acct:1', 'k1', token, record('p', T0), T0 + 86_400_000, T0);
          const after = await [a, b][1 - won]!.claim('acct:1', 'k1', 'p', T0 + 1);
          assert.deepEqual(after, { kind: 'kept', record: record('p', T0) });
        });

        it('a released claim frees the key; a lapsed claim is taken over and fences the old run', async () => {
          const a = createSharedIdempotencyStore(hosts.a);
          const b = createSharedIdempotencyStore(hosts.b);
          const first = await a.claim('acct:2', 'k', 'p', T0);
          assert.equal(first.kind, 'claimed');
          await a.release('acct:2', 'k', (first as { token: string }).token);
          const second = await b.claim('acct:2', 'k', 'p', T0 + 1);
          assert.equal(second.kind, 'claimed', 'released: claimed again');
          // Host b dies; after the claim's lifetime host a takes the key over.
          const third = await a.claim('acct:2', 'k', 'p', T0 + 1 + IDEMPOTENCY_CLAIM_MS);
          assert.equal(third.kind, 'claimed', 'lapsed: taken over');
          // The old run wakes and tries to keep its answer: fenced off.
          await b.keep(
            'acct:2',
            'k',
            (second as { token: string }).token,
            record('old', T0),
            T0 + 86_400_000,
            T0,
          );
          assert.deepEqual(await b.claim('acct:2', 'k', 'p', T0 + 2 + IDEMPOTENCY_CLAIM_MS), {
            kind: 'running',
            fingerprint: 'p',
            settled: null,
          });
        });

        it('runIdempotent on two hosts at once: the handler runs once, both answer alike', async () => {
          let runs = 0;
          const handler = async () => {
            runs++;
            await sleep(150);
            return { status: 201, body: { id: runs } };
          };
          const clock = { now: () => T0, setTimer: () => () => undefined } as unknown as Parameters<
            typeof runIdempotent
          >[0]['clock'];
          const [r1, r2] = await Promise.all([
            runIdempotent(
              { idempotency: createSharedIdempotencyStore(hosts.a), clock },
              'acct:3',
              'k',
              'p',
              handler,
            ),
            runIdempotent(
              { idempotency: createSharedIdempotencyStore(hosts.b), clock },
              'acct:3',
              'k',
              'p',
              handler,
            ),
          ]);
          assert.equal(runs, 1);
          assert.deepEqual(r1.body, { id: 1 });
          assert.deepEqual(r2.body, { id: 1 });
          assert.deepEqual(
            [r1.headers?.['Idempotent-Replayed'], r2.headers?.['Idempotent-Replayed']].sort(),
            ['true', undefined].sort(),
          );
        });
      });
    },
  );
}

describe('advisory-lock queues (createPgKeyedQueues)', { skip: PG_URL ? false : NO_PG }, () => {
  let hosts: Awaited<ReturnType<typeof pgHosts>>;
  before(async () => {
    hosts = await pgHosts(PG_URL!);
  });
  after(() => hosts.done());

  /** Runs `n` tasks on the queues, alternating hosts; the longest number running at once. */
  async function overlap(keys: string[]): Promise<{ most: number; order: string[] }> {
    const qa = createPgKeyedQueues(hosts.a);
    const qb = createPgKeyedQueues(hosts.b);
    let running = 0;
    let most = 0;
    const order: string[] = [];
    try {
      await Promise.all(
        keys.map((key, i) =>
          (i % 2 ? qb : qa).queue('test').run(key, async () => {
            running++;
            most = Math.max(most, running);
            order.push(`start ${i}`);
            await sleep(100);
            order.push(`end ${i}`);
            running--;
          }),
        ),
      );
    } finally {
      await qa.close();
      await qb.close();
    }
    return { most, order };
  }

  it('two runs of one key on two hosts never overlap', async () => {
    const { most } = await overlap(['same', 'same', 'same', 'same']);
    assert.equal(most, 1);
  });

  it('runs of different keys overlap', async () => {
    const { most } = await overlap(['k1', 'k2']);
    assert.equal(most, 2);
  });

  it('a run that throws releases the key', async () => {
    const q = createPgKeyedQueues(hosts.a);
    const other = createPgKeyedQueues(hosts.b);
    try {
      await assert.rejects(
        q.queue('test').run('boom', () => Promise.reject(new Error('boom'))),
        /boom/,
      );
      const got = await Promise.race([
        other.queue('test').run('boom', () => Promise.resolve('ran')),
        sleep(2000).then(() => 'stuck'),
      ]);
      assert.equal(got, 'ran');
    } finally {
      await q.close();
      await other.close();
    }
  });

  it('queues of different names do not block each other', async () => {
    const q = createPgKeyedQueues(hosts.a);
    try {
      let inner = 'no';
      await q.queue('one').run('k', async () => {
        inner = await Promise.race([
          q.queue('two').run('k', () => Promise.resolve('ran')),
          sleep(2000).then(() => 'stuck'),
        ]);
      });
      assert.equal(inner, 'ran');
    } finally {
      await q.close();
    }
  });
});
