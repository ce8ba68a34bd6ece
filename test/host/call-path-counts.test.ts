/**
 * The call's whole path, guarded by counts (issue 37; docs/decisions/0025): a spike of calls
 * played through the host (placement, the simulated provider's events, key 1) with what a
 * unit writes besides its rows: credits that admission spends, the outcome's webhook events
 * for an endpoint, and a contact told of a missed call. Run at two sizes, on the test server's
 * database (SQLite, or PostgreSQL under WAKEUP_TEST_DB=postgres).
 *
 * Asserted, never timed:
 * - the SQLite store's overlay is never rebuilt from the journal after open;
 * - the SQL statements per call stay under a fixed bound;
 * - the statements and rows per call do not grow with the spike's size: a change that makes a
 *   unit's work grow with the journal (or with anything the spike accumulates) fails here;
 * - admission (the Accounts port the runtime asks for every dispatch batch) runs the same few
 *   statements for a batch of 12 calls and of 240, over accounts of every kind (trial,
 *   subscription, credits, revoked, blocked, capped), none per call: its reads once per batch,
 *   its credits spent in one write (docs/decisions/0028, item 5). Its verdicts are checked too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToAdmit, RefusalReason } from '../../engine/index.js';
import { createAccountsPort } from '../../host/calls/accounts-port.js';
import { revokeCalls } from '../../host/db/account-calls.js';
import { insertAccount } from '../../host/db/accounts.js';
import { creditsOf, grantCredits } from '../../host/db/credits.js';
import { createEngineStore, type SqliteEngineStore } from '../../host/db/engine-store.js';
import { openDatabase, openSqliteDatabase } from '../../host/db/open.js';
import { blockNumber } from '../../host/db/phone-numbers.js';
import type { Db } from '../../host/db/sql.js';
import { saveSubscription } from '../../host/db/subscriptions.js';
import { call } from '../helpers/phone.js';
import { countStatements, type Counts } from '../helpers/statement-counter.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { testDbIsPostgres, testPgDatabase } from '../helpers/server.js';
import {
  advance,
  createCall,
  freshNumber,
  newAccount,
  phone,
  startCallsServer,
} from './calls-fixture.js';

/** Statements a call may cost at most, all of its units and the fold included. */
const MOST_STATEMENTS_PER_CALL = 60;
/** How much a count per call may grow from the small spike to the large one (noise: the fold's chunks, the last batch). */
const GROWTH = 1.2;

/** One spike of `calls` calls on a fresh server; the statements and rows of the whole path, per call. */
async function spike(calls: number): Promise<{ perCall: Counts; restores: number | null }> {
  const receiver = await startReceiver();
  const server = await startCallsServer({
    WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1',
    WAKEUP_WEBHOOK_ALLOW_HTTP: '1',
    WAKEUP_DAILY_CAP: '100000',
  });
  try {
    const { db, runtime, clock } = server.running.deps;
    const f = await newAccount(server);
    assert.equal((await f.api('PATCH', '/me', { greeting_name: 'Sam' })).status, 200);
    // Every call takes a credit: admission writes the spend in the unit's commit.
    await db.run('UPDATE accounts SET trial_calls_included = 0 WHERE id = ?', [f.accountId]);
    await grantCredits(
      db,
      {
        accountId: f.accountId,
        calls: calls * 2,
        planCode: 'pack',
        planName: 'Pack',
        tierBMultiplier: 1,
        ref: 'test',
      },
      clock.now(),
    );
    const endpoint = await f.api('POST', '/webhook-endpoints', { url: `${receiver.url}/hook` });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    // One call of the spike tells a contact: its phone never answers, so it ends missed.
    const contact = await f.api('POST', '/contacts', { name: 'Alex', e164: freshNumber() });
    assert.equal(contact.status, 201, JSON.stringify(contact.body));
    const agreed = await call(server, 'POST', '/dev/sms/inbound', {
      body: { from: contact.body.e164, body: 'yes' },
    });
    assert.equal(agreed.status, 204);
    await phone(server, f.number, ['no_answer']);
    const told = await createCall(f, { tell_contacts: { contact_ids: [contact.body.id] } }, 2);
    const due = clock.now() + 2 * 60_000;
    for (let i = 1; i < calls; i++)
      await runtime.schedule({ accountId: f.accountId, to: freshNumber(), scheduledAt: due });

    const counter = countStatements();
    try {
      await advance(server, 600);
      // The whole path: the journal folded too (its cost is the spike's, paid later).
      const store = createEngineStore(db);
      await store.settle?.();
      const seen = counter.read();
      const finished = await db.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM occurrences WHERE status IN ('confirmed', 'missed') AND account_id = ?",
        [f.accountId],
      );
      assert.equal(finished!.n, calls, 'every call of the spike finished');
      const missed = await f.api('GET', `/occurrences/${told.occurrenceId}`);
      assert.equal(missed.body.status, 'missed');
      const restores = db.dialect === 'sqlite' ? (store as SqliteEngineStore).restores : null;
      return {
        perCall: { statements: seen.statements / calls, rows: seen.rows / calls },
        restores,
      };
    } finally {
      counter.stop();
    }
  } finally {
    await server.close();
    await receiver.close();
  }
}

