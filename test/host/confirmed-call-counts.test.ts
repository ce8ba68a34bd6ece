/**
 * What a confirmed call writes besides its rows, counted (never timed) over a run of confirmed
 * calls on the test server's database:
 * - the number's `last_confirmed_at`, once a call: in the unit that turns the attempt
 *   `confirmed`, not again when the confirmed attempt is written as its call ends;
 * - the webhook delivery workers' wake-ups, once a call: a commit with host writes wakes them
 *   (each wake-up reads `webhook_deliveries`), and the confirming unit is a call's only one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onWebhookEventRecorded } from '../../host/db/webhook-outbox.js';
import type { TestServer } from '../helpers/server.js';
import { countStatements } from '../helpers/statement-counter.js';
import {
  advance,
  createCall,
  newAccount,
  occurrence,
  phone,
  startCallsServer,
} from './calls-fixture.js';

describe('a confirmed call’s writes besides its rows, by counts', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  it('one last_confirmed_at write and one webhook wake-up a call, not one a unit', async () => {
    const calls = 12;
    const f = await newAccount(server);
    await server.running.deps.db.run('UPDATE accounts SET trial_calls_included = ? WHERE id = ?', [
      calls,
      f.accountId,
    ]);
    await phone(
      server,
      f.number,
      Array.from({ length: calls }, () => 'confirm'),
    );
    const made: string[] = [];
    for (let i = 0; i < calls; i++) made.push((await createCall(f, {}, 2 + i)).occurrenceId);
    let wakeUps = 0;
    const stop = onWebhookEventRecorded(() => wakeUps++);
    const confirmedWrites = countStatements((sql) => sql.includes('SET last_confirmed_at'));
    try {
      await advance(server, 16 * 60);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stop();
      confirmedWrites.stop();
    }
    for (const id of made) {
      const o = await occurrence(f, id);
      assert.equal(o.status, 'confirmed', JSON.stringify([o.outcome_reason, o.scheduled_at]));
    }
    // The trial account's admission writes nothing; the confirming unit writes the outcome's
    // `occurrence.confirmed` and the number's field, and the call's end writes neither.
    // The wake-up hook is the process's: a test file run beside this one in the same process
    // may add its own. One wake-up a unit (the fault this guards) makes two a call.
    assert.ok(
      wakeUps >= calls && wakeUps < 2 * calls,
      `${wakeUps} webhook wake-ups for ${calls} confirmed calls`,
    );
    assert.equal(confirmedWrites.read().statements, calls);
    const n = await f.api('GET', '/phone-numbers');
    const last = await occurrence(f, made[calls - 1]!);
    assert.equal(n.body.items[0].last_confirmed_at, last.attempts[0].answered_at);
  });
});
