/**
 * The demo with a Twilio-compatible provider: the server texts the code and places the demo
 * call through a local fake of the provider's REST API on loopback (never the network); the
 * fake plays the call against the server's signed webhooks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { VirtualClock } from '../../engine/sim/index.js';
import { startFakeTwilio, type FakeTwilio } from '../helpers/fake-twilio.js';
import { call } from '../helpers/phone.js';
import type { TestServer } from '../helpers/server.js';
import { freshNumber, placeDemo, startDemo, startDemoServer } from './demo-fixture.js';

describe('demo through a Twilio-compatible provider', () => {
  let server: TestServer;
  let fake: FakeTwilio;
  const fakeClock = new VirtualClock(Date.parse('2027-05-04T12:00:00Z'));
  before(async () => {
    fake = await startFakeTwilio({ clock: fakeClock });
    server = await startDemoServer({
      WAKEUP_TELEPHONY: 'twilio',
      WAKEUP_SMS: 'twilio',
      WAKEUP_TWILIO_API_URL: fake.url,
      WAKEUP_TWILIO_ACCOUNT_SID: fake.accountSid,
      WAKEUP_TWILIO_AUTH_TOKEN: fake.authToken,
      WAKEUP_TWILIO_FROM: '+12025550100',
    });
  });
  after(async () => {
    await server.close();
    await fake.close();
  });

  it('texts the code as a provider message and places the demo call at the provider; key 1 confirms it', async () => {
    const e164 = freshNumber();
    fake.setPhone(e164, { answers: ['confirm'], ring_seconds: 5 });
    assert.equal((await startDemo(server, { consent: true, e164 })).status, 202);
    const texts = fake.messages.filter((m) => m.to === e164);
    assert.equal(texts.length, 1);
    const code = /(\d{6})/.exec(texts[0]!.body)![1]!;
    assert.deepEqual(
      (await call(server, 'GET', `/dev/outbox?channel=sms&to=${encodeURIComponent(e164)}`)).body
        .items,
      [],
    );

    const r = await placeDemo(server, { e164, code });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await server.running.deps.runtime.idle();
    const placed = [...fake.calls.values()].filter((c) => c.to === e164);
    assert.equal(placed.length, 1, 'the provider received one call');
    await fakeClock.advanceBy(60_000);
    await server.running.deps.runtime.idle();
    assert.match(placed[0]!.spoken.join(' '), /demo wake-up call/);
    const done = await placeDemo(server, { e164, code });
    assert.equal(done.status, 200);
    assert.equal(done.body.state, 'confirmed');
  });

  it('a number the carrier reports opted out gets the same 202, is blocked, and counts against the caps', async () => {
    const e164 = freshNumber();
    fake.optedOut.add(e164);
    const r = await startDemo(server, { consent: true, e164 });
    assert.equal(r.status, 202);
    assert.equal(fake.messages.filter((m) => m.to === e164).length, 0);
    const sent = await server.running.deps.db.all<{ sent: number }>(
      'SELECT sent FROM demo_requests WHERE e164 = ?',
      [e164],
    );
    assert.deepEqual(sent, [{ sent: 0 }], 'the attempt is counted, not marked sent');
    // Blocked (STOP at the carrier): the next start is the silent 202, with no new request.
    assert.equal((await startDemo(server, { consent: true, e164 })).status, 202);
    assert.equal(
      (
        (await server.running.deps.db.get(
          'SELECT COUNT(*) AS n FROM demo_requests WHERE e164 = ?',
          [e164],
        )) as any
      ).n,
      1,
    );
  });
});
