import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signIn, startTestServer } from '../helpers/server.js';
import { addNumber, advance, call, latestCode, textsTo, PHONE_TEST_ENV } from '../helpers/phone.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

const DAY = 86_400;

describe('phone verification: verify/start and verify/check', () => {
  let server: Server;
  let token: string;
  before(async () => {
    server = await startTestServer({ env: PHONE_TEST_ENV });
    token = (await signIn(server, 'verify@example.com')).token;
  });
  after(() => server.close());

  const check = (id: string, code: string) =>
    call(server, 'POST', `/phone-numbers/${id}/verify/check`, { token, body: { code } });
  const start = (id: string, body?: unknown) =>
    call(server, 'POST', `/phone-numbers/${id}/verify/start`, { token, body });

  it('the right code verifies the number for 365 days', async () => {
    const n = await addNumber(server, token, '+12015550201');
    const code = await latestCode(server, '+12015550201');
    const r = await check(n.id, code);
    assert.equal(r.status, 200);
    assert.equal(r.body.verified, true);
    const verifiedAt = Date.parse(r.body.verified_at);
    assert.equal(Date.parse(r.body.verification_expires_at) - verifiedAt, 365 * DAY * 1000);
    // The code is used up: sent again it verifies nothing more and answers as the first time
    // (issue 30: a retried request is never a wrong guess; test/host/harden-edges.test.ts).
    const again = await check(n.id, code);
    assert.equal(again.status, 200);
    assert.equal(again.body.verification_expires_at, r.body.verification_expires_at);
  });

  it('a wrong code is 400 verification_code_invalid; a malformed one too', async () => {
    const n = await addNumber(server, token, '+12015550203');
    const code = await latestCode(server, '+12015550203');
    const wrong = code === '000000' ? '111111' : '000000';
    const r = await check(n.id, wrong);
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'verification_code_invalid');
    const malformed = await check(n.id, '12ab56');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'verification_code_invalid');
    assert.equal(
      (await check(n.id, code)).status,
      200,
      'the right code still works after one wrong try',
    );
  });

  it('a code expires after 10 minutes', async () => {
    const n = await addNumber(server, token, '+12015550204');
    const code = await latestCode(server, '+12015550204');
    await advance(server, 10 * 60 + 1);
    const r = await check(n.id, code);
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'verification_code_invalid');
  });

  it('the 5th wrong code locks for 15 minutes: 429 verification_locked with Retry-After, even for the right code and new codes', async () => {
    const n = await addNumber(server, token, '+12015550205');
    const code = await latestCode(server, '+12015550205');
    const wrong = code === '999999' ? '888888' : '999999';
    for (let i = 1; i <= 4; i++)
      assert.equal((await check(n.id, wrong)).status, 400, `wrong try ${i}`);
    const fifth = await check(n.id, wrong);
    assert.equal(fifth.status, 429);
    assert.equal(fifth.body.code, 'verification_locked');
    assert.equal(fifth.headers.get('retry-after'), '900');
    const right = await check(n.id, code);
    assert.equal(right.status, 429);
    assert.equal(right.body.code, 'verification_locked');
    const resend = await start(n.id, {});
    assert.equal(resend.status, 429);
    assert.equal(resend.body.code, 'verification_locked');
    assert.ok(Number(resend.headers.get('retry-after')) > 0);
    const readd = await call(server, 'POST', '/phone-numbers', {
      token,
      body: { e164: '+12015550205' },
    });
    assert.equal(readd.status, 429, 'adding it again sends no code either');
    assert.equal(readd.body.code, 'verification_locked');

    await advance(server, 15 * 60);
    const fresh = await start(n.id, {});
    assert.equal(fresh.status, 200);
    assert.equal((await check(n.id, await latestCode(server, '+12015550205'))).status, 200);
  });

  it('guesses sent all at once still lock after 5 wrong codes', async () => {
    const n = await addNumber(server, token, '+12015550207');
    const code = await latestCode(server, '+12015550207');
    const guesses = Array.from({ length: 12 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const answers = await Promise.all(guesses.map((g) => check(n.id, g)));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [...Array(4).fill(400), ...Array(8).fill(429)]);
    assert.equal((await check(n.id, code)).status, 429, 'locked: even the right code is refused');
  });

  it('verify/start sends a new code by text, or by call when asked (and by default for a landline)', async () => {
    const mobile = await addNumber(server, token, '+447400123201');
    const sms = await start(mobile.id, { channel: 'sms' });
    assert.deepEqual(sms.body, { channel: 'sms', sent: true });
    assert.equal((await textsTo(server, '+447400123201')).length, 2);
    const byCall = await start(mobile.id, { channel: 'call' });
    assert.deepEqual(byCall.body, { channel: 'call', sent: true });
    assert.equal((await textsTo(server, '+447400123201')).length, 2, 'a call, not a text');
    const landline = await addNumber(server, token, '+442079460201');
    assert.deepEqual((await start(landline.id)).body, { channel: 'call', sent: true });
    assert.deepEqual((await start(landline.id, { channel: null })).body, {
      channel: 'call',
      sent: true,
    });
    const bad = await start(landline.id, { channel: 'fax' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validation_error');
  });

  it('a provider failure is reported honestly: sent false with the error', async () => {
    const landline = await addNumber(server, token, '+442079460202');
    assert.equal(
      (
        await call(server, 'PUT', `/dev/phones/${encodeURIComponent('+442079460202')}`, {
          body: { answers: ['fail'] },
        })
      ).status,
      204,
    );
    const r = await start(landline.id);
    assert.equal(r.status, 200);
    assert.equal(r.body.channel, 'call');
    assert.equal(r.body.sent, false);
    assert.equal(r.body.error.code, 'provider_refused');
    assert.equal(typeof r.body.error.detail, 'string');
  });

  it('verifying again lifts a block set by pressing 9 on a demo call (key_9), and the code may be sent to it', async () => {
    const n = await addNumber(server, token, '+12015550206');
    await server.running.deps.db.run(
      `INSERT INTO phone_blocks (e164, reason, blocked_at) VALUES ('+12015550206', 'key_9', ?)`,
      [Date.now()],
    );
    const blocked = (await call(server, 'GET', '/phone-numbers', { token })).body.items.find(
      (x: any) => x.id === n.id,
    );
    assert.equal(blocked.blocked, true);
    assert.equal(blocked.blocked_reason, 'key_9');
    assert.deepEqual((await start(n.id, {})).body, { channel: 'sms', sent: true });
    const r = await check(n.id, await latestCode(server, '+12015550206'));
    assert.equal(r.status, 200);
    assert.equal(r.body.blocked, false);
    assert.equal(r.body.blocked_reason, null);
  });
});

describe('verification lifetime', () => {
  it('verified becomes false once verification_expires_at passes', async () => {
    const server = await startTestServer({ env: PHONE_TEST_ENV });
    try {
      const { token: t } = await signIn(server, 'expiry@example.com');
      const n = await addNumber(server, t, '+12015550202');
      const code = await latestCode(server, '+12015550202');
      const verified = await call(server, 'POST', `/phone-numbers/${n.id}/verify/check`, {
        token: t,
        body: { code },
      });
      assert.equal(verified.body.verified, true);
      assert.equal(
        Date.parse(verified.body.verification_expires_at) - Date.parse(verified.body.verified_at),
        365 * DAY * 1000,
      );
      // Moving the clock a whole year runs a year of runtime ticks; bring the expiry to a
      // minute from now instead (the 365 days are checked above and in the first test).
      const now = Date.parse((await call(server, 'GET', '/dev/clock')).body.now);
      await server.running.deps.db.run(
        'UPDATE phone_numbers SET verification_expires_at = ? WHERE id = ?',
        [now + 60_000, n.id],
      );
      await advance(server, 59);
      assert.equal(
        (await call(server, 'GET', '/phone-numbers', { token: t })).body.items[0].verified,
        true,
        'still verified before expiry',
      );
      await advance(server, 1);
      const after = (await call(server, 'GET', '/phone-numbers', { token: t })).body.items[0];
      assert.equal(after.verified, false, 'not verified at verification_expires_at');
      assert.equal(after.verified_at, verified.body.verified_at);
    } finally {
      await server.close();
    }
  });
});
