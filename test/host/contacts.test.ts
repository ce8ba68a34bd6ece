/**
 * Contacts to tell (issue 31) through HTTP on the virtual clock, on SQLite and (with
 * WAKEUP_TEST_DB=postgres) PostgreSQL: adding and inviting, agreeing by YES or by the code,
 * STOP, the schedule's rule (missed, and unconfirmed only when it says so), one text per
 * contact and call, the daily cap, the per-account limit, scopes, problems, export and deletion.
 * The server runs with 3 contacts per account and 2 texts to contacts a day, so the limits are
 * reached quickly.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import { withTestDb } from '../helpers/server.js';
import { call, latestCode } from '../helpers/phone.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';
import {
  advance,
  assertSchema,
  createCall,
  freshNumber,
  newAccount,
  occurrence,
  phone,
  startCallsServer,
  texts,
  type CallsAccount,
} from './calls-fixture.js';

const TOLD =
  /^Wake-Up Call: the user named "Sam" did not confirm the (\d\d:\d\d) wake-up call(?: "([^"]+)")?, ([A-Za-z_/]+)\. Reply STOP to opt out\.$/;

describe('contacts to tell', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startCallsServer({
      WAKEUP_CONTACTS_PER_ACCOUNT: '3',
      WAKEUP_CONTACT_TEXTS_PER_DAY: '2',
      // The webhook receiver of the contact.told test listens on loopback over http.
      WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1',
      WAKEUP_WEBHOOK_ALLOW_HTTP: '1',
    });
    receiver = await startReceiver();
  });
  after(async () => {
    await server.close();
    await receiver?.close();
  });

  /** A new account, its holder named Sam. */
  async function holder(): Promise<CallsAccount> {
    const f = await newAccount(server);
    const r = await f.api('PATCH', '/me', { greeting_name: 'Sam' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return f;
  }

  async function addContact(f: CallsAccount, name = 'Alex', e164 = freshNumber()): Promise<any> {
    const r = await f.api('POST', '/contacts', { name, e164 });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assertSchema('ContactCreatedOut', r.body);
    return r.body;
  }

  const inbound = async (from: string, body: string) => {
    const r = await call(server, 'POST', '/dev/sms/inbound', { body: { from, body } });
    assert.equal(r.status, 204, JSON.stringify(r.body));
  };

  async function agreedContact(f: CallsAccount, name = 'Alex'): Promise<any> {
    const c = await addContact(f, name);
    await inbound(c.e164, 'yes');
    const r = await f.api('GET', `/contacts/${c.id}`);
    assert.equal(r.body.status, 'agreed');
    return r.body;
  }

  const told = async (e164: string) =>
    (await texts(server, e164)).map((t) => t.body).filter((b) => TOLD.test(b));

  it('adds a contact: pending, one invitation naming the holder with a code; the same number again sends nothing', async () => {
    const f = await holder();
    const c = await addContact(f, 'Mum');
    assert.equal(c.status, 'pending');
    assert.deepEqual(
      [c.name, c.blocked, c.agreed_at, c.invitation.sent],
      ['Mum', false, null, true],
    );
    assert.equal(Date.parse(c.invitation_expires_at) - Date.parse(c.invited_at), 7 * 86_400_000);
    const sent = await texts(server, c.e164);
    assert.equal(sent.length, 1);
    assert.match(
      sent[0]!.body,
      /^Wake-Up Call: the user named "Sam" asks you to get a text when they miss a wake-up call\. Reply YES \d{6} to agree, or give them the code\. Reply STOP to opt out\.$/,
    );
    assert.ok(sent[0]!.code);

    const again = await f.api('POST', '/contacts', { name: 'Other name', e164: c.e164 });
    assert.equal(again.status, 200);
    assert.deepEqual([again.body.id, again.body.name, again.body.invitation], [c.id, 'Mum', null]);
    assert.equal((await texts(server, c.e164)).length, 1, 'nothing sent again');

    const list = await f.api('GET', '/contacts');
    assert.equal(list.status, 200);
    assertSchema('ContactPage', list.body);
    assert.deepEqual(
      list.body.items.map((x: any) => x.id),
      [c.id],
    );
    const renamed = await f.api('PATCH', `/contacts/${c.id}`, { name: 'Mother' });
    assert.deepEqual([renamed.status, renamed.body.name], [200, 'Mother']);
  });

  it('agrees by a YES reply (YES <code> when several invitations are valid) or by the code the account enters', async () => {
    const f = await holder();
    const g = await holder();
    const number = freshNumber();
    const first = await addContact(f, 'Alex', number);
    const firstCode = await latestCode(server, number);
    const second = await addContact(g, 'Alex', number);
    await inbound(number, 'Yes!');
    assert.equal(
      (await g.api('GET', `/contacts/${second.id}`)).body.status,
      'pending',
      'a bare YES to two invitations agrees none',
    );
    assert.equal((await f.api('GET', `/contacts/${first.id}`)).body.status, 'pending');
    await inbound(number, `yes ${firstCode}`);
    assert.equal(
      (await f.api('GET', `/contacts/${first.id}`)).body.status,
      'agreed',
      'the invitation whose code it is',
    );
    assert.equal(
      (await g.api('GET', `/contacts/${second.id}`)).body.status,
      'pending',
      'one YES agrees one',
    );
    const confirmation = (await texts(server, number))[0]!.body;
    assert.match(
      confirmation,
      /^Wake-Up Call: you will get a text when the user named "Sam" misses a wake-up call\./,
    );

    const byCode = await addContact(f, 'Robin');
    const code = await latestCode(server, byCode.e164);
    const wrong = await f.api('POST', `/contacts/${byCode.id}/agree`, {
      code: code === '000000' ? '111111' : '000000',
    });
    assert.deepEqual(
      [wrong.status, wrong.body.code, wrong.body.field],
      [400, 'verification_code_invalid', 'code'],
    );
    const right = await f.api('POST', `/contacts/${byCode.id}/agree`, { code });
    assert.equal(right.status, 200, JSON.stringify(right.body));
    assert.deepEqual([right.body.status, right.body.agreed_by], ['agreed', 'code']);
    const invite = await f.api('POST', `/contacts/${byCode.id}/invite`);
    assert.deepEqual(
      [invite.status, invite.body.invitation],
      [200, null],
      'an agreed contact is not invited again',
    );
  });

  it('five wrong codes void the invitation and lock agreement (429 verification_locked)', async () => {
    const f = await holder();
    const c = await addContact(f);
    const code = await latestCode(server, c.e164);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++)
      assert.equal((await f.api('POST', `/contacts/${c.id}/agree`, { code: wrong })).status, 400);
    const fifth = await f.api('POST', `/contacts/${c.id}/agree`, { code: wrong });
    assert.deepEqual([fifth.status, fifth.body.code], [429, 'verification_locked']);
    assert.ok(Number(fifth.headers.get('retry-after')) > 0);
    const right = await f.api('POST', `/contacts/${c.id}/agree`, { code });
    assert.equal(right.status, 429, 'even the right code, while locked');
  });

  it('a missed call texts the agreed contact once, and the contact that did not agree never', async () => {
    const f = await holder();
    const agreed = await agreedContact(f, 'Alex');
    const pending = await addContact(f, 'Kim');
    await phone(server, f.number, ['no_answer']);
    const { occurrenceId, schedule } = await createCall(f, {
      label: 'Gym',
      tell_contacts: { contact_ids: [agreed.id, pending.id] },
    });
    assert.deepEqual(schedule.tell_contacts, {
      when: 'missed',
      contacts: [
        { id: agreed.id, name: 'Alex', status: 'agreed' },
        { id: pending.id, name: 'Kim', status: 'pending' },
      ],
    });
    await advance(server, 5 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.equal(o.status, 'missed');
    const sent = await told(agreed.e164);
    assert.equal(sent.length, 1, JSON.stringify(sent));
    assert.deepEqual(TOLD.exec(sent[0]!)!.slice(1), [o.local.time, 'Gym', 'UTC']);
    assert.deepEqual(await told(pending.e164), [], 'not agreed: never told');
    await advance(server, 3600);
    assert.equal((await told(agreed.e164)).length, 1, 'once');
    const rows = await withTestDb(server, (db) =>
      db.all<{ status: string }>('SELECT status FROM contact_texts WHERE occurrence_id = ?', [
        occurrenceId,
      ]),
    );
    assert.deepEqual(
      rows.map((r) => r.status),
      ['sent'],
    );
    const read = await f.api('GET', `/schedules/${schedule.id}`);
    assertSchema('ScheduleOut', read.body);
    assert.equal(read.body.tell_contacts.contacts.length, 2);
    // The call's detail names who was texted.
    const detail = await f.api('GET', `/occurrences/${occurrenceId}`);
    assertSchema('OccurrenceDetailOut', detail.body);
    assert.deepEqual(
      detail.body.told_contacts.map((t: any) => [
        t.contact.name,
        t.contact.status,
        t.status,
        t.reason,
        typeof t.sent_at,
      ]),
      [['Alex', 'agreed', 'sent', null, 'string']],
    );
  });

  it('a contact told sends one contact.told webhook event, signed, in the transaction that records the text', async () => {
    const f = await holder();
    const agreed = await agreedContact(f, 'Robin');
    const hook = await f.api('POST', '/webhook-endpoints', {
      url: `${receiver.url}/told`,
      event_types: ['contact.told'],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    await phone(server, f.number, ['no_answer']);
    const { occurrenceId, schedule } = await createCall(f, {
      label: 'Run',
      tell_contacts: { contact_ids: [agreed.id] },
    });
    await advance(server, 5 * 60);
    assert.equal((await told(agreed.e164)).length, 1);
    const mine = () => receiver.received.filter((r) => r.path === '/told');
    await receiver.waitFor(() => mine().length >= 1, 15_000, 'contact.told');
    // Recorded before the clock moves: an hour's advance over an attempt still under way lets its
    // lease lapse, and a lapsed lease is sent again (delivery is at least once).
    for (let i = 0; ; i++) {
      const log = await f.api('GET', `/webhook-endpoints/${hook.body.id}/deliveries`);
      if (log.body.items?.[0]?.status === 'delivered') break;
      assert.ok(i < 150, `the delivery was not recorded: ${JSON.stringify(log.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await advance(server, 3600);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(mine().length, 1, 'once');
    const event = verifyDelivery(hook.body.secret as string, mine()[0]!) as any;
    assert.equal(event.type, 'contact.told');
    assert.deepEqual(event.data.contact, { id: agreed.id, name: 'Robin' });
    assert.equal(event.data.occurrence_id, occurrenceId);
    assert.equal(event.data.schedule_id, schedule.id);
    assert.equal(event.data.outcome, 'missed');
    assertSchema('ContactToldEvent', event);
  });

  it('an unconfirmed call tells only a schedule whose rule says missed_or_unconfirmed; a confirmed call tells nobody', async () => {
    const f = await holder();
    const c = await agreedContact(f);
    await phone(server, f.number, ['silent', 'silent', 'confirm']);
    const missedOnly = await createCall(f, { tell_contacts: { contact_ids: [c.id] } }, 1);
    await advance(server, 5 * 60);
    assert.equal((await occurrence(f, missedOnly.occurrenceId)).status, 'unconfirmed');
    assert.deepEqual(await told(c.e164), [], 'rule missed: an unconfirmed call tells nobody');

    const both = await createCall(
      f,
      { tell_contacts: { contact_ids: [c.id], when: 'missed_or_unconfirmed' } },
      1,
    );
    assert.equal(both.schedule.tell_contacts.when, 'missed_or_unconfirmed');
    await advance(server, 5 * 60);
    assert.equal((await occurrence(f, both.occurrenceId)).status, 'unconfirmed');
    assert.equal((await told(c.e164)).length, 1);

    const confirmed = await createCall(
      f,
      { tell_contacts: { contact_ids: [c.id], when: 'missed_or_unconfirmed' } },
      1,
    );
    await advance(server, 5 * 60);
    assert.equal((await occurrence(f, confirmed.occurrenceId)).status, 'confirmed');
    assert.equal((await told(c.e164)).length, 1, 'confirmed: nothing more');
  });

  it('PATCH replaces or removes the rule; a removed contact leaves the rule', async () => {
    const f = await holder();
    const a = await agreedContact(f, 'A');
    const b = await agreedContact(f, 'B');
    const { schedule } = await createCall(f, { tell_contacts: { contact_ids: [a.id] } }, 60);
    const patched = await f.api('PATCH', `/schedules/${schedule.id}`, {
      tell_contacts: { contact_ids: [b.id, a.id] },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(
      patched.body.tell_contacts.contacts.map((x: any) => x.name),
      ['B', 'A'],
    );
    const untouched = await f.api('PATCH', `/schedules/${schedule.id}`, { label: 'Other' });
    assert.equal(untouched.body.tell_contacts.contacts.length, 2, 'left out: unchanged');
    assert.equal((await f.api('DELETE', `/contacts/${b.id}`)).status, 204);
    assert.deepEqual(
      (await f.api('GET', `/schedules/${schedule.id}`)).body.tell_contacts.contacts.map(
        (x: any) => x.name,
      ),
      ['A'],
    );
    const cleared = await f.api('PATCH', `/schedules/${schedule.id}`, { tell_contacts: null });
    assert.equal(cleared.body.tell_contacts, null);
    assert.equal((await f.api('GET', `/contacts/${b.id}`)).status, 404);
  });

  it('STOP from a contact stops it at once and for good: not told, and START does not agree again', async () => {
    const f = await holder();
    const c = await agreedContact(f);
    const { occurrenceId } = await createCall(f, { tell_contacts: { contact_ids: [c.id] } }, 2);
    await phone(server, f.number, ['no_answer']);
    await inbound(c.e164, 'STOP');
    const stopped = await f.api('GET', `/contacts/${c.id}`);
    assert.deepEqual([stopped.body.status, stopped.body.blocked], ['stopped', true]);
    assert.ok(stopped.body.stopped_at);
    await advance(server, 6 * 60);
    assert.equal((await occurrence(f, occurrenceId)).status, 'missed');
    assert.deepEqual(await told(c.e164), []);

    await inbound(c.e164, 'START');
    const after = await f.api('GET', `/contacts/${c.id}`);
    assert.deepEqual(
      [after.body.status, after.body.blocked],
      ['stopped', false],
      'START lifts the block only',
    );
    await inbound(c.e164, 'YES');
    assert.equal(
      (await f.api('GET', `/contacts/${c.id}`)).body.status,
      'stopped',
      'no invitation is waiting',
    );
    const blockedAdd = await holder();
    await inbound(c.e164, 'STOP');
    const refused = await blockedAdd.api('POST', '/contacts', { name: 'X', e164: c.e164 });
    assert.deepEqual([refused.status, refused.body.code], [403, 'number_blocked']);
  });

  it('invite again: a stopped contact whose number texted START may be asked again, and must agree again', async () => {
    const f = await holder();
    const c = await agreedContact(f);
    await inbound(c.e164, 'STOP');
    const blocked = await f.api('POST', `/contacts/${c.id}/invite`);
    assert.deepEqual([blocked.status, blocked.body.code], [403, 'number_blocked']);
    await inbound(c.e164, 'START');
    const again = await f.api('POST', `/contacts/${c.id}/invite`);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assertSchema('ContactCreatedOut', again.body);
    assert.deepEqual(
      [again.body.status, again.body.invitation.sent, again.body.agreed_at],
      ['pending', true, null],
    );
    await inbound(c.e164, 'YES');
    assert.equal((await f.api('GET', `/contacts/${c.id}`)).body.status, 'agreed');
  });

  it('an account that may not send texts (no plan, trial or credits) cannot invite: 402 no_entitlement', async () => {
    const f = await holder();
    await withTestDb(server, (db) =>
      db.run('UPDATE accounts SET trial_ends_at = trial_started_at WHERE id = ?', [f.accountId]),
    );
    const e164 = freshNumber();
    const r = await f.api('POST', '/contacts', { name: 'A', e164 });
    assert.deepEqual([r.status, r.body.code], [402, 'no_entitlement']);
    assert.deepEqual(await texts(server, e164), []);
  });

  it('the daily cap: past 2 texts a day to contacts, the others are skipped (recorded, never sent later)', async () => {
    const f = await holder();
    const contacts = [
      await agreedContact(f, 'A'),
      await agreedContact(f, 'B'),
      await agreedContact(f, 'C'),
    ];
    await phone(server, f.number, ['no_answer']);
    const { occurrenceId } = await createCall(f, {
      tell_contacts: { contact_ids: contacts.map((c) => c.id) },
    });
    await advance(server, 5 * 60);
    const counts = await Promise.all(contacts.map(async (c) => (await told(c.e164)).length));
    assert.deepEqual(counts, [1, 1, 0]);
    const rows = await withTestDb(server, (db) =>
      db.all<{ status: string; reason: string | null }>(
        'SELECT t.status, t.reason FROM contact_texts t JOIN contacts c ON c.id = t.contact_id WHERE t.occurrence_id = ? ORDER BY c.name',
        [occurrenceId],
      ),
    );
    assert.deepEqual(
      rows.map((r) => `${r.status}:${r.reason}`),
      ['sent:null', 'sent:null', 'skipped:daily_cap'],
    );
    const detail = await f.api('GET', `/occurrences/${occurrenceId}`);
    assertSchema('OccurrenceDetailOut', detail.body);
    assert.deepEqual(
      detail.body.told_contacts.map((t: any) => `${t.contact.name}:${t.status}:${t.reason}`).sort(),
      ['A:sent:null', 'B:sent:null', 'C:skipped:daily_cap'],
    );
  });

  it('the per-account limit: the 4th contact is refused with 409 contact_limit_reached, nothing sent', async () => {
    const f = await holder();
    for (const name of ['A', 'B', 'C']) await addContact(f, name);
    const e164 = freshNumber();
    const r = await f.api('POST', '/contacts', { name: 'D', e164 });
    assert.deepEqual([r.status, r.body.code], [409, 'contact_limit_reached']);
    assert.deepEqual(await texts(server, e164), []);
  });

  it('scopes: an API key needs read to list and write to manage', async () => {
    const f = await holder();
    const c = await addContact(f);
    const key = async (scopes: string[]) =>
      (await f.api('POST', '/api-keys', { name: scopes.join('+'), scopes })).body.key as string;
    const readKey = await key(['read']);
    const writeKey = await key(['read', 'write']);
    const as = (k: string, method: string, path: string, body?: unknown) =>
      call(server, method, path, { token: k, ...(body ? { body } : {}) });
    assert.equal((await as(readKey, 'GET', '/contacts')).status, 200);
    assert.equal((await as(readKey, 'GET', `/contacts/${c.id}`)).status, 200);
    for (const [method, path, body] of [
      ['POST', '/contacts', { name: 'B', e164: freshNumber() }],
      ['PATCH', `/contacts/${c.id}`, { name: 'B' }],
      ['DELETE', `/contacts/${c.id}`, undefined],
      ['POST', `/contacts/${c.id}/invite`, undefined],
      ['POST', `/contacts/${c.id}/agree`, { code: '123456' }],
    ] as const) {
      const r = await as(readKey, method, path, body);
      assert.deepEqual([r.status, r.body.code], [403, 'insufficient_scope'], `${method} ${path}`);
    }
    const made = await as(writeKey, 'POST', '/contacts', { name: 'B', e164: freshNumber() });
    assert.equal(made.status, 201);
    assert.equal((await as(writeKey, 'DELETE', `/contacts/${made.body.id}`)).status, 204);
  });

  it('bad input gives problem+json with the catalogue codes', async () => {
    const f = await holder();
    const post = (body: unknown) => f.api('POST', '/contacts', body);
    const cases: Array<[unknown, number, string, string | undefined]> = [
      [{ name: 'A', e164: 'not a number' }, 400, 'invalid_phone_number', 'e164'],
      [{ name: 'A', e164: '+12015550' }, 400, 'invalid_phone_number', 'e164'],
      [{ name: 'A', e164: '+442071838750' }, 400, 'invalid_phone_number', 'e164'], // a London landline
      [{ name: 'A', e164: '+8613800138000' }, 400, 'country_not_supported', 'e164'],
      [{ name: 'see example.com', e164: freshNumber() }, 400, 'message_disallowed_content', 'name'],
      [{ e164: freshNumber() }, 400, 'validation_error', 'name'],
      [{ name: 7, e164: freshNumber() }, 400, 'validation_error', 'name'],
    ];
    for (const [body, status, code, field] of cases) {
      const r = await post(body);
      assert.deepEqual(
        [r.status, r.body.code, r.body.field],
        [status, code, field],
        JSON.stringify(body),
      );
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
    }
    const c = await addContact(f);
    const badCode = await f.api('POST', `/contacts/${c.id}/agree`, { code: '12ab' });
    assert.deepEqual([badCode.status, badCode.body.code], [400, 'verification_code_invalid']);
    assert.equal(
      (await f.api('GET', '/contacts/00000000-0000-4000-8000-000000000000')).status,
      404,
    );
    assert.equal((await f.api('GET', '/contacts/not-a-uuid')).body.code, 'not_found');
    const other = await holder();
    assert.equal(
      (await other.api('GET', `/contacts/${c.id}`)).status,
      404,
      "another account's contact",
    );
    const rule = await f.api('POST', '/schedules', {
      kind: 'once',
      in_minutes: 30,
      tell_contacts: { contact_ids: ['00000000-0000-4000-8000-000000000000'] },
    });
    assert.deepEqual(
      [rule.status, rule.body.code, rule.body.field],
      [400, 'validation_error', 'tell_contacts.contact_ids.0'],
    );
    const stolen = await other.api('POST', '/schedules', {
      kind: 'once',
      in_minutes: 30,
      tell_contacts: { contact_ids: [c.id] },
    });
    assert.deepEqual(
      [stolen.status, stolen.body.code],
      [400, 'validation_error'],
      "another account's contact cannot be named",
    );
    const when = await f.api('POST', '/schedules', {
      kind: 'once',
      in_minutes: 30,
      tell_contacts: { contact_ids: [c.id], when: 'always' },
    });
    assert.deepEqual([when.status, when.body.code], [400, 'validation_error']);
  });

  it('export includes the contacts (no code hash); account deletion removes them at once', async () => {
    const f = await holder();
    const c = await agreedContact(f);
    await createCall(f, { tell_contacts: { contact_ids: [c.id] } }, 30);
    const exported = await f.api('GET', '/me/export');
    assert.equal(exported.status, 200);
    assert.deepEqual(
      exported.body.contacts.map((x: any) => [x.id, x.status, 'code_hash' in x]),
      [[c.id, 'agreed', false]],
    );
    assert.equal(exported.body.schedule_contacts.length, 1);
    assert.deepEqual(exported.body.contact_texts, []);

    assert.equal((await f.api('POST', '/me/deletion-code')).status, 202);
    const me = await f.api('GET', '/me');
    const mail = await call(
      server,
      'GET',
      `/dev/outbox?channel=email&to=${encodeURIComponent(me.body.email)}`,
    );
    const code = mail.body.items[0].code;
    const del = await f.api('DELETE', '/me', { confirm: 'DELETE', code });
    assert.equal(del.status, 202, JSON.stringify(del.body));
    const left = await withTestDb(server, async (db) => [
      (await db.all('SELECT id FROM contacts WHERE account_id = ?', [f.accountId])).length,
      (
        await db.all('SELECT schedule_id FROM schedule_contacts WHERE account_id = ?', [
          f.accountId,
        ])
      ).length,
    ]);
    assert.deepEqual(left, [0, 0]);
  });
});
