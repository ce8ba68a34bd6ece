/**
 * examples/rest-telephony.ts, the example adapter for a REST provider, run against the local
 * fake of a Twilio-compatible provider (test/helpers/fake-twilio.ts) under a runtime: the call
 * is created over REST, its progress arrives through signed webhooks, and the hang-up after the
 * key press carries the attempt's idempotency key.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { createRuntime, type HangUpOptions, type OccurrenceRecord } from '../../engine/index.js';
import { MemoryStore, VirtualClock } from '../../engine/sim/index.js';
import { createRestTelephony } from '../../examples/rest-telephony.js';
import { startFakeTwilio, type FakeTwilio } from '../helpers/fake-twilio.js';

const T0 = Date.parse('2027-03-15T11:00:00Z');
const PHONE = '+14155550123';

describe('examples/rest-telephony.ts against a fake provider', () => {
  let fake: FakeTwilio | undefined;
  let server: Server | undefined;
  after(async () => {
    await fake?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('places the call over REST, follows its webhooks and hangs up with the key', async () => {
    const clock = new VirtualClock(T0);
    fake = await startFakeTwilio({ clock });
    fake.setPhone(PHONE, { answers: ['confirm'], ring_seconds: 3 });
    let handle: Parameters<typeof createServer>[1] = (_req, res) => void res.end();
    server = createServer((req, res) => handle!(req, res));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const rest = createRestTelephony({
      baseUrl: fake.url,
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      from: '+14155550100',
      webhookBase: `http://127.0.0.1:${port}`,
      clock,
    });
    handle = (req, res) => void rest.handle(req, res);
    const hangUps: { callId: string; options?: HangUpOptions }[] = [];
    const telephony = {
      ...rest,
      hangUp: (callId: string, options?: HangUpOptions) => {
        hangUps.push({ callId, ...(options ? { options } : {}) });
        return rest.hangUp(callId, options);
      },
    };
    const store = new MemoryStore();
    let n = 0;
    const ids = { uuid: () => `id-${++n}` };
    const runtime = createRuntime({ clock, ids, store, telephony });
    const ended: OccurrenceRecord[] = [];
    runtime.on('occurrence:status', ({ occurrence }) => {
      if (occurrence.status === 'confirmed') ended.push(occurrence);
    });
    await runtime.start();
    const o = await runtime.schedule({ accountId: 'a1', to: PHONE, scheduledAt: T0 + 1000 });
    for (let s = 0; s < 60 && ended.length === 0; s++) {
      await clock.advanceBy(1000);
      await runtime.idle();
    }
    for (let s = 0; s < 20; s++) {
      await clock.advanceBy(1000); // the closing sentence, then the end of the call
      await runtime.idle();
    }
    await runtime.stop();

    assert.equal(ended.length, 1, 'confirmed');
    const [call] = [...fake.calls.values()];
    assert.equal(fake.calls.size, 1);
    assert.equal(call!.to, PHONE);
    assert.equal(call!.pressed, '1');
    assert.equal(call!.status, 'completed');
    const [attempt] = await store.listAttempts(o.id);
    assert.equal(attempt!.providerCallId, call!.sid);
    assert.equal(hangUps.length, 1);
    assert.equal(hangUps[0]!.callId, call!.sid);
    assert.equal(hangUps[0]!.options?.idempotencyKey, attempt!.id, "hangUp gets the attempt's key");
    assert.ok(call!.spoken.length >= 2, 'the greeting and the closing sentence');
  });
});
