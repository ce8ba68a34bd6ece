/**
 * POST /demo/call through HTTP on the virtual clock: the new call (201) and the same call
 * again (200), wrong and expired codes, the 5-wrong-codes end, one call per number a UTC
 * day (and its reset), DemoCallOut.state following the attempt, anonymous GET /calls/{id},
 * and key 9 blocking the number until it is verified in an account.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { settledDb, signIn, type TestServer } from '../helpers/server.js';
import { addNumber, call, latestCode } from '../helpers/phone.js';
import {
  advance,
  assertSchema,
  clockTo,
  demoCode,
  freshNumber,
  nowMs,
  phone,
  placeDemo,
  secondsToMidnight,
  startDemo,
  startDemoServer,
  textsTo,
} from './demo-fixture.js';

const HIGH_CAPS = {
  WAKEUP_DEMO_DAILY_CAP: '100000',
  WAKEUP_DEMO_PREFIX_DAILY_CAP: '100000',
  WAKEUP_CODE_LIMIT_NUMBER: '1000/h',
  WAKEUP_CODE_LIMIT_ACCOUNT: '1000/h',
  WAKEUP_CODE_LIMIT_IP: '1000/h',
};

/** A code that is not `code`. */
const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('POST /demo/call', () => {
  let server: TestServer;
  before(async () => {
    server = await startDemoServer(HIGH_CAPS);
  });
  after(() => server.close());

  it('places one demo call now (201) and shows the same call for the same code (200)', async () => {
    const e164 = freshNumber();
    await phone(server, e164, ['confirm'], 5);
    const code = await demoCode(server, e164);
    const r = await placeDemo(server, { e164, code });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assertSchema('DemoCallOut', r.body);
    assert.equal(r.body.state, 'calling');
    assert.equal(r.body.live, true);
    assert.equal(r.body.to_masked, `+1 ••••••${e164.slice(-4)}`);

    const again = await placeDemo(server, { e164, code });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, r.body.id);

    // The call plays (rings 5 s, answered, key 1): its state follows the attempt.
    await advance(server, 60);
    const done = await placeDemo(server, { e164, code });
    assert.equal(done.status, 200);
    assert.equal(done.body.id, r.body.id);
    assert.equal(done.body.state, 'confirmed');
    assert.equal(done.body.live, false);

    // The engine holds it as an attempt of kind demo, readable without credentials by its id.
    const polled = await call(server, 'GET', `/calls/${r.body.id}`);
    assert.equal(polled.status, 200);
    assertSchema('AttemptOut', polled.body);
    assert.equal(polled.body.kind, 'demo');
    assert.equal(polled.body.status, 'confirmed');
    assert.equal(polled.body.occurrence_id, null);
  });

  it('answers 400 verification_code_invalid for a wrong code and places nothing', async () => {
    const e164 = freshNumber();
    const code = await demoCode(server, e164);
    const r = await placeDemo(server, { e164, code: other(code) });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'verification_code_invalid');
    assert.equal(r.body.field, 'code');
    assert.equal(await attemptsTo(server, e164), 0);
    // The right code still works afterwards.
    assert.equal((await placeDemo(server, { e164, code })).status, 201);
  });

  it('answers 400 verification_code_invalid for an expired code (valid 600 s) and for a number never sent one', async () => {
    const e164 = freshNumber();
    const code = await demoCode(server, e164);
    await advance(server, 601);
    const r = await placeDemo(server, { e164, code });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'verification_code_invalid');
    const never = await placeDemo(server, { e164: freshNumber(), code: '123456' });
    assert.equal(never.status, 400);
    assert.equal(never.body.code, 'verification_code_invalid');
    assert.equal(await attemptsTo(server, e164), 0);
  });

  it('ends the request at the 5th wrong code: even the right code is refused after it', async () => {
    const e164 = freshNumber();
    const code = await demoCode(server, e164);
    for (let i = 0; i < 5; i++) {
      const r = await placeDemo(server, { e164, code: other(code) });
      assert.equal(r.status, 400, `try ${i + 1}`);
      assert.equal(r.body.code, 'verification_code_invalid');
    }
    const right = await placeDemo(server, { e164, code });
    assert.equal(right.status, 400);
    assert.equal(right.body.code, 'verification_code_invalid');
    assert.equal(await attemptsTo(server, e164), 0);
    // A new start (the second code of the day) opens a new request.
    const second = await demoCode(server, e164);
    assert.equal((await placeDemo(server, { e164, code: second })).status, 201);
  });

  it('any other code on a repeated request gives 400 and shows nothing', async () => {
    const e164 = freshNumber();
    const code = await demoCode(server, e164);
    assert.equal((await placeDemo(server, { e164, code })).status, 201);
    const r = await placeDemo(server, { e164, code: other(code) });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'verification_code_invalid');
    assert.equal(r.body.id, undefined);
  });

  it('one demo call per number a day: 429 demo_rate_limited, and a silent 202 for a new start; a new UTC day allows another', async () => {
    const e164 = freshNumber();
    const first = await demoCode(server, e164);
    const second = await demoCode(server, e164);
    assert.equal((await placeDemo(server, { e164, code: second })).status, 201);
    const r = await placeDemo(server, { e164, code: first });
    assert.equal(r.status, 429);
    assert.equal(r.body.code, 'demo_rate_limited');
    assert.equal(r.headers.get('retry-after'), String(secondsToMidnight(server)));
    assert.equal(await attemptsTo(server, e164), 1);

    // The number had its demo today: a start answers the same 202 and texts nothing.
    const texts = (await textsTo(server, e164)).length;
    const s = await startDemo(server, { consent: true, e164 });
    assert.equal(s.status, 202);
    assert.equal((await textsTo(server, e164)).length, texts);

    // 00:00 UTC starts a new day for the number.
    const day = new Date(nowMs(server)).toISOString().slice(0, 10);
    await clockTo(server, `${day}T23:59:59Z`);
    assert.equal((await startDemo(server, { consent: true, e164 })).status, 202);
    assert.equal((await textsTo(server, e164)).length, texts);
    await advance(server, 1);
    const next = await demoCode(server, e164);
    assert.equal((await placeDemo(server, { e164, code: next })).status, 201);
    assert.equal(await attemptsTo(server, e164), 2);
  });

  it('a number blocked after its code was sent: 403 number_blocked, nothing placed', async () => {
    const e164 = freshNumber();
    const code = await demoCode(server, e164);
    assert.equal(
      (await call(server, 'POST', '/dev/sms/inbound', { body: { from: e164, body: 'STOP' } }))
        .status,
      204,
    );
    const r = await placeDemo(server, { e164, code });
    assert.equal(r.status, 403);
    assert.equal(r.body.code, 'number_blocked');
    assert.equal(await attemptsTo(server, e164), 0);
  });

  it('refuses malformed input: invalid_phone_number, a code not of 6 digits, missing fields', async () => {
    assert.equal(
      (await placeDemo(server, { e164: '12015550123', code: '123456' })).body.code,
      'invalid_phone_number',
    );
    assert.equal(
      (await placeDemo(server, { e164: freshNumber(), code: '12345' })).body.code,
      'verification_code_invalid',
    );
    assert.equal((await placeDemo(server, { e164: freshNumber() })).body.code, 'validation_error');
    assert.equal((await placeDemo(server, { code: '123456' })).body.code, 'validation_error');
    assert.equal(
      (await placeDemo(server, { e164: '+5511987654321', code: '123456' })).body.code,
      'demo_not_available',
    );
  });
});

