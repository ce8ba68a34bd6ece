/**
 * Several hosts behind one load balancer: a call's webhooks may reach different instances of
 * the Twilio adapter, which share only the database's event log. The answer served by one and
 * the keypad digits received by another must still make one `answered` and one `digits`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TelephonyEvent } from '../../engine/index.js';
import { VirtualClock } from '../../engine/sim/index.js';
import { createTwilioClient } from '../../host/adapters/twilio/client.js';
import { createTwilioTelephony } from '../../host/adapters/twilio/telephony.js';
import type { EventLog } from '../../host/ports/telephony.js';

function instance(log: EventLog, events: TelephonyEvent[]) {
  const telephony = createTwilioTelephony({
    client: createTwilioClient({
      baseUrl: 'http://127.0.0.1:9',
      accountSid: 'AC00000000000000000000000000000000',
      authToken: 't',
    }),
    clock: new VirtualClock(Date.UTC(2027, 2, 15, 7, 0)),
    from: '+12025550100',
    publicUrl: () => 'https://wakeup.example.com',
    text: { serviceName: 'Wakeup', supportContact: 'support@example.com' },
    events: log,
  });
  telephony.onEvent((e) => {
    events.push(e);
  });
  return telephony;
}

describe('Twilio webhooks on several hosts', () => {
  it('applies digits on a host that did not serve the answer, once', async () => {
    const seen = new Set<string>();
    const log: EventLog = {
      seen: (k) => Promise.resolve(seen.has(k)),
      record: (k) => Promise.resolve(void seen.add(k)),
    };
    const onA: TelephonyEvent[] = [];
    const onB: TelephonyEvent[] = [];
    const a = instance(log, onA);
    const b = instance(log, onB);
    const q = new URLSearchParams({ k: 'attempt-1' });
    await a.handleCallWebhook('voice', q, { CallSid: 'CA1', AnsweredBy: 'human' });
    const twiml = await b.handleCallWebhook('gather', q, { CallSid: 'CA1', Digits: '1' });
    assert.equal(twiml.status, 200);
    assert.deepEqual(
      onA.map((e) => e.type),
      ['call.answered'],
    );
    assert.deepEqual(
      onB.map((e) => e.type),
      ['call.digits'],
      'the digits reach the engine; the answer is not repeated',
    );
    assert.equal((onB[0] as { digits: string }).digits, '1');
    // A replay of the gather on either host changes nothing.
    await a.handleCallWebhook('gather', q, { CallSid: 'CA1', Digits: '1' });
    await b.handleCallWebhook('gather', q, { CallSid: 'CA1', Digits: '1' });
    assert.equal([...onA, ...onB].filter((e) => e.type === 'call.digits').length, 1);
  });

  it('keeps the duration of an answered call when its completed status reaches another host', async () => {
    const seen = new Set<string>();
    const log: EventLog = {
      seen: (k) => Promise.resolve(seen.has(k)),
      record: (k) => Promise.resolve(void seen.add(k)),
    };
    const onA: TelephonyEvent[] = [];
    const onC: TelephonyEvent[] = [];
    const a = instance(log, onA);
    const c = instance(log, onC);
    const q = new URLSearchParams({ k: 'attempt-2' });
    await a.handleCallWebhook('voice', q, { CallSid: 'CA2', AnsweredBy: 'human' });
    await c.handleCallWebhook('callStatus', q, {
      CallSid: 'CA2',
      CallStatus: 'completed',
      CallDuration: '42',
    });
    assert.deepEqual(
      onC.map((e) => e.type),
      ['call.ended'],
    );
    assert.equal((onC[0] as { durationSeconds: number | null }).durationSeconds, 42);
  });
});
