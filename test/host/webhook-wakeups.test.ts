/**
 * The webhook delivery workers are woken by the commits that may record events (admission's
 * writes, an outcome's events), not by every unit with a host write: a unit that only moves a
 * number's `last_confirmed_at` (a confirmed attempt written again when its call ends) wakes
 * nothing. Counted, never timed: the wake-ups a run of confirmed calls causes, per call, on the
 * test server's database (each wakes every worker, which then reads `webhook_deliveries`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onWebhookEventRecorded } from '../../host/db/webhook-outbox.js';
import type { TestServer } from '../helpers/server.js';
import {
  advance,
  createCall,
  newAccount,
  occurrence,
  phone,
  startCallsServer,
} from './calls-fixture.js';

describe('webhook delivery wake-ups', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  it('confirmed calls wake the delivery workers once a call (its outcome), not once a unit', async () => {
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
    try {
      await advance(server, 16 * 60);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stop();
    }
    for (const id of made) {
      const o = await occurrence(f, id);
      assert.equal(o.status, 'confirmed', JSON.stringify([o.outcome_reason, o.scheduled_at]));
    }
    // The trial account's admission writes nothing; each call's outcome records
    // `occurrence.confirmed` in its commit, the one commit that wakes the workers.
    assert.equal(wakeUps, calls);
  });
});
