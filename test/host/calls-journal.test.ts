/**
 * Read-your-writes through HTTP during a spike (docs/decisions/0016): the engine commits the
 * spike to its journal, and a GET issued right after each commit shows that commit or a later
 * one, never an older state; GET /calls and GET /me/usage count the calls the spike placed.
 * On PostgreSQL (the same file, run by scripts/test-files.sh) the tables are written directly.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OccurrenceStatus } from '../../engine/index.js';
import type { TestServer } from '../helpers/server.js';
import {
  advance,
  createCall,
  newAccount,
  occurrence,
  startCallsServer,
  type CallsAccount,
} from './calls-fixture.js';

/** The order an occurrence's status moves in (one attempt, confirmed). */
const ORDER: OccurrenceStatus[] = ['pending', 'dispatching', 'calling', 'confirmed'];

describe('reads during a spike', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  it('each committed status is seen by the next GET /occurrences/{id}, mid-spike; lists and usage count the spike', async () => {
    const accounts: CallsAccount[] = [];
    const owner = new Map<string, CallsAccount>();
    for (let i = 0; i < 6; i++) {
      const f = await newAccount(server);
      accounts.push(f);
      for (let k = 0; k < 2; k++) owner.set((await createCall(f, {}, 5)).occurrenceId, f);
    }
    const reads: Promise<void>[] = [];
    const off = server.running.deps.runtime.on('occurrence:status', ({ occurrence: o }) => {
      const f = owner.get(o.id);
      if (!f) return;
      const committed = ORDER.indexOf(o.status);
      reads.push(
        (async () => {
          const r = await f.api('GET', `/occurrences/${o.id}`);
          assert.equal(r.status, 200, JSON.stringify(r.body));
          const seen = ORDER.indexOf(r.body.status);
          assert.ok(
            seen >= committed,
            `${o.id}: committed ${o.status}, the next read showed ${r.body.status}`,
          );
        })(),
      );
    });
    try {
      await advance(server, 6 * 60);
      await Promise.all(reads);
    } finally {
      off();
    }
    assert.ok(
      reads.length >= 3 * owner.size,
      'a read after each of dispatching, calling and confirmed',
    );
    for (const [id, f] of owner) assert.equal((await occurrence(f, id)).status, 'confirmed');
    for (const f of accounts) {
      const calls = await f.api('GET', '/calls');
      assert.equal(calls.status, 200);
      assert.equal(calls.body.items.length, 2, 'GET /calls lists both calls of the spike');
      const usage = await f.api('GET', '/me/usage');
      assert.equal(usage.status, 200, JSON.stringify(usage.body));
      assert.equal(usage.body.calls_used, 2, JSON.stringify(usage.body));
    }
  });
});
