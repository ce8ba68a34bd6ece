/**
 * The Twilio-compatible adapter against the Telephony conformance suite, over real HTTP on
 * loopback: the adapter's REST client talks to the fake provider, and the fake calls the
 * adapter's webhooks (signed) on a small server standing in for the host's routes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VirtualClock } from '../../engine/sim/index.js';
import { runTelephonyConformance } from '../../engine/testing/index.js';
import { createTwilioClient } from '../../host/adapters/twilio/client.js';
import { createTwilioTelephony } from '../../host/adapters/twilio/telephony.js';
import { createTwilioWebhooks } from '../../host/adapters/twilio/webhooks.js';
import { startFakeTwilio } from '../helpers/fake-twilio.js';

runTelephonyConformance('Twilio-compatible adapter (local fake provider)', async () => {
  const clock = new VirtualClock(Date.parse('2027-03-14T06:00:00Z'));
  const fake = await startFakeTwilio({ clock });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const url = new URL(req.url ?? '/', publicUrl);
    const signature = req.headers['x-twilio-signature'];
    const r = await webhooks.handle(url.pathname, {
      url: publicUrl + (req.url ?? ''),
      params,
      signature: typeof signature === 'string' ? signature : undefined,
    });
    res.writeHead(r.status, { 'content-type': r.contentType });
    res.end(r.body);
  };
  // A handler that throws answers 500 instead of leaving the request hanging (and the rejection unhandled).
  const hooks = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  const publicUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
  const client = createTwilioClient({
    baseUrl: fake.url,
    accountSid: fake.accountSid,
    authToken: fake.authToken,
  });
  const telephony = createTwilioTelephony({
    client,
    clock,
    from: '+12025550100',
    publicUrl: () => publicUrl,
    text: { serviceName: 'Wakeup', supportContact: 'support@example.com' },
  });
  const webhooks = createTwilioWebhooks({ authToken: fake.authToken, telephony });
  return {
    telephony,
    setPhone: (to, behaviour) => fake.setPhone(to, { answers: [behaviour], ring_seconds: 5 }),
    advance: async (ms) => {
      await clock.advanceBy(ms);
    },
    close: async () => {
      await fake.close();
      hooks.closeAllConnections();
      await new Promise<void>((resolve) => hooks.close(() => resolve()));
    },
  };
});
