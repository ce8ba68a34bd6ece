/**
 * Contacts that cannot be hijacked or used to phish (issue 39, item 3), through HTTP on SQLite
 * and PostgreSQL: a reply YES never agrees to another account's invitation (with several valid
 * invitations to a number only `YES <code>` agrees, to the one whose code it is); the holder's
 * name is texted as a name, and names that read as a link, an address or a message are refused;
 * invitations from other accounts leave the number's own verification budget alone; inbound
 * texts log the sender masked.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { call, latestCode } from '../helpers/phone.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  freshNumber,
  newAccount,
  startCallsServer,
  texts,
  type CallsAccount,
} from './calls-fixture.js';

describe('contacts: replies, holder names, budgets and logs', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer({
      // The per-number code limits as in production; the per-IP one out of the way (every request comes from loopback).
      WAKEUP_CODE_LIMIT_NUMBER: '5/h,10/d',
      WAKEUP_CODE_LIMIT_IP: '1000/h',
      WAKEUP_CONTACTS_PER_ACCOUNT: '5',
    });
  });
  after(() => server?.close());

  async function holder(name = 'Sam'): Promise<CallsAccount> {
    const f = await newAccount(server);
    const r = await f.api('PATCH', '/me', { greeting_name: name });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return f;
  }
  const invite = async (f: CallsAccount, e164: string) => {
    const r = await f.api('POST', '/contacts', { name: 'Alex', e164 });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.invitation.sent, true);
    return r.body as { id: string };
  };
  const reply = async (from: string, body: string) =>
    assert.equal(
      (await call(server, 'POST', '/dev/sms/inbound', { body: { from, body } })).status,
      204,
    );
  const status = async (f: CallsAccount, id: string) =>
    (await f.api('GET', `/contacts/${id}`)).body.status as string;

  it('two valid invitations: a bare YES agrees to neither and asks for the code; YES <code> agrees to that one only', async () => {
    const a = await holder('Sam');
    const b = await holder('Kim');
    const number = freshNumber();
    const forA = await invite(a, number);
    const codeA = await latestCode(server, number);
    const forB = await invite(b, number);
    const codeB = await latestCode(server, number);
    assert.notEqual(codeA, codeB);

    await reply(number, 'YES');
    assert.deepEqual([await status(a, forA.id), await status(b, forB.id)], ['pending', 'pending']);
    assert.match(
      (await texts(server, number))[0]!.body,
      /more than one person invited this number\. Reply YES and the code/,
    );

    const wrong = codeA === '000000' ? '111111' : '000000';
    await reply(number, `YES ${wrong}`);
    assert.deepEqual([await status(a, forA.id), await status(b, forB.id)], ['pending', 'pending']);
    assert.match(
      (await texts(server, number))[0]!.body,
      /no invitation to this number has that code/,
    );

    // The first inviter's code agrees to the first inviter, even though the second invited last.
    await reply(number, `Yes ${codeA.slice(0, 3)} ${codeA.slice(3)}.`);
    assert.deepEqual([await status(a, forA.id), await status(b, forB.id)], ['agreed', 'pending']);
    assert.match(
      (await texts(server, number))[0]!.body,
      /^Wake-Up Call: you will get a text when the user named "Sam" misses/,
    );

    // One invitation left valid: a bare YES agrees to it.
    await reply(number, 'yes');
    assert.equal(await status(b, forB.id), 'agreed');
  });

  it('texts the holder name as a name, never as the opening of the text', async () => {
    const f = await holder('Sam Lee');
    const number = freshNumber();
    await invite(f, number);
    const body = (await texts(server, number))[0]!.body;
    assert.match(body, /^Wake-Up Call: the user named "Sam Lee" asks you to get a text/);
  });

  it('refuses holder names that read as a link, an address or a message (400 message_disallowed_content)', async () => {
    for (const bad of [
      'evil . com',
      'evil(.)com',
      'evil[dot]com',
      'evil\uA4F8com',
      'evil\u3002com',
      '45.9.1.2',
      'PayPal Security: act now',
      'Verify your account',
      'Bank alert',
    ]) {
      const f = await newAccount(server);
      // Both names bad: nothing can be texted as the holder's name.
      const patch = await f.api('PATCH', '/me', { display_name: bad, greeting_name: bad });
      if (patch.status === 400) continue; // the account's own rules refused it already
      assert.equal(patch.status, 200, JSON.stringify(patch.body));
      const number = freshNumber();
      const r = await f.api('POST', '/contacts', { name: 'Alex', e164: number });
      assert.deepEqual(
        [r.status, r.body.code, r.body.field],
        [400, 'message_disallowed_content', 'display_name'],
        bad,
      );
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal((await texts(server, number)).length, 0, `nothing texted for ${bad}`);
    }
    // A bad greeting name falls back to a good display name.
    const f = await newAccount(server);
    assert.equal(
      (await f.api('PATCH', '/me', { display_name: 'Robin', greeting_name: 'evil . com' })).status,
      200,
    );
    const number = freshNumber();
    await invite(f, number);
    assert.match((await texts(server, number))[0]!.body, /the user named "Robin" asks/);
  });

  it("invitations from other accounts leave the number's own verification budget alone", async () => {
    const number = freshNumber();
    // Six accounts invite the number: more than its 5 codes an hour, each within its own budget.
    for (let i = 0; i < 6; i++) await invite(await holder(), number);
    // Its owner can still verify it.
    const owner = await newAccount(server);
    const added = await owner.api('POST', '/phone-numbers', { e164: number });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.body.verification.sent, true);
    // One account inviting one number again and again is still held to the per-number limit.
    const f = await holder();
    const other = freshNumber();
    const c = await invite(f, other);
    const answers: number[] = [];
    for (let i = 0; i < 5; i++)
      answers.push((await f.api('POST', `/contacts/${c.id}/invite`)).status);
    assert.deepEqual(answers, [200, 200, 200, 200, 429]);
  });
});

describe('contacts: inbound texts are logged masked', () => {
  let server: TestServer;
  const lines: string[] = [];
  before(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    server = await startTestServer({ logStream: stream });
  });
  after(() => server?.close());

  it('logs the sender of an inbound text masked, as the other log lines do', async () => {
    const from = '+12015550177';
    for (const body of ['YES', 'HELP', 'STOP', 'hello']) {
      assert.equal(
        (await call(server, 'POST', '/dev/sms/inbound', { body: { from, body } })).status,
        204,
      );
    }
    // The dev outbox (dev mode only) logs each text it keeps with its recipient, as it shows codes; every other line masks.
    const all = lines.filter((l) => !l.includes('"msg":"dev outbox')).join('');
    assert.ok(
      !all.includes('2015550177'),
      all
        .split('\n')
        .filter((l) => l.includes('2015550177'))
        .join('\n'),
    );
    assert.ok(all.includes('+1 ••••••0177'), 'the masked number is');
  });
});
