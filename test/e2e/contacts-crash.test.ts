/**
 * Texts to contacts across a stop (issue 31, docs/decisions/0024-contacts.md), on SQLite and
 * PostgreSQL: a server tells a contact of a missed call; its database is then put back in
 * the state a crash would have left at each point between the outcome's commit and the
 * recorded send, the server stops, and a new server on the same database starts. The contact
 * gets exactly one text in every case: the catch-up at start claims a call left without a
 * claim, and sends a claimed text again with the same idempotency key (the outbox, as a
 * provider honouring the key, keeps one).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  startTestServer,
  testDbIsPostgres,
  withTestDb,
  type TestServer,
} from '../helpers/server.js';
import { call, PHONE_TEST_ENV } from '../helpers/phone.js';
import {
  advance,
  createCall,
  freshNumber,
  newAccount,
  nowMs,
  occurrence,
  phone,
  startCallsServer,
} from '../host/calls-fixture.js';

/** How long the server is down. */
const RESTART_AFTER_MS = 3 * 60_000;

describe('contacts: a stop between the outcome and the text', () => {
  let first: TestServer;
  before(async () => {
    first = await startCallsServer();
  });
  after(async () => {
    await first.close();
  });

  /** A missed call that told its agreed contact; returns the occurrence and the contact's number. */
  async function toldOnce(server: TestServer): Promise<{ occurrenceId: string; e164: string }> {
    const f = await newAccount(server);
    await f.api('PATCH', '/me', { greeting_name: 'Sam' });
    const e164 = freshNumber();
    const c = await f.api('POST', '/contacts', { name: 'Alex', e164 });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    await call(server, 'POST', '/dev/sms/inbound', { body: { from: e164, body: 'YES' } });
    await phone(server, f.number, ['no_answer']);
    const { occurrenceId } = await createCall(f, { tell_contacts: { contact_ids: [c.body.id] } });
    await advance(server, 5 * 60);
    assert.equal((await occurrence(f, occurrenceId)).status, 'missed');
    assert.equal(await toldTexts(server, occurrenceId), 1);
    return { occurrenceId, e164 };
  }

  /** Texts the outbox holds under the told key of `occurrenceId`. */
  const toldTexts = (server: TestServer, occurrenceId: string) =>
    withTestDb(
      server,
      async (db) =>
        (
          await db.all('SELECT id FROM outbox WHERE idempotency_key LIKE ?', [
            `contact-told:${occurrenceId}:%`,
          ])
        ).length,
    );

  /** Stops `server` (its database kept) and starts another on the same database, its clock 3 minutes on. */
  async function restart(server: TestServer): Promise<TestServer> {
    const at = new Date(nowMs(server) + RESTART_AFTER_MS).toISOString();
    await server.running.close();
    const next = await startTestServer({
      env: { ...PHONE_TEST_ENV, WAKEUP_DB: server.dbFile, WAKEUP_CLOCK_START: at },
    });
    // POST /dev/clock answers once the runtime and the teller (its catch-up included) are idle.
    await advance(next, 0);
    // startTestServer names a fresh file of its own in dbFile; this one uses the first's database.
    return { ...next, dbFile: server.dbFile };
  }

  let server: TestServer;
  it('crash after the outcome committed, before the claim: the next start tells the contact once', async () => {
    server = first;
    const { occurrenceId } = await toldOnce(server);
    // What the crash leaves: the call ended missed; no claim, no text.
    await withTestDb(server, async (db) => {
      await db.run('DELETE FROM contact_texts WHERE occurrence_id = ?', [occurrenceId]);
      await db.run('DELETE FROM outbox WHERE idempotency_key LIKE ?', [
        `contact-told:${occurrenceId}:%`,
      ]);
    });
    server = await restart(server);
    assert.equal(await toldTexts(server, occurrenceId), 1);
    const rows = await withTestDb(server, (db) =>
      db.all<{ status: string }>('SELECT status FROM contact_texts WHERE occurrence_id = ?', [
        occurrenceId,
      ]),
    );
    assert.deepEqual(
      rows.map((r) => r.status),
      ['sent'],
    );
  });

  it('crash after the claim, before the send: the next start sends the pending text once', async () => {
    const { occurrenceId } = await toldOnce(server);
    await withTestDb(server, async (db) => {
      await db.run(
        "UPDATE contact_texts SET status = 'pending', message_id = NULL, sent_at = NULL WHERE occurrence_id = ?",
        [occurrenceId],
      );
      await db.run('DELETE FROM outbox WHERE idempotency_key LIKE ?', [
        `contact-told:${occurrenceId}:%`,
      ]);
    });
    server = await restart(server);
    assert.equal(await toldTexts(server, occurrenceId), 1);
  });

  it('crash after the provider took the text, before it was recorded: sent again with the same key, kept once', async () => {
    const { occurrenceId } = await toldOnce(server);
    // Another host began sending it a minute before the restart (PostgreSQL): the restarted
    // host leaves it 2 minutes from then, then sends it (on SQLite, one process: at once).
    const lastTry = nowMs(server) + RESTART_AFTER_MS - 60_000;
    await withTestDb(server, (db) =>
      db.run(
        "UPDATE contact_texts SET status = 'pending', message_id = NULL, sent_at = NULL, updated_at = ? WHERE occurrence_id = ?",
        [lastTry, occurrenceId],
      ),
    );
    server = await restart(server);
    const status = async () =>
      withTestDb(
        server,
        async (db) =>
          (await db.get<{ status: string }>(
            'SELECT status FROM contact_texts WHERE occurrence_id = ?',
            [occurrenceId],
          ))!.status,
      );
    assert.equal(await status(), testDbIsPostgres() ? 'pending' : 'sent');
    await advance(server, 120);
    assert.equal(await status(), 'sent');
    assert.equal(await toldTexts(server, occurrenceId), 1);
    const rows = await withTestDb(server, (db) =>
      db.all<{ status: string; tries: number }>(
        'SELECT status, tries FROM contact_texts WHERE occurrence_id = ?',
        [occurrenceId],
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r.status, r.tries]),
      [['sent', 2]],
    );
    await server.close();
  });
});
