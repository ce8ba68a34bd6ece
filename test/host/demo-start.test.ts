/**
 * POST /demo/start through HTTP on the virtual clock: consent, which numbers may have the
 * demo, the code text (hashed at rest), the per-address limit, the per-number and daily
 * caps with their reset at 00:00 UTC, and the silent 202 for blocked numbers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';
import {
  advance,
  assertSchema,
  clockTo,
  demoCode,
  freshAddress,
  freshNumber,
  secondsToMidnight,
  startDemo,
  startDemoServer,
  textsTo,
} from './demo-fixture.js';

const HIGH_CAPS = { WAKEUP_DEMO_DAILY_CAP: '100000', WAKEUP_DEMO_PREFIX_DAILY_CAP: '100000' };

describe('POST /demo/start', () => {
  let server: TestServer;
  before(async () => {
    server = await startDemoServer(HIGH_CAPS);
  });
  after(() => server.close());

  it('texts a 6-digit code and answers 202 code_sent with the masked number', async () => {
    const e164 = freshNumber();
    const r = await startDemo(server, { consent: true, e164 });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assertSchema('DemoStartOut', r.body);
    assert.deepEqual(r.body, {
      status: 'code_sent',
      channel: 'sms',
      e164_masked: `+1 ••••••${e164.slice(-4)}`,
      code_valid_seconds: 600,
    });
    const texts = await textsTo(server, e164);
    assert.equal(texts.length, 1);
    assert.match(texts[0]!.code!, /^\d{6}$/);
    assert.match(texts[0]!.body, /demo code/);
    assert.match(texts[0]!.body, /STOP/);
  });

  it('stores the code only as a hash', async () => {
    const e164 = freshNumber();
    const code = await demoCode(server, e164);
    const rows = await server.running.deps.db.all<Record<string, unknown>>(
      'SELECT * FROM demo_requests WHERE e164 = ?',
      [e164],
    );
    assert.equal(rows.length, 1);
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(code), 'the plain code is nowhere in the row');
    assert.match(String(rows[0]!.code_hash), /^[0-9a-f]{64}$/);
  });

  it('requires consent true: false, null or absent give 400 confirmation_required and send nothing', async () => {
    const e164 = freshNumber();
    for (const body of [{ consent: false, e164 }, { consent: null, e164 }, { e164 }]) {
      const r = await startDemo(server, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.code, 'confirmation_required');
      assert.equal(r.body.field, 'consent');
    }
    assert.equal((await textsTo(server, e164)).length, 0);
  });

  it('refuses malformed input: 400 invalid_phone_number, validation_error for a missing number or unknown field', async () => {
    assert.equal(
      (await startDemo(server, { consent: true, e164: '12015550123' })).body.code,
      'invalid_phone_number',
    );
    assert.equal(
      (await startDemo(server, { consent: true, e164: '+18005550123' })).body.code,
      'invalid_phone_number',
    ); // toll-free
    const missing = await startDemo(server, { consent: true });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'validation_error');
    const unknown = await startDemo(server, { consent: true, e164: freshNumber(), extra: 1 });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'validation_error');
  });

  it('offers the demo to mobile and landline numbers of tier A countries only (else 403 demo_not_available)', async () => {
    const refused = [
      '+5511987654321', // Brazil, tier B mobile
      '+447624123456', // Isle of Man mobile, tier B
      '+2348031234567', // Nigeria: not a destination at all
      '+445612345678', // UK VoIP range
    ];
    for (const e164 of refused) {
      const r = await startDemo(server, { consent: true, e164 });
      assert.equal(r.status, 403, `${e164}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'demo_not_available');
      assert.equal((await textsTo(server, e164)).length, 0);
    }
    for (const e164 of ['+447400123456', '+442071838750', '+33612345678']) {
      // UK mobile, UK landline, French mobile: tier A.
      const r = await startDemo(server, { consent: true, e164 });
      assert.equal(r.status, 202, `${e164}: ${JSON.stringify(r.body)}`);
      assert.equal((await textsTo(server, e164)).length, 1);
    }
  });

  it('a blocked number gets the same 202 and no text', async () => {
    const e164 = freshNumber();
    const stop = await call(server, 'POST', '/dev/sms/inbound', {
      body: { from: e164, body: 'STOP' },
    });
    assert.equal(stop.status, 204);
    const r = await startDemo(server, { consent: true, e164 });
    assert.equal(r.status, 202);
    assert.deepEqual(r.body, {
      status: 'code_sent',
      channel: 'sms',
      e164_masked: `+1 ••••••${e164.slice(-4)}`,
      code_valid_seconds: 600,
    });
    assert.equal((await textsTo(server, e164)).length, 0);
  });

  it('sends at most 2 codes a day to one number (429 demo_rate_limited, Retry-After to 00:00 UTC), and resets at 00:00 UTC', async () => {
    const e164 = freshNumber();
    await demoCode(server, e164);
    await demoCode(server, e164);
    const third = await startDemo(server, { consent: true, e164 });
    assert.equal(third.status, 429);
    assert.equal(third.body.code, 'demo_rate_limited');
    assert.equal(third.headers.get('retry-after'), String(secondsToMidnight(server)));
    assert.equal((await textsTo(server, e164)).length, 2);

    // One second before midnight UTC: still refused; at midnight: a new day.
    const day = new Date(server.running.deps.clock.now()).toISOString().slice(0, 10);
    await clockTo(server, `${day}T23:59:59Z`);
    const late = await startDemo(server, { consent: true, e164 });
    assert.equal(late.status, 429);
    assert.equal(late.headers.get('retry-after'), '1');
    await advance(server, 1);
    await demoCode(server, e164);
  });
});

describe('POST /demo/start: 3 starts an hour per client address', () => {
  let server: TestServer;
  before(async () => {
    server = await startDemoServer(HIGH_CAPS);
  });
  after(() => server.close());

  it('counts every start, refused ones included, and the 4th in the hour is 429 demo_rate_limited', async () => {
    const address = freshAddress();
    // A refused start (403) and a silent one still count.
    assert.equal(
      (await startDemo(server, { consent: true, e164: '+5511987654321' }, address)).status,
      403,
    );
    assert.equal(
      (await startDemo(server, { consent: false, e164: freshNumber() }, address)).status,
      400,
    );
    const third = await startDemo(server, { consent: true, e164: freshNumber() }, address);
    assert.equal(third.status, 202);
    assert.equal(third.headers.get('ratelimit-limit'), '3');
    assert.equal(third.headers.get('ratelimit-remaining'), '0');
    const e164 = freshNumber();
    const fourth = await startDemo(server, { consent: true, e164 }, address);
    assert.equal(fourth.status, 429);
    assert.equal(fourth.body.code, 'demo_rate_limited');
    const retry = Number(fourth.headers.get('retry-after'));
    assert.ok(retry > 3500 && retry <= 3600, `Retry-After ${retry}`);
    assert.equal((await textsTo(server, e164)).length, 0);
    // Another address is not affected.
    assert.equal((await startDemo(server, { consent: true, e164 })).status, 202);
    // An hour later the address may start again.
    await advance(server, 3600);
    assert.equal(
      (await startDemo(server, { consent: true, e164: freshNumber() }, address)).status,
      202,
    );
  });

  it('keys on the address the host derives (ctx.ip), not on the number', async () => {
    const address = freshAddress();
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await startDemo(server, { consent: true, e164: freshNumber() }, address)).status,
        202,
      );
    assert.equal(
      (await startDemo(server, { consent: true, e164: freshNumber() }, address)).status,
      429,
    );
  });
});

describe('POST /demo/start: daily caps', () => {
  it('the global daily cap: 429 demo_rate_limited with Retry-After to 00:00 UTC, reset at 00:00 UTC', async () => {
    const server = await startDemoServer({
      WAKEUP_DEMO_DAILY_CAP: '3',
      WAKEUP_DEMO_PREFIX_DAILY_CAP: '100',
    });
    try {
      await demoCode(server, freshNumber());
      await demoCode(server, '+447400123456');
      await demoCode(server, freshNumber());
      const e164 = '+33612345678';
      const r = await startDemo(server, { consent: true, e164 });
      assert.equal(r.status, 429);
      assert.equal(r.body.code, 'demo_rate_limited');
      assert.equal(r.headers.get('retry-after'), String(secondsToMidnight(server)));
      assert.equal((await textsTo(server, e164)).length, 0);
      await clockTo(server, '2027-05-04T23:59:59Z');
      assert.equal((await startDemo(server, { consent: true, e164 })).status, 429);
      await clockTo(server, '2027-05-05T00:00:00Z');
      await demoCode(server, e164);
    } finally {
      await server.close();
    }
  });

  it('the country-prefix cap: numbers of one calling code stop at the cap, others go on', async () => {
    const server = await startDemoServer({
      WAKEUP_DEMO_DAILY_CAP: '100',
      WAKEUP_DEMO_PREFIX_DAILY_CAP: '2',
    });
    try {
      await demoCode(server, freshNumber());
      await demoCode(server, '+14155550123');
      const e164 = freshNumber();
      const r = await startDemo(server, { consent: true, e164 });
      assert.equal(r.status, 429);
      assert.equal(r.body.code, 'demo_rate_limited');
      assert.ok(Number(r.headers.get('retry-after')) > 0);
      assert.equal((await textsTo(server, e164)).length, 0);
      await demoCode(server, '+447400123456'); // +44 has its own allowance
      await clockTo(server, '2027-05-05T00:00:00Z');
      await demoCode(server, e164);
    } finally {
      await server.close();
    }
  });

  it('a daily cap of 0 turns the demo off: 403 demo_not_available on both endpoints, nothing sent', async () => {
    const server = await startDemoServer({ WAKEUP_DEMO_DAILY_CAP: '0' });
    try {
      const e164 = freshNumber();
      const r = await startDemo(server, { consent: true, e164 });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'demo_not_available');
      const c = await call(server, 'POST', '/demo/call', { body: { e164, code: '123456' } });
      assert.equal(c.status, 403);
      assert.equal(c.body.code, 'demo_not_available');
      assert.equal((await textsTo(server, e164)).length, 0);
    } finally {
      await server.close();
    }
  });
});
