import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signIn, startTestServer } from '../helpers/server.js';
import { addNumber, advance, call } from '../helpers/phone.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

// Limits (host/phone/limits.ts): per number 5 an hour / 10 a day; per account 10 an hour /
// 20 a day; per client IP 20 an hour. Each test uses its own server so that counts start at 0.
describe('abuse limits on sending codes: 429 rate_limited', () => {
  let server: Server;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('per number: 5 codes an hour, then 429 with Retry-After; other numbers are not affected; the next hour allows more', async () => {
    const { token } = await signIn(server, 'limit-number@example.com');
    const n = await addNumber(server, token, '+12015550401');
    for (let i = 0; i < 4; i++) {
      assert.equal(
        (await call(server, 'POST', `/phone-numbers/${n.id}/verify/start`, { token, body: {} }))
          .status,
        200,
        `resend ${i + 1}`,
      );
    }
    const sixth = await call(server, 'POST', `/phone-numbers/${n.id}/verify/start`, {
      token,
      body: {},
    });
    assert.equal(sixth.status, 429);
    assert.equal(sixth.body.code, 'rate_limited');
    assert.ok(Number(sixth.headers.get('retry-after')) > 0);
    assert.ok(sixth.headers.get('ratelimit-policy'));
    assert.equal(
      (await call(server, 'POST', '/phone-numbers', { token, body: { e164: '+12015550402' } }))
        .status,
      201,
    );
    await advance(server, 3600);
    assert.equal(
      (await call(server, 'POST', `/phone-numbers/${n.id}/verify/start`, { token, body: {} }))
        .status,
      200,
    );
  });
});

describe('abuse limits per account and per client IP', () => {
  let server: Server;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('per account: 10 codes an hour; the 11th add is refused and stores nothing', async () => {
    const { token } = await signIn(server, 'limit-account@example.com');
    for (let i = 0; i < 10; i++)
      await addNumber(server, token, `+120155505${String(i).padStart(2, '0')}`);
    const r = await call(server, 'POST', '/phone-numbers', {
      token,
      body: { e164: '+12015550510' },
    });
    assert.equal(r.status, 429);
    assert.equal(r.body.code, 'rate_limited');
    assert.equal((await call(server, 'GET', '/phone-numbers', { token })).body.items.length, 10);
  });

  it('per client IP: 20 codes an hour across accounts', async () => {
    // The first test's account already sent 10 codes from this address.
    const { token } = await signIn(server, 'limit-ip-1@example.com');
    for (let i = 0; i < 10; i++)
      await addNumber(server, token, `+120155506${String(i).padStart(2, '0')}`);
    const { token: third } = await signIn(server, 'limit-ip-2@example.com');
    const r = await call(server, 'POST', '/phone-numbers', {
      token: third,
      body: { e164: '+12015550700' },
    });
    assert.equal(r.status, 429);
    assert.equal(r.body.code, 'rate_limited');
    assert.match(r.body.detail, /network address/);
  });
});