describe('DemoCallOut.state follows the attempt', () => {
  let server: TestServer;
  before(async () => {
    server = await startDemoServer(HIGH_CAPS);
  });
  after(() => server.close());

  /** Places a demo call to a phone playing `behaviour`, lets it play, returns the final DemoCallOut. */
  async function play(behaviour: string): Promise<any> {
    const e164 = freshNumber();
    await phone(server, e164, [behaviour], 5);
    const code = await demoCode(server, e164);
    const r = await placeDemo(server, { e164, code });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await advance(server, 120);
    const done = await placeDemo(server, { e164, code });
    assert.equal(done.status, 200);
    assertSchema('DemoCallOut', done.body);
    return done.body;
  }

  const cases: Array<[string, string]> = [
    ['confirm', 'confirmed'],
    ['stop', 'stopped'],
    ['silent', 'unconfirmed'],
    ['snooze', 'unconfirmed'],
    ['no_answer', 'missed'],
    ['busy', 'missed'],
    ['voicemail', 'missed'],
    ['fail', 'not_placed'],
  ];
  for (const [behaviour, state] of cases) {
    it(`${behaviour} ends ${state}`, async () => {
      const out = await play(behaviour);
      assert.equal(out.state, state, JSON.stringify(out));
      assert.equal(out.live, false);
    });
  }

  it('is ringing while the phone rings, and answered while the call speaks', async () => {
    const e164 = freshNumber();
    await phone(server, e164, ['confirm'], 30);
    const code = await demoCode(server, e164);
    assert.equal((await placeDemo(server, { e164, code })).body.state, 'calling');
    await advance(server, 2);
    const ringing = await placeDemo(server, { e164, code });
    assert.equal(ringing.body.state, 'ringing');
    assert.equal(ringing.body.live, true);
    assert.equal((await call(server, 'GET', `/calls/${ringing.body.id}`)).body.status, 'ringing');
  });
});

