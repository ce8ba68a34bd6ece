/**
 * GET /api/v1/me reads each fact once (docs/decisions/0019): at most 5 SQL statements on
 * SQLite, 7 on PostgreSQL (where the two rate-limit windows are rows too), counted on the
 * server's database handle for one request after a warm-up (the session's touch, once a
 * minute, is not part of a steady request).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../host/db/sql.js';
import {
  bearer,
  signIn,
  startTestServer,
  testDbIsPostgres,
  type TestServer,
} from '../helpers/server.js';

/** Counts the statements run on `db` (its own methods, and those of its transactions) while `fn` runs. */
async function countStatements(db: Db, fn: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const patched: Array<() => void> = [];
  const patch = (
    target: object,
    name: string,
    make: (original: (...args: any[]) => any) => (...args: any[]) => any,
  ) => {
    const raw: unknown = Reflect.get(target, name);
    const own = Object.prototype.hasOwnProperty.call(target, name);
    const original = (raw as (...args: any[]) => any).bind(target);
    Reflect.set(target, name, make(original));
    patched.push(() =>
      own ? Reflect.set(target, name, raw) : Reflect.deleteProperty(target, name),
    );
  };
  const wrap = (target: Db) => {
    for (const name of ['get', 'all', 'run', 'exec']) {
      patch(target, name, (original) => (...args: unknown[]) => {
        seen.push(String(args[0]).replace(/\s+/g, ' ').slice(0, 80));
        return original(...args);
      });
    }
  };
  wrap(db);
  patch(
    db,
    'tx',
    (original) => (body: (tx: Db) => Promise<unknown>) =>
      original((inner: Db) => {
        if (inner !== db) wrap(inner);
        return body(inner);
      }),
  );
  try {
    await fn();
  } finally {
    for (const undo of patched.reverse()) undo();
  }
  return seen;
}

describe('GET /me statements', () => {
  const most = testDbIsPostgres() ? 7 : 5;
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await signIn(server)).token;
  });
  after(() => server.close());

  it(`runs at most ${most} statements`, async () => {
    const get = async () => {
      const r = await fetch(`${server.api}/me`, { headers: bearer(token) });
      assert.equal(r.status, 200);
      await r.arrayBuffer();
    };
    await get();
    const statements = await countStatements(server.running.deps.db, get);
    assert.ok(
      statements.length <= most,
      `${statements.length} statements:\n${statements.join('\n')}`,
    );
  });
});