describe('the call’s whole path, by counts', () => {
  it('costs a bounded number of statements per call, which does not grow with the spike', async () => {
    const small = await spike(100);
    const large = await spike(300);
    const where = testDbIsPostgres() ? 'PostgreSQL' : 'SQLite';
    const show = (c: Counts) =>
      `${c.statements.toFixed(1)} statements and ${c.rows.toFixed(1)} rows per call`;
    console.log(
      `call path on ${where}: 100 calls ${show(small.perCall)}; 300 calls ${show(large.perCall)}`,
    );
    if (small.restores !== null) {
      assert.equal(small.restores, 0, 'the overlay was never rebuilt from the journal');
      assert.equal(large.restores, 0, 'the overlay was never rebuilt from the journal');
    }
    assert.ok(
      large.perCall.statements <= MOST_STATEMENTS_PER_CALL,
      `at most ${MOST_STATEMENTS_PER_CALL} statements a call: ${show(large.perCall)}`,
    );
    assert.ok(
      large.perCall.statements <= small.perCall.statements * GROWTH + 1,
      `statements per call grew: ${show(small.perCall)} → ${show(large.perCall)}`,
    );
    assert.ok(
      large.perCall.rows <= small.perCall.rows * GROWTH + 2,
      `rows per call grew: ${show(small.perCall)} → ${show(large.perCall)}`,
    );
  });
});

/** Statements admission may run for one dispatch batch, whatever its size (its reads, and its writes at the commit). */
const MOST_ADMISSION_STATEMENTS_PER_BATCH = 10;

/** The numbers admissionBatch calls: distinct within the process. */
let admissionLine = 0;

/** The test database, fresh: the test server's kind (SQLite in memory, or a PostgreSQL schema). */
async function freshDb(): Promise<{ db: Db; close(): Promise<void> }> {
  const pg = await testPgDatabase();
  if (!pg) {
    const db = openSqliteDatabase(':memory:');
    return { db, close: () => db.close() };
  }
  const db = await openDatabase(pg.url);
  return {
    db,
    close: async () => {
      await db.close();
      await pg.drop();
    },
  };
}

type Verdict = 'ok' | RefusalReason;

/**
 * One dispatch batch of `ordinary` calls on accounts of the ordinary kinds (a trial, a
 * subscription, credits only), plus one call of each refused kind and an account with more
 * calls than the daily cap, through the Accounts port as the runtime drives it: `prepare`,
 * `admit` for each call, the unit's writes in one transaction. Counts the statements of each
 * step; answers the verdicts by call.
 */
