/**
 * host/db/sql.ts, the async query layer, on both dialects: placeholders, named parameters,
 * transactions (commit, rollback, nested savepoint) and, on SQLite, the in-process lock that
 * keeps other statements off the connection while a transaction awaits. The PostgreSQL runs
 * use WAKEUP_TEST_PG_URL (scripts/with-pg.sh), one fresh schema each.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import pg from 'pg';
import { openPostgresDb, openSqliteDb, toPostgres } from '../../host/db/sql.js';
import type { Db } from '../../host/db/sql.js';

const PG_URL = process.env['WAKEUP_TEST_PG_URL'];
const NO_PG = 'WAKEUP_TEST_PG_URL is not set: no PostgreSQL server (run under scripts/with-pg.sh)';

describe('toPostgres', () => {
  it('numbers ? in order, skipping literals, quoted names and comments', () => {
    const t = toPostgres(
      `SELECT '?', "a?b", x -- what?\n FROM t WHERE a = ? AND b = ? /* ? */ AND c = 'it''s ?'`,
    );
    assert.equal(
      t.text,
      `SELECT '?', "a?b", x -- what?\n FROM t WHERE a = $1 AND b = $2 /* ? */ AND c = 'it''s ?'`,
    );
    assert.equal(t.count, 2);
    assert.equal(t.names, null);
  });
  it('gives a name used twice one number', () => {
    const t = toPostgres("UPDATE t SET a = @a, b = @b WHERE a <> @a AND email = 'x@y'");
    assert.equal(t.text, "UPDATE t SET a = $1, b = $2 WHERE a <> $1 AND email = 'x@y'");
    assert.deepEqual(t.names, ['a', 'b']);
  });
  it('refuses a text mixing both styles', () => {
    assert.throws(() => toPostgres('SELECT ? , @a'), /mixes/);
  });
});

interface Harness {
  open(): Promise<Db>;
  done(): Promise<void>;
}

function sqliteHarness(): Harness {
  const dbs: Db[] = [];
  return {
    open() {
      const db = openSqliteDb(':memory:');
      dbs.push(db);
      return Promise.resolve(db);
    },
    async done() {
      for (const db of dbs) await db.close();
    },
  };
}

function pgHarness(url: string): Harness {
  const schema = `sql_test_${randomUUID().replaceAll('-', '')}`;
  const dbs: Db[] = [];
  return {
    async open() {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await admin.end();
      const db = openPostgresDb({
        connectionString: url,
        options: `-c search_path=${schema}`,
        max: 4,
      });
      dbs.push(db);
      return db;
    },
    async done() {
      for (const db of dbs) await db.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

const TABLE = 'CREATE TABLE items (id TEXT PRIMARY KEY, n BIGINT NOT NULL, note TEXT)';

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`Db on ${dialect}`, { skip: dialect === 'postgres' && !PG_URL ? NO_PG : false }, () => {
    const harness = () => (dialect === 'sqlite' ? sqliteHarness() : pgHarness(PG_URL!));

    it('runs positional and named statements; rows look alike', async () => {
      const h = harness();
      try {
        const db = await h.open();
        assert.equal(db.dialect, dialect);
        await db.exec(TABLE);
        assert.deepEqual(
          await db.run('INSERT INTO items (id, n, note) VALUES (?, ?, ?)', [
            'a',
            1_700_000_000_000,
            "it's",
          ]),
          {
            changes: 1,
          },
        );
        await db.run('INSERT INTO items (id, n, note) VALUES (@id, @n, @note)', {
          id: 'b',
          n: 2,
          note: null,
        });
        await db.run('INSERT INTO items (id, n) VALUES (?, ?) ON CONFLICT DO NOTHING', ['b', 3]);
        const a = await db.get<{ id: string; n: number; note: string | null }>(
          'SELECT id, n, note FROM items WHERE id = ?',
          ['a'],
        );
        assert.deepEqual({ ...a }, { id: 'a', n: 1_700_000_000_000, note: "it's" });
        const rows = await db.all<{ id: string; total: number; flag: number }>(
          'SELECT id, COUNT(*) AS total, (n > @min) AS flag FROM items WHERE n >= @min OR id = @id GROUP BY id, n ORDER BY id',
          { min: 2, id: 'a' },
        );
        assert.deepEqual(
          rows.map((r) => ({ ...r })),
          [
            { id: 'a', total: 1, flag: 1 },
            { id: 'b', total: 1, flag: 0 },
          ],
        );
        assert.equal(await db.get('SELECT id FROM items WHERE id = ?', ['zz']), undefined);
        assert.deepEqual(await db.run('UPDATE items SET n = n + 1'), { changes: 2 });
        const sum = await db.get<{ s: number }>('SELECT SUM(n) AS s FROM items');
        assert.equal(sum?.s, 1_700_000_000_004);
      } finally {
        await h.done();
      }
    });

    it('commits a transaction, rolls back a failed one, and a nested tx is a savepoint', async () => {
      const h = harness();
      try {
        const db = await h.open();
        await db.exec(TABLE);
        const out = await db.tx(async (tx) => {
          await tx.run('INSERT INTO items (id, n) VALUES (?, ?)', ['a', 1]);
          return 'done';
        });
        assert.equal(out, 'done');
        await assert.rejects(
          db.tx(async (tx) => {
            await tx.run('INSERT INTO items (id, n) VALUES (?, ?)', ['b', 2]);
            throw new Error('boom');
          }),
          /boom/,
        );
        await db.tx(async (tx) => {
          await tx.run('INSERT INTO items (id, n) VALUES (?, ?)', ['c', 3]);
          await assert.rejects(
            tx.tx(async (inner) => {
              await inner.run('INSERT INTO items (id, n) VALUES (?, ?)', ['d', 4]);
              throw new Error('inner');
            }),
            /inner/,
          );
          await tx.tx(async (inner) => {
            await inner.run('INSERT INTO items (id, n) VALUES (?, ?)', ['e', 5]);
          });
        });
        const ids = (await db.all<{ id: string }>('SELECT id FROM items ORDER BY id')).map(
          (r) => r.id,
        );
        assert.deepEqual(ids, ['a', 'c', 'e']);
      } finally {
        await h.done();
      }
    });

    it('keeps statements on the Db itself out of a transaction: only its handle’s are part of it', async () => {
      const h = harness();
      try {
        const db = await h.open();
        await db.exec(TABLE);
        let outside: Promise<unknown> | undefined;
        await assert.rejects(
          db.tx(async (tx) => {
            await tx.run('INSERT INTO items (id, n) VALUES (?, ?)', ['a', 1]);
            // Not the handle: another connection's statement (PostgreSQL), or one that waits for
            // the transaction to end (SQLite). Awaiting it here would wait for ourselves.
            outside = db.run('INSERT INTO items (id, n) VALUES (?, ?)', ['b', 2]);
            throw new Error('undo');
          }),
          /undo/,
        );
        await outside;
        assert.deepEqual(await db.all('SELECT id FROM items'), [{ id: 'b' }]);
      } finally {
        await h.done();
      }
    });

    it('keeps concurrent transactions apart (a read-modify-write loses no update)', async () => {
      const h = harness();
      try {
        const db = await h.open();
        await db.exec(TABLE);
        await db.run('INSERT INTO items (id, n) VALUES (?, ?)', ['a', 0]);
        await Promise.all(
          Array.from({ length: 8 }, () =>
            db.tx(async (tx) => {
              const row = await tx.get<{ n: number }>('SELECT n FROM items WHERE id = ?', ['a']);
              await new Promise((resolve) => setTimeout(resolve, 2));
              await tx.run('UPDATE items SET n = ? WHERE id = ?', [row!.n + 1, 'a']);
            }),
          ),
        );
        assert.equal(
          (await db.get<{ n: number }>('SELECT n FROM items WHERE id = ?', ['a']))?.n,
          8,
        );
      } finally {
        await h.done();
      }
    });
  });
}

describe('the SQLite lock', () => {
  it('runs a statement issued while a transaction awaits after that transaction', async () => {
    const db = openSqliteDb(':memory:');
    try {
      await db.exec(TABLE);
      const order: string[] = [];
      let inside!: () => void;
      const entered = new Promise<void>((resolve) => (inside = resolve));
      let finish!: () => void;
      const gate = new Promise<void>((resolve) => (finish = resolve));
      const txDone = db.tx(async (tx) => {
        await tx.run('INSERT INTO items (id, n) VALUES (?, ?)', ['a', 1]);
        inside();
        await gate;
        await tx.run('UPDATE items SET n = 2 WHERE id = ?', ['a']);
        order.push('tx');
      });
      await entered;
      const outside = db
        .get<{ n: number }>('SELECT n FROM items WHERE id = ?', ['a'])
        .then((row) => {
          order.push('read');
          return row;
        });
      const excl = db.exclusive(() => order.push('exclusive'));
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(order, [], 'nothing ran while the transaction awaited');
      finish();
      await txDone;
      assert.equal((await outside)?.n, 2, 'the read saw the committed transaction');
      await excl;
      assert.equal(order[0], 'tx');
      assert.deepEqual([...order].sort(), ['exclusive', 'read', 'tx']);
    } finally {
      await db.close();
    }
  });

  it('runs statements at once when no transaction runs', async () => {
    const db = openSqliteDb(':memory:');
    try {
      await db.exec(TABLE);
      const p = db.run('INSERT INTO items (id, n) VALUES (?, ?)', ['a', 1]);
      // Executed synchronously inside the call: visible to the raw connection before any await.
      assert.equal((db.raw.prepare('SELECT COUNT(*) AS c FROM items').get() as { c: number }).c, 1);
      await p;
    } finally {
      await db.close();
    }
  });
});
