import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { runAdmin } from '../../host/phone/admin.js';
import { openTestDb, signIn, startTestServer } from '../helpers/server.js';
import { addNumber, addVerifiedNumber, call, textsTo, PHONE_TEST_ENV } from '../helpers/phone.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe('blocking: STOP, START, HELP, operator blocks', () => {
  let server: Server;
  let token: string;
  before(async () => {
    server = await startTestServer({ env: PHONE_TEST_ENV });
    token = (await signIn(server, 'block@example.com')).token;
  });
  after(() => server.close());

  const inbound = (from: string, body: string) =>
    call(server, 'POST', '/dev/sms/inbound', { body: { from, body } });
  const numberOf = async (t: string, id: string) =>
    (await call(server, 'GET', '/phone-numbers', { token: t })).body.items.find(
      (x: any) => x.id === id,
    );

  it('STOP blocks (reason stop) and nothing is texted to the number afterwards; START unblocks and confirms', async () => {
    const e164 = '+12015550301';
    const n = await addVerifiedNumber(server, token, e164);
    const before = (await textsTo(server, e164)).length;
    assert.equal((await inbound(e164, 'STOP')).status, 204);
    const blocked = await numberOf(token, n.id);
    assert.equal(blocked.blocked, true);
    assert.equal(blocked.blocked_reason, 'stop');

    const start = await call(server, 'POST', `/phone-numbers/${n.id}/verify/start`, {
      token,
      body: {},
    });
    assert.equal(start.status, 403);
    assert.equal(start.body.code, 'number_blocked');
    assert.equal((await inbound(e164, 'HELP')).status, 204);
    assert.equal(
      (await textsTo(server, e164)).length,
      before,
      'a blocked number gets no text, not even HELP or a code',
    );

    // Another account cannot add it either.
    const { token: other } = await signIn(server, 'block-other@example.com');
    const add = await call(server, 'POST', '/phone-numbers', { token: other, body: { e164 } });
    assert.equal(add.status, 403);
    assert.equal(add.body.code, 'number_blocked');
    assert.deepEqual(
      (await call(server, 'GET', '/phone-numbers', { token: other })).body.items,
      [],
    );

    assert.equal((await inbound(e164, 'START')).status, 204);
    const unblocked = await numberOf(token, n.id);
    assert.equal(unblocked.blocked, false);
    assert.equal(unblocked.blocked_reason, null);
    const texts = await textsTo(server, e164);
    assert.equal(texts.length, before + 1);
    assert.match(texts[0]!.body, /allowed again/);
  });

  it('every usual alias blocks and unblocks; case, spaces and trailing punctuation are ignored; other texts are not keywords', async () => {
    const e164 = '+12015550302';
    const n = await addNumber(server, token, e164);
    for (const stop of ['stop', ' StopAll ', 'UNSUBSCRIBE.', 'cancel', 'End!', 'quit']) {
      await inbound(e164, stop);
      assert.equal((await numberOf(token, n.id)).blocked_reason, 'stop', stop);
      const start = ['START', 'unstop', 'Yes'][stop.length % 3]!;
      await inbound(e164, start);
      assert.equal((await numberOf(token, n.id)).blocked, false, `${stop} then ${start}`);
    }
    await inbound(e164, 'please stop calling me');
    assert.equal((await numberOf(token, n.id)).blocked, false);
  });

  it('HELP answers with the help text', async () => {
    const e164 = '+12015550303';
    await addNumber(server, token, e164);
    await inbound(e164, 'help');
    const [latest] = await textsTo(server, e164);
    assert.match(latest!.body, /Reply STOP/);
    assert.match(latest!.body, /Help:/);
  });

  it('a complaint or manual block holds against START and is lifted only by an operator (admin CLI)', async () => {
    const e164 = '+12015550304';
    const n = await addNumber(server, token, e164);
    const db = await openTestDb(server);
    const out: string[] = [];
    const env = { db, now: Date.now(), out: (l: string) => void out.push(l) };
    try {
      assert.equal(
        await runAdmin(['block', e164, '--reason', 'complaint', '--note', 'ticket 42'], env),
        0,
      );
      assert.equal((await numberOf(token, n.id)).blocked_reason, 'complaint');
      await inbound(e164, 'START');
      assert.equal(
        (await numberOf(token, n.id)).blocked_reason,
        'complaint',
        'START does not lift a complaint',
      );
      await inbound(e164, 'STOP');
      assert.equal(
        (await numberOf(token, n.id)).blocked_reason,
        'complaint',
        'STOP does not downgrade it',
      );
      assert.equal(await runAdmin(['show', e164], env), 0);
      assert.match(out.join('\n'), /complaint: ticket 42/);
      assert.equal(await runAdmin(['unblock', e164], env), 0);
      assert.equal((await numberOf(token, n.id)).blocked, false);
      assert.equal(await runAdmin(['unblock', e164], env), 2, 'nothing to lift');
      assert.equal(await runAdmin(['block', e164], env), 0);
      assert.equal((await numberOf(token, n.id)).blocked_reason, 'manual');
      assert.equal(
        await runAdmin(['block', e164, '--reason', 'stop'], env),
        1,
        'operators record complaint or manual only',
      );
      assert.equal(await runAdmin(['block', 'not-a-number'], env), 1);
      assert.equal(await runAdmin([], env), 1);
    } finally {
      await db.close();
    }
  });

  it('the admin CLI runs as a process against WAKEUP_DB', async () => {
    const e164 = '+12015550305';
    const n = await addNumber(server, token, e164);
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'host/admin.ts', ...args], {
        env: { ...process.env, WAKEUP_DB: server.dbFile },
        encoding: 'utf8',
      });
    const blocked = run('block', e164, '--reason', 'manual');
    assert.equal(blocked.status, 0, blocked.stderr);
    assert.match(blocked.stdout, /blocked \(reason manual\)/);
    assert.equal((await numberOf(token, n.id)).blocked_reason, 'manual');
    const lifted = run('unblock', e164);
    assert.equal(lifted.status, 0, lifted.stderr);
    assert.equal((await numberOf(token, n.id)).blocked, false);
  });

  it('POST /dev/sms/inbound validates the sender; PUT /dev/phones validates the behaviours', async () => {
    const bad = await inbound('12015550306', 'STOP');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'invalid_phone_number');
    const phone = await call(server, 'PUT', `/dev/phones/${encodeURIComponent('+12015550306')}`, {
      body: { answers: ['dance'] },
    });
    assert.equal(phone.status, 400);
    assert.equal(phone.body.code, 'validation_error');
    const ok = await call(server, 'PUT', `/dev/phones/${encodeURIComponent('+12015550306')}`, {
      body: { answers: ['busy', 'confirm'], ring_seconds: 3 },
    });
    assert.equal(ok.status, 204);
  });
});