async function admissionBatch(
  db: Db,
  tag: string,
  ordinary: number,
): Promise<{ prepare: number; admit: number; writes: number; verdicts: Map<string, Verdict> }> {
  const now = Date.now();
  const DAY = 86_400_000;
  const number = () => `+1202555${String(admissionLine++).padStart(4, '0')}`;
  const account = async (id: string, trialCalls: number) =>
    insertAccount(db, {
      id,
      email: `${id}@example.com`,
      displayName: id,
      now,
      trialEndsAt: now + 7 * DAY,
      trialCallsIncluded: trialCalls,
    });
  const calls: { key: string; call: CallToAdmit }[] = [];
  const add = (key: string, accountId: string | null, to = number()) =>
    calls.push({
      key,
      call: {
        accountId,
        phoneNumberId: null,
        to,
        kind: 'first',
        occurrenceId: `${tag}-occ-${calls.length}`,
        at: now,
      },
    });
  for (let i = 0; i < ordinary; i++) {
    const id = `${tag}-a${i}`;
    const kind = ['trial', 'subscription', 'credits'][i % 3]!;
    await account(id, kind === 'trial' ? 5 : 0);
    if (kind === 'subscription')
      await saveSubscription(
        db,
        {
          accountId: id,
          planCode: 'monthly',
          planName: 'Monthly',
          interval: 'month',
          includedCalls: 30,
          tierBMultiplier: 2,
          source: 'manual',
          status: 'active',
          periodAnchor: now - DAY,
          endsAt: null,
          providerSubscriptionId: null,
        },
        now,
      );
    if (kind === 'credits')
      await grantCredits(
        db,
        {
          accountId: id,
          calls: 5,
          planCode: 'pack',
          planName: 'Pack',
          tierBMultiplier: 1,
          ref: id,
        },
        now,
      );
    add(`${kind} ${i}`, id);
  }
  // Refused: nothing pays (no trial calls, no credits), calls off, the line blocked, gone.
  await account(`${tag}-none`, 0);
  add('no entitlement', `${tag}-none`);
  await account(`${tag}-off`, 5);
  await revokeCalls(db, `${tag}-off`, now);
  add('revoked', `${tag}-off`);
  await account(`${tag}-blocked`, 5);
  const blocked = number();
  await blockNumber(db, blocked, 'stop', 'sms', now);
  add('blocked', `${tag}-blocked`, blocked);
  add('gone', `${tag}-gone`);
  // Four calls of one account paid with credits, the cap at three a day: the fourth is refused.
  await account(`${tag}-cap`, 0);
  await grantCredits(
    db,
    {
      accountId: `${tag}-cap`,
      calls: 10,
      planCode: 'pack',
      planName: 'Pack',
      tierBMultiplier: 1,
      ref: `${tag}-cap`,
    },
    now,
  );
  for (let i = 0; i < 4; i++) add(`cap ${i}`, `${tag}-cap`);

  const port = createAccountsPort({ db, dailyCap: 3 });
  const counter = countStatements();
  try {
    const release = await port.accounts.prepare!(calls.map((c) => c.call));
    const prepared = counter.read().statements;
    const verdicts = new Map<string, Verdict>();
    for (const { key, call: c } of calls) {
      const r = port.accounts.admit(c);
      verdicts.set(key, r.ok ? 'ok' : r.reason);
    }
    const admitted = counter.read().statements;
    const writes = port.unitWrites();
    await db.tx(async (tx) => {
      for (const w of writes) await w(tx);
    });
    const written = counter.read().statements - admitted;
    if (typeof release === 'function') release();
    return {
      prepare: prepared,
      admit: admitted - prepared,
      writes: written,
      verdicts,
    };
  } finally {
    counter.stop();
  }
}

describe('admission, by counts', () => {
  it('runs a bounded number of statements per dispatch batch, none per call', async () => {
    const fresh = await freshDb();
    const db = fresh.db;
    try {
      const small = await admissionBatch(db, 's', 9);
      const large = await admissionBatch(db, 'l', 237);
      const show = (b: typeof small) =>
        `prepare ${b.prepare}, admit ${b.admit}, writes ${b.writes} (transaction included)`;
      console.log(`admission on ${db.dialect}: 12 calls ${show(small)}; 240 calls ${show(large)}`);
      for (const b of [small, large]) {
        assert.equal(b.admit, 0, 'admit answers from what prepare read');
        assert.ok(
          b.prepare + b.writes <= MOST_ADMISSION_STATEMENTS_PER_BATCH,
          `at most ${MOST_ADMISSION_STATEMENTS_PER_BATCH} statements a batch: ${show(b)}`,
        );
      }
      assert.equal(large.prepare, small.prepare, 'prepare reads once per batch, not per call');
      assert.equal(large.writes, small.writes, 'the credits are spent in one write per batch');

      // Every rule still holds, with the batch read at once.
      for (const b of [small, large]) {
        for (const [key, verdict] of b.verdicts) {
          const expected =
            key === 'no entitlement'
              ? 'no_entitlement'
              : key === 'revoked' || key === 'gone'
                ? 'calls_revoked'
                : key === 'blocked'
                  ? 'number_blocked'
                  : key === 'cap 3'
                    ? 'daily_cap_reached'
                    : 'ok';
          assert.equal(verdict, expected, key);
        }
      }
      // The credits taken: one per credit call, three of the capped account's.
      const credits = await creditsOf(db, ['l-a2', 'l-cap', 'l-a0', 'l-a1']);
      assert.equal(credits.get('l-a2')!.remaining, 4);
      assert.equal(credits.get('l-cap')!.remaining, 7);
      assert.equal(credits.get('l-a0')!.remaining, 0);
      assert.equal(credits.get('l-a1')!.remaining, 0);
    } finally {
      await fresh.close();
    }
  });
});
