/**
 * One provider request per placement in the normal path (issue 28): the Twilio-compatible
 * adapter lists the provider's calls (GET /Calls.json) only for a placement whose outcome may
 * be unknown (`PlaceCallRequest.outcomeUnknown`, or a create of this attempt that rejected, or
 * the ledger's word that a recovery is sending one), and then never dials without that look-up.
 * Against the fake provider speaking Twilio's wire format, which does not dedupe by key.
 * An adopted call's progress is replayed as events, a finished call's answer and key press first.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { PlaceCallRequest, TelephonyEvent } from '../../engine/index.js';
import { VirtualClock } from '../../engine/sim/index.js';
import { realTime } from '../../host/adapters/clock/system-clock.js';
import { createTwilioClient } from '../../host/adapters/twilio/client.js';
import { TWILIO_WEBHOOK_PATHS } from '../../host/adapters/twilio/paths.js';
import { createTwilioTelephony } from '../../host/adapters/twilio/telephony.js';
import { migrate } from '../../host/db/migrate.js';
import { openSqliteDatabase } from '../../host/db/open.js';
import { createPlacementLedger } from '../../host/db/provider-calls.js';
import type { Db } from '../../host/db/sql.js';
import { startFakeTwilio, type FakeTwilio } from '../helpers/fake-twilio.js';

const WAKE_UP = {
  kind: 'wake_up',
  greetingName: null,
  message: null,
  snoozeAllowed: false,
} as const;

describe('Twilio adapter: the look-up before a create', () => {
  const clock = new VirtualClock(Date.parse('2027-03-14T06:00:00Z'));
  let fake: FakeTwilio;
  let db: Db;
  before(async () => {
    // The calls' webhooks go to a closed port: tried once, not for 15 s each (the look-ups are what is tested).
    fake = await startFakeTwilio({ clock, retryWebhooks: false });
    db = openSqliteDatabase(':memory:');
    await migrate(db);
  });
  after(async () => {
    await fake.close();
    await db.close();
  });

  const adapter = (options: { timeoutMs?: number; baseUrl?: string; publicUrl?: string } = {}) =>
    createTwilioTelephony({
      client: createTwilioClient({
        baseUrl: options.baseUrl ?? fake.url,
        accountSid: fake.accountSid,
        authToken: fake.authToken,
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      }),
      clock,
      from: '+12025550100',
      publicUrl: () => options.publicUrl ?? 'http://127.0.0.1:9',
      text: { serviceName: 'Wakeup', supportContact: 'support@example.com' },
      ledger: createPlacementLedger(
        db,
        { now: () => clock.now(), realTime },
        { unknownOutcomeHoldMs: 500 },
      ),
    });
  const request = (
    key: string,
    to: string,
    extra: Partial<PlaceCallRequest> = {},
  ): PlaceCallRequest => ({
    idempotencyKey: key,
    to,
    script: { kind: 'demo' },
    ringTimeoutSeconds: 30,
    ...extra,
  });
  /** An adapter of a restarted process whose ledger lost the record (it died between the create and the record). */
  const forgetful = () =>
    createTwilioTelephony({
      client: createTwilioClient({
        baseUrl: fake.url,
        accountSid: fake.accountSid,
        authToken: fake.authToken,
      }),
      clock,
      from: '+12025550100',
      publicUrl: () => 'http://127.0.0.1:9',
      text: { serviceName: 'Wakeup', supportContact: 'support@example.com' },
      ledger: {
        exclusive: (_to, fn) => fn(() => undefined),
        ownerOf: () => Promise.resolve(null),
        record: () => Promise.resolve(),
      },
    });
  const counts = () => ({ creates: fake.createCallRequests, lists: fake.listCallRequests });
  const delta = (before: { creates: number; lists: number }) => ({
    creates: fake.createCallRequests - before.creates,
    lists: fake.listCallRequests - before.lists,
  });

  it('a fresh placement sends exactly one request: the create', async () => {
    const t = adapter();
    const before = counts();
    for (let i = 0; i < 10; i++)
      assert.ok((await t.placeCall(request(`fresh-${i}`, `+1415555030${i}`))).ok);
    assert.deepEqual(delta(before), { creates: 10, lists: 0 });
    assert.equal(t.lookups(), 0);
  });

  it('a placement flagged outcomeUnknown looks up first and dials when it finds nothing', async () => {
    const t = adapter();
    const before = counts();
    const r = await t.placeCall(
      request('recovered-1', '+14155550310', { outcomeUnknown: true, requestedAt: clock.now() }),
    );
    assert.ok(r.ok);
    assert.deepEqual(delta(before), { creates: 1, lists: 1 });
  });

  it('a flagged placement of a call that landed adopts it (another host, a restart), even after an outage longer than the window', async () => {
    const to = '+14155550320';
    const requestedAt = clock.now();
    const first = await adapter().placeCall(request('recovered-2', to, { requestedAt }));
    assert.ok(first.ok);
    // The process died before recording the acceptance; the restart comes 45 minutes later.
    await clock.advance(clock.now() + 45 * 60_000);
    const restarted = forgetful();
    const before = counts();
    const again = await restarted.placeCall(
      request('recovered-2', to, { outcomeUnknown: true, requestedAt }),
    );
    assert.ok(again.ok && first.ok);
    assert.equal(again.callId, first.callId, 'adopted: the look-back reaches the intent');
    assert.deepEqual(delta(before), { creates: 0, lists: 1 });
  });

  it('an adopted call that was answered and ended is replayed answered, with its key press, then ended', async () => {
    // The first host serves the call's webhooks (its answer, the Gather, the press of 1), but
    // its events never reach the store: it dies, or is still busy when the call is adopted.
    let first!: ReturnType<typeof adapter>;
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://host');
        const kind =
          url.pathname === TWILIO_WEBHOOK_PATHS.voice
            ? 'voice'
            : url.pathname === TWILIO_WEBHOOK_PATHS.gather
              ? 'gather'
              : 'callStatus';
        const params = Object.fromEntries(new URLSearchParams(body));
        void first.handleCallWebhook(kind, url.searchParams, params).then((r) => {
          res.writeHead(r.status, { 'content-type': r.contentType });
          res.end(r.body);
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      first = adapter({ publicUrl });
      first.onEvent(() => undefined); // handled, never stored
      const to = '+14155550350';
      const requestedAt = clock.now();
      const placed = await first.placeCall(
        request('answered-1', to, { requestedAt, script: WAKE_UP }),
      );
      assert.ok(placed.ok);
      // The phone rings, answers, presses 1 during the Gather, and the call ends.
      for (let i = 0; i < 600 && fake.calls.get(placed.callId)?.status !== 'completed'; i++)
        await clock.advance(clock.now() + 1000);
      assert.equal(fake.calls.get(placed.callId)?.pressed, '1');
      assert.equal(fake.calls.get(placed.callId)?.status, 'completed');

      const restarted = forgetful();
      const events: TelephonyEvent[] = [];
      restarted.onEvent((e) => void events.push(e));
      const again = await restarted.placeCall(
        request('answered-1', to, { outcomeUnknown: true, requestedAt }),
      );
      assert.ok(again.ok && again.callId === placed.callId, 'adopted');
      await clock.advance(clock.now() + 2000); // the replay runs a second after the adoption
      for (let i = 0; i < 100 && events.length < 3; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(
        events.map((e) => (e.type === 'call.digits' ? `digits ${e.digits}` : e.type)),
        ['call.answered', 'digits 1', 'call.ended'],
        'a completed call was answered: never replayed as ended unanswered (no_answer)',
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('a fresh placement of an attempt a recovery elsewhere already placed asks the ledger, not the provider', async () => {
    const to = '+14155550330';
    const recovered = await adapter().placeCall(request('both-1', to, { outcomeUnknown: true }));
    const before = counts();
    const fresh = await adapter().placeCall(request('both-1', to));
    assert.ok(recovered.ok && fresh.ok);
    assert.equal(fresh.callId, recovered.callId);
    assert.deepEqual(delta(before), { creates: 0, lists: 0 });
  });

  it('a create that rejected (outcome unknown) is never sent again without a look-up, flagged or not', async () => {
    // The provider carries the create out only once the client has given up on it. The
    // client's timeout is generous so that the look-ups after it never time out on a busy machine.
    let land!: () => void;
    const slow = await startFakeTwilio({
      clock,
      createGate: new Promise<void>((resolve) => (land = resolve)),
    });
    try {
      const t = adapter({ baseUrl: slow.url, timeoutMs: 2_000 });
      const r = request('timed-out-1', '+14155550340');
      await assert.rejects(t.placeCall(r));
      land();
      // Bounded: a create that never lands fails here, by name, not at the suite's timeout.
      for (let i = 0; i < 500 && slow.calls.size === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(slow.calls.size, 1, 'the create the client gave up on lands at the provider');
      const again = await t.placeCall(r); // no flag: the adapter remembers, and so does the ledger
      assert.ok(again.ok);
      assert.equal(slow.calls.size, 1, 'one call at the provider');
      assert.equal(slow.createCallRequests, 1);
      assert.equal(slow.listCallRequests, 1);
      // Another process (a fresh adapter on the same ledger) placing it without the flag looks up too.
      const other = await adapter({ baseUrl: slow.url }).placeCall(r);
      assert.ok(other.ok && again.ok);
      assert.equal(other.callId, again.callId);
      assert.equal(slow.createCallRequests, 1);
    } finally {
      await slow.close();
    }
  });
});
