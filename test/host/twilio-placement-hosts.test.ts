/**
 * One call per attempt when several hosts place calls through the Twilio-compatible adapter
 * (host/adapters/twilio/telephony.ts with the ledger of host/db/provider-calls.ts). Two
 * "hosts" are two adapters, each with its own ledger (its own lock owner) and, on PostgreSQL,
 * its own pool, on one migrated database; the fake provider does not dedupe by key.
 * The PostgreSQL runs use WAKEUP_TEST_PG_URL (scripts/with-pg.sh), one fresh schema each.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PlacementDeferred } from '../../engine/index.js';
import { VirtualClock } from '../../engine/sim/index.js';
import { realTime } from '../../host/adapters/clock/system-clock.js';
import { createTwilioClient } from '../../host/adapters/twilio/client.js';
import { createTwilioTelephony } from '../../host/adapters/twilio/telephony.js';
import { migrate } from '../../host/db/migrate.js';
import { openSqliteDatabase } from '../../host/db/open.js';
import { createPlacementLedger } from '../../host/db/provider-calls.js';
import { openPostgresDb, type Db } from '../../host/db/sql.js';
import { startFakeTwilio, type FakeTwilio } from '../helpers/fake-twilio.js';

const PG_URL = process.env['WAKEUP_TEST_PG_URL'];
const NO_PG = 'WAKEUP_TEST_PG_URL is not set: no PostgreSQL server (run under scripts/with-pg.sh)';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(
    `placing calls from two hosts (${dialect})`,
    { skip: dialect === 'postgres' && !PG_URL ? NO_PG : false },
    () => {
      const clock = new VirtualClock(Date.parse('2027-03-14T06:00:00Z'));
      let fake: FakeTwilio;
      let dbs: Db[];
      let schema = '';
      before(async () => {
        fake = await startFakeTwilio({ clock, retryWebhooks: false });
        if (dialect === 'sqlite') {
          const db = openSqliteDatabase(':memory:');
          await migrate(db);
          dbs = [db, db];
        } else {
          schema = `placing_${randomUUID().replaceAll('-', '')}`;
          await admin(`CREATE SCHEMA ${schema}`);
          const open = () =>
            openPostgresDb({
              connectionString: PG_URL,
              options: `-c search_path=${schema}`,
              max: 4,
            });
          dbs = [open(), open()];
          await migrate(dbs[0]!);
        }
      });
      after(async () => {
        await fake.close();
        for (const db of new Set(dbs)) await db.close();
        if (schema) await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      });

      const host = (db: Db) =>
        createTwilioTelephony({
          client: createTwilioClient({
            baseUrl: fake.url,
            accountSid: fake.accountSid,
            authToken: fake.authToken,
          }),
          clock,
          from: '+12025550100',
          publicUrl: () => 'http://127.0.0.1:9',
          text: { serviceName: 'Wakeup', supportContact: 'support@example.com' },
          ledger: createPlacementLedger(db, { now: () => clock.now(), realTime }),
        });
      const request = (key: string, to: string) => ({
        idempotencyKey: key,
        to,
        script: { kind: 'demo' as const },
        ringTimeoutSeconds: 30,
      });

      it('a host placing an attempt another host already placed adopts that call; another attempt to the number dials', async () => {
        const [a, b] = [host(dbs[0]!), host(dbs[1]!)];
        const to = '+14155550140';
        const first = await a.placeCall(request('attempt-1', to));
        const again = await b.placeCall(request('attempt-1', to));
        assert.ok(first.ok && again.ok);
        assert.equal(again.callId, first.callId, 'the ledger says the call is attempt-1 own');
        const other = await b.placeCall(request('attempt-2', to));
        assert.ok(other.ok);
        assert.notEqual(
          other.callId,
          first.callId,
          'a call of attempt-1 is never taken by attempt-2',
        );
        assert.equal([...fake.calls.values()].filter((c) => c.to === to).length, 2);
      });

      it('a create that timed out but landed later is adopted by the retry, not dialled again', async () => {
        // The create lands 0.5 s after the client gave up; the hold outlasts that by 2 s. The
        // times are generous so that the look-up after the hold never times out on a busy machine.
        const slow = await startFakeTwilio({ clock, createDelayMs: 1_500, retryWebhooks: false });
        try {
          // The retry waits the hold out within one placeCall (a lock wait longer than the hold).
          const ledger = createPlacementLedger(
            dbs[0]!,
            { now: () => clock.now(), realTime },
            { unknownOutcomeHoldMs: 2_500, lockWaitMs: 5_000 },
          );
          const telephony = createTwilioTelephony({
            client: createTwilioClient({
              baseUrl: slow.url,
              accountSid: slow.accountSid,
              authToken: slow.authToken,
              timeoutMs: 1_000,
            }),
            clock,
            from: '+12025550100',
            publicUrl: () => 'http://127.0.0.1:9',
            text: { serviceName: 'Wakeup', supportContact: 'support@example.com' },
            ledger,
          });
          const r = request('attempt-slow', '+14155550160');
          await assert.rejects(telephony.placeCall(r), 'the create timed out: outcome unknown');
          // The retry comes at once (as another host's reconciliation might): the number is held
          // until the late create has landed, so the list shows it and the retry adopts it.
          const started = Date.now();
          const again = await telephony.placeCall(r);
          assert.ok(again.ok);
          assert.ok(Date.now() - started >= 1_500, 'the retry waited for the hold');
          assert.equal(slow.calls.size, 1, 'one call at the provider');
          assert.equal(again.callId, [...slow.calls.keys()][0]);
        } finally {
          await slow.close();
        }
      });

      it('a number still locked by a host that died while placing defers the placement (PlacementDeferred), then places it once', async () => {
        const to = '+14155550170';
        const dead = randomUUID();
        const until = Date.now() + 30_000; // locks run on real time
        await dbs[0]!.run('INSERT INTO placement_locks (e164, owner, until) VALUES (?, ?, ?)', [
          to,
          dead,
          until,
        ]);
        const telephony = createTwilioTelephony({
          client: createTwilioClient({
            baseUrl: fake.url,
            accountSid: fake.accountSid,
            authToken: fake.authToken,
          }),
          clock,
          from: '+12025550100',
          publicUrl: () => 'http://127.0.0.1:9',
          text: { serviceName: 'Wakeup', supportContact: 'support@example.com' },
          ledger: createPlacementLedger(
            dbs[1]!,
            { now: () => clock.now(), realTime },
            { lockWaitMs: 100 },
          ),
        });
        const r = { ...request('attempt-locked', to), outcomeUnknown: true };
        const before = fake.createCallRequests;
        const err: unknown = await telephony.placeCall(r).then(
          () => null,
          (e: unknown) => e,
        );
        assert.ok(PlacementDeferred.is(err), `deferred, not ${String(err)}`);
        const wait = err.retryAt - clock.now();
        assert.ok(wait > 0 && wait <= 5_000, `asked again within 5 s (${wait} ms)`);
        assert.equal(fake.createCallRequests, before, 'nothing sent while the number is locked');
        await dbs[0]!.run('UPDATE placement_locks SET until = ? WHERE e164 = ?', [
          Date.now() - 1,
          to,
        ]); // the dead lock lapses
        const placed = await telephony.placeCall(r);
        assert.ok(placed.ok);
        assert.equal(fake.createCallRequests - before, 1, 'one create once the lock lapsed');
      });

      it('two hosts placing one attempt at the same moment dial once', async () => {
        const [a, b] = [host(dbs[0]!), host(dbs[1]!)];
        const before = fake.createCallRequests;
        const pairs = await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const r = request(`attempt-race-${i}`, `+141555502${String(i).padStart(2, '0')}`);
            return await Promise.all([a.placeCall(r), b.placeCall(r)]);
          }),
        );
        for (const [x, y] of pairs) {
          assert.ok(x.ok && y.ok);
          assert.equal(x.callId, y.callId);
        }
        assert.equal(
          fake.createCallRequests - before,
          20,
          'one create per attempt across both hosts',
        );
      });
    },
  );
}