describe('GET /calls/{call_id} for a demo call', () => {
  let server: TestServer;
  before(async () => {
    server = await startDemoServer(HIGH_CAPS);
  });
  after(() => server.close());

  it('answers the requester without credentials by the returned id; other calls stay private', async () => {
    const e164 = freshNumber();
    const code = await demoCode(server, e164);
    const r = await placeDemo(server, { e164, code });
    const polled = await call(server, 'GET', `/calls/${r.body.id}`);
    assert.equal(polled.status, 200);
    assert.equal(polled.body.id, r.body.id);
    // An id that is not a demo call (existing or not) gives 401 without credentials.
    const unknown = await call(server, 'GET', '/calls/00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.status, 401);
    // Nor does the demo call appear in any account's list.
    const { token } = await signIn(server);
    const list = await call(server, 'GET', '/calls', { token });
    assert.equal(list.status, 200);
    assert.ok(!list.body.items.some((i: any) => i.id === r.body.id));
  });
});

describe('key 9 on a demo call', () => {
  let server: TestServer;
  before(async () => {
    server = await startDemoServer(HIGH_CAPS);
  });
  after(() => server.close());

  it('blocks the number (later starts get the silent 202); verifying it in an account lifts the block', async () => {
    const e164 = freshNumber();
    await phone(server, e164, ['stop'], 5);
    const code = await demoCode(server, e164);
    assert.equal((await placeDemo(server, { e164, code })).status, 201);
    await advance(server, 120);
    assert.equal((await placeDemo(server, { e164, code })).body.state, 'stopped');

    // Next UTC day: the number is blocked, so a start texts nothing.
    await clockTo(server, '2027-05-05T00:00:01Z');
    const before = (await textsTo(server, e164)).length;
    assert.equal((await startDemo(server, { consent: true, e164 })).status, 202);
    assert.equal((await textsTo(server, e164)).length, before);

    // The owner adds and verifies the number in an account: blocked by key 9, so it may get a code.
    const { token } = await signIn(server);
    const added = await addNumber(server, token, e164);
    assert.equal(added.blocked, true);
    assert.equal(added.blocked_reason, 'key_9');
    const vcode = await latestCode(server, e164);
    const verified = await call(server, 'POST', `/phone-numbers/${added.id}/verify/check`, {
      token,
      body: { code: vcode },
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.blocked, false);

    // Unblocked: the demo texts a code again.
    await demoCode(server, e164);
  });
});

/** Demo attempts stored for `e164`. */
async function attemptsTo(server: TestServer, e164: string): Promise<number> {
  const r = (await (
    await settledDb(server)
  ).get("SELECT COUNT(*) AS n FROM attempts WHERE kind = 'demo' AND to_e164 = ?", [e164])) as {
    n: number;
  };
  return r.n;
}
