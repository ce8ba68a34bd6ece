/**
 * Outbound webhooks through HTTP (issue 31, part 2), on SQLite and PostgreSQL: endpoints
 * (create with the secret shown once, list, get, change, delete, the limit of 10, bad input),
 * scopes, a receiver on loopback (allowed by WAKEUP_WEBHOOK_ALLOW_PRIVATE in these tests) that
 * gets each event once with a signature the `standardwebhooks` package verifies (a confirmed
 * call, a missed one, key 9, STOP and START), a retry after a 500, the delivery log and a
 * redelivery, the test event and a secret rotation, an endpoint turned off after failing for
 * three days (its owner emailed), account deletion and export, two hosts on one database, and
 * targets refused without the setting.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { webhookDeliveryId } from '../../host/db/webhook-outbox.js';
import { COMPONENTS_ID, createAjv } from '../../schema/load.js';
import { req } from '../helpers/http.js';
import { addVerifiedNumber, call, PHONE_TEST_ENV } from '../helpers/phone.js';
import { queryDatabase, signIn, startTestServer, type TestServer } from '../helpers/server.js';
import {
  startReceiver,
  verifyDelivery,
  type Receiver,
  type Received,
} from '../helpers/webhook-receiver.js';

/** Private targets and http allowed: the receiver listens on loopback. */
const WEBHOOK_ENV = {
  ...PHONE_TEST_ENV,
  WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1',
  WAKEUP_WEBHOOK_ALLOW_HTTP: '1',
};

const ajv = createAjv();
const schema = (name: string) => ajv.compile<any>({ $ref: `${COMPONENTS_ID}#/$defs/${name}` });
const secretOut = schema('WebhookEndpointSecretOut');
const endpointOut = schema('WebhookEndpointOut');
const endpointPage = schema('WebhookEndpointPage');
const deliveryPage = schema('WebhookDeliveryPage');
const deliveryOut = schema('WebhookDeliveryOut');
const PAYLOADS: Record<string, ReturnType<typeof schema>> = {
  'occurrence.confirmed': schema('OccurrenceFinishedEvent'),
  'occurrence.missed': schema('OccurrenceFinishedEvent'),
  'occurrence.cancelled': schema('OccurrenceFinishedEvent'),
  'calls.revoked': schema('CallsRevokedEvent'),
  'phone_number.blocked': schema('PhoneNumberBlockEvent'),
  'phone_number.unblocked': schema('PhoneNumberBlockEvent'),
  'schedule.completed': schema('ScheduleCompletedEvent'),
  'webhook.test': schema('WebhookTestEvent'),
};

let numberSeq = 10;
/** A fresh US number per call (the simulated phones are per number). */
const freshNumber = () => `+1201555${String(1000 + numberSeq++).padStart(4, '0')}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each delivery verified with its endpoint's secret and checked against its payload schema. */
function verifyAll(secret: string, received: readonly Received[]): void {
  for (const r of received) {
    const payload = verifyDelivery(secret, r) as { id: string; type: string };
    assert.equal(payload.id, r.id, 'the body carries the webhook-id');
    const check = PAYLOADS[payload.type];
    assert.ok(check, `a schema for ${payload.type}`);
    assert.ok(check(payload), `${payload.type}: ${JSON.stringify(check.errors)}`);
  }
}

/** The ids received more than once. */
const repeated = (received: readonly Received[]) => {
  const count = new Map<string, number>();
  for (const r of received) count.set(r.id, (count.get(r.id) ?? 0) + 1);
  return [...count].filter(([, n]) => n > 1).map(([id]) => id);
};

describe('outbound webhooks', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startTestServer({ env: WEBHOOK_ENV });
    receiver = await startReceiver();
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
  });

  const api = (method: string, path: string, token: string, body?: unknown) =>
    req(server.api, method, path, { token, ...(body !== undefined ? { body } : {}) });
  const create = async (token: string, body: Record<string, unknown>) => {
    const r = await api('POST', '/webhook-endpoints', token, body);
    assert.equal(r.status, 201, r.text);
    return r.body as { id: string; secret: string };
  };
  const now = async () => Date.parse((await req(server.url, 'GET', '/dev/clock')).body.now);
  const clockTo = async (at: number) =>
    assert.equal(
      (await req(server.url, 'POST', '/dev/clock', { body: { to: new Date(at).toISOString() } }))
        .status,
      200,
    );
  const advance = async (seconds: number) =>
    assert.equal(
      (await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: seconds } })).status,
      200,
    );

  /** A one-off call in one minute to a fresh verified number whose phone plays `answers`; the clock moved past it. */
  async function placeCall(
    token: string,
    answers: string[],
  ): Promise<{ occurrenceId: string; scheduleId: string; e164: string }> {
    const e164 = freshNumber();
    const n = await addVerifiedNumber(server, token, e164);
    assert.equal(
      (
        await call(server, 'PUT', `/dev/phones/${encodeURIComponent(e164)}`, {
          body: { answers, ring_seconds: 5 },
        })
      ).status,
      204,
    );
    const s = await call(server, 'POST', '/schedules', {
      token,
      body: {
        kind: 'once',
        in_minutes: 1,
        phone_number_id: n.id,
        retry_policy: { offsets_minutes: [] },
      },
    });
    assert.equal(s.status, 201, JSON.stringify(s.body));
    await advance(120);
    return { occurrenceId: s.body.next_occurrence.id, scheduleId: s.body.id, e164 };
  }

  it('creates an endpoint with its secret shown once; lists, gets, changes and deletes it; at most 10', async () => {
    const { token } = await signIn(server);
    const created = await api('POST', '/webhook-endpoints', token, {
      url: `${receiver.url}/crud`,
      description: 'Lights',
      event_types: ['occurrence.confirmed'],
    });
    assert.equal(created.status, 201, created.text);
    assert.ok(secretOut(created.body), JSON.stringify(secretOut.errors));
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.equal(created.body.secret_hint, created.body.secret.slice(0, 10));
    assert.deepEqual(
      [created.body.enabled, created.body.disabled_reason, created.body.event_types],
      [true, null, ['occurrence.confirmed']],
    );
    const id = created.body.id as string;

    const got = await api('GET', `/webhook-endpoints/${id}`, token);
    assert.equal(got.status, 200);
    assert.ok(endpointOut(got.body), JSON.stringify(endpointOut.errors));
    assert.equal(got.body.secret, undefined, 'GET never shows the secret');
    assert.ok(!got.text.includes(created.body.secret));

    const changed = await api('PATCH', `/webhook-endpoints/${id}`, token, {
      description: 'Hall lights',
      event_types: ['occurrence.missed', 'calls.revoked'],
      enabled: false,
    });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(
      [changed.body.description, changed.body.event_types, changed.body.enabled, changed.body.url],
      ['Hall lights', ['occurrence.missed', 'calls.revoked'], false, `${receiver.url}/crud`],
    );

    // Defaults: every event type.
    const all = await create(token, { url: `${receiver.url}/all` });
    assert.equal(
      (await api('GET', `/webhook-endpoints/${all.id}`, token)).body.event_types.length,
      10,
    );

    for (let i = 0; i < 8; i++) await create(token, { url: `${receiver.url}/n${i}` });
    const over = await api('POST', '/webhook-endpoints', token, { url: `${receiver.url}/eleven` });
    assert.deepEqual([over.status, over.body.code], [409, 'webhook_endpoint_limit']);

    const page1 = await api('GET', '/webhook-endpoints?limit=4', token);
    assert.ok(endpointPage(page1.body), JSON.stringify(endpointPage.errors));
    assert.equal(page1.body.items.length, 4);
    const page2 = await api(
      'GET',
      `/webhook-endpoints?limit=200&cursor=${page1.body.next_cursor}`,
      token,
    );
    assert.equal(page1.body.items.length + page2.body.items.length, 10);
    assert.equal(page2.body.next_cursor, null);

    assert.equal((await api('DELETE', `/webhook-endpoints/${id}`, token)).status, 204);
    assert.equal((await api('GET', `/webhook-endpoints/${id}`, token)).body.code, 'not_found');
    assert.equal((await api('DELETE', `/webhook-endpoints/${id}`, token)).status, 404);
    // Another account sees none of them.
    const other = await signIn(server);
    assert.equal((await api('GET', `/webhook-endpoints/${all.id}`, other.token)).status, 404);
    assert.deepEqual((await api('GET', '/webhook-endpoints', other.token)).body.items, []);
  });

  it('refuses bad URLs (invalid_webhook_url) and bad bodies (validation_error), never with a 500', async () => {
    const { token } = await signIn(server);
    for (const url of [
      'ftp://example.com/x',
      'https://user:pass@example.com/',
      'https://example.com/#frag',
      'not a url',
      `https://example.com/${'a'.repeat(2000)}`,
    ]) {
      const r = await api('POST', '/webhook-endpoints', token, { url });
      assert.deepEqual(
        [r.status, r.body.code, r.body.field],
        [400, 'invalid_webhook_url', 'url'],
        url,
      );
    }
    for (const body of [
      {},
      { url: 5 },
      { url: 'https://example.com/', event_types: [] },
      { url: 'https://example.com/', event_types: ['nope'] },
      { url: 'https://example.com/', event_types: ['calls.revoked', 'calls.revoked'] },
      { url: 'https://example.com/', colour: 'red' },
      { url: 'https://example.com/', description: 'x'.repeat(201) },
    ]) {
      const r = await api('POST', '/webhook-endpoints', token, body);
      assert.deepEqual([r.status, r.body.code], [400, 'validation_error'], JSON.stringify(body));
    }
    const bidi = await api('POST', '/webhook-endpoints', token, {
      url: 'https://example.com/',
      description: 'a\u202eb',
    });
    assert.deepEqual([bidi.status, bidi.body.code], [400, 'message_disallowed_content']);
    const e = await create(token, { url: `${receiver.url}/bad` });
    assert.equal(
      (await api('PATCH', `/webhook-endpoints/${e.id}`, token, { url: 'ftp://x.example/' })).body
        .code,
      'invalid_webhook_url',
    );
    assert.equal(
      (await api('GET', `/webhook-endpoints/${e.id}/deliveries?status=lost`, token)).body.code,
      'validation_error',
    );
    assert.equal((await api('GET', `/webhook-endpoints/not-a-uuid`, token)).status, 404);
    assert.equal(
      (await api('POST', `/webhook-endpoints/${e.id}/deliveries/${randomUUID()}/redeliver`, token))
        .status,
      404,
    );
  });

  it('API keys: write manages endpoints, read lists them and reads the delivery log', async () => {
    const { token } = await signIn(server);
    const key = async (scopes: string[]) =>
      (await api('POST', '/api-keys', token, { name: scopes.join('+'), scopes })).body
        .key as string;
    const read = await key(['read']);
    const write = await key(['write']);
    const both = await key(['read', 'write']);
    const made = await api('POST', '/webhook-endpoints', write, { url: `${receiver.url}/scoped` });
    assert.equal(made.status, 201, 'write creates');
    const id = made.body.id as string;
    for (const [method, path, body] of [
      ['POST', '/webhook-endpoints', { url: `${receiver.url}/x` }],
      ['PATCH', `/webhook-endpoints/${id}`, { enabled: false }],
      ['DELETE', `/webhook-endpoints/${id}`, undefined],
      ['POST', `/webhook-endpoints/${id}/rotate-secret`, undefined],
      ['POST', `/webhook-endpoints/${id}/test`, undefined],
    ] as const) {
      const r = await api(method, path, read, body);
      assert.deepEqual(
        [r.status, r.body.code],
        [403, 'insufficient_scope'],
        `${method} ${path} with a read-only key`,
      );
    }
    assert.equal((await api('GET', '/webhook-endpoints', read)).status, 200);
    assert.equal((await api('GET', `/webhook-endpoints/${id}/deliveries`, read)).status, 200);
    const noRead = await api('GET', `/webhook-endpoints/${id}/deliveries`, write);
    assert.deepEqual(
      [noRead.status, noRead.body.code],
      [403, 'insufficient_scope'],
      'the delivery log needs read',
    );
    assert.equal((await api('POST', `/webhook-endpoints/${id}/test`, both)).status, 202);
    // The general rate limit's headers, as on every API answer.
    assert.ok((await api('GET', '/webhook-endpoints', both)).headers.get('ratelimit-limit'));
  });

  it('a confirmed call: occurrence.confirmed and schedule.completed arrive once each, verified by standardwebhooks', async () => {
    const { token } = await signIn(server);
    receiver.answer(204);
    const path = `/confirmed-${randomUUID()}`;
    const e = await create(token, {
      url: `${receiver.url}${path}`,
      event_types: ['occurrence.confirmed', 'schedule.completed'],
    });
    const quiet = await create(token, {
      url: `${receiver.url}${path}-missed-only`,
      event_types: ['occurrence.missed'],
    });
    const { occurrenceId, scheduleId } = await placeCall(token, ['confirm']);
    const mine = () => receiver.received.filter((r) => r.path === path);
    await receiver.waitFor(
      () => mine().length >= 2,
      15_000,
      'occurrence.confirmed and schedule.completed',
    );
    await sleep(1500); // nothing more comes
    const got = mine();
    assert.deepEqual(got.map((r) => r.json.type).sort(), [
      'occurrence.confirmed',
      'schedule.completed',
    ]);
    assert.deepEqual(repeated(got), []);
    verifyAll(e.secret, got);
    const confirmed = got.find((r) => r.json.type === 'occurrence.confirmed')!;
    assert.equal(confirmed.json.data.occurrence.id, occurrenceId);
    assert.deepEqual(
      [confirmed.json.data.occurrence.status, confirmed.json.data.occurrence.outcome_reason],
      ['confirmed', 'confirmed'],
    );
    assert.equal(
      confirmed.json.data.occurrence.reached_person,
      true,
      'the person who confirmed was reached',
    );
    assert.equal(confirmed.headers['content-type'], 'application/json');
    const completed = got.find((r) => r.json.type === 'schedule.completed')!;
    assert.deepEqual(
      [completed.json.data.schedule.id, completed.json.data.last_occurrence.id],
      [scheduleId, occurrenceId],
    );
    assert.deepEqual(
      receiver.received.filter((r) => r.path === `${path}-missed-only`),
      [],
      'an endpoint subscribed to other events gets nothing',
    );
    // A wrong secret does not verify.
    assert.throws(() => verifyDelivery(quiet.secret, confirmed));

    // The delivery log.
    const log = await api('GET', `/webhook-endpoints/${e.id}/deliveries`, token);
    assert.ok(deliveryPage(log.body), JSON.stringify(deliveryPage.errors));
    assert.deepEqual(
      log.body.items
        .map((d: any) => [d.event_type, d.status, d.attempts, d.response_status])
        .sort(),
      [
        ['occurrence.confirmed', 'delivered', 1, 204],
        ['schedule.completed', 'delivered', 1, 204],
      ],
    );
    for (const d of log.body.items) {
      assert.ok(d.latency_ms >= 0 && d.delivered_at && d.error === null);
      // Made with the event, one per event and endpoint (the same id on both dialects).
      assert.equal(d.id, webhookDeliveryId(d.event_id, e.id));
    }
  });

  it('a receiver answering 500 then 200 gets a retry of the missed call, with the same webhook-id; redelivery sends it again', async () => {
    const { token } = await signIn(server);
    const path = `/retry-${randomUUID()}`;
    const e = await create(token, {
      url: `${receiver.url}${path}`,
      event_types: ['occurrence.missed'],
    });
    receiver.answer(500, 200);
    const mine = () => receiver.received.filter((r) => r.path === path);
    const { occurrenceId } = await placeCall(token, ['no_answer']);
    await receiver.waitFor(() => mine().length >= 1, 15_000, 'the first attempt');
    const first = mine()[0]!;
    assert.equal(first.json.type, 'occurrence.missed');
    assert.equal(first.json.data.occurrence.id, occurrenceId);

    let log = await api('GET', `/webhook-endpoints/${e.id}/deliveries`, token);
    for (let i = 0; i < 40 && log.body.items[0]?.attempts !== 1; i++) {
      await sleep(100);
      log = await api('GET', `/webhook-endpoints/${e.id}/deliveries`, token);
    }
    const pending = log.body.items[0];
    assert.deepEqual(
      [pending.status, pending.attempts, pending.response_status, pending.error],
      ['pending', 1, 500, 'answered 500'],
    );
    assert.equal(
      Date.parse(pending.next_attempt_at) - Date.parse(pending.last_attempt_at),
      5000,
      'the first retry waits 5 s',
    );

    await advance(6);
    await receiver.waitFor(() => mine().length >= 2, 15_000, 'the retry');
    const [, second] = mine();
    assert.equal(second!.id, first.id, 'a retry carries the same webhook-id');
    assert.notEqual(second!.headers['webhook-signature'], undefined);
    verifyAll(e.secret, mine());
    await sleep(300);
    const done = (await api('GET', `/webhook-endpoints/${e.id}/deliveries?status=delivered`, token))
      .body.items;
    assert.deepEqual(
      done.map((d: any) => [d.status, d.attempts, d.response_status, d.error, d.next_attempt_at]),
      [['delivered', 2, 200, null, null]],
    );
    assert.deepEqual(
      (await api('GET', `/webhook-endpoints/${e.id}/deliveries?status=pending`, token)).body.items,
      [],
    );

    const again = await api(
      'POST',
      `/webhook-endpoints/${e.id}/deliveries/${done[0].id}/redeliver`,
      token,
    );
    assert.equal(again.status, 202, again.text);
    assert.ok(deliveryOut(again.body), JSON.stringify(deliveryOut.errors));
    assert.equal(again.body.status, 'pending');
    await receiver.waitFor(() => mine().length >= 3, 15_000, 'the redelivery');
    assert.equal(mine()[2]!.id, first.id);
    assert.equal(mine()[2]!.body, first.body, 'the same body');
    verifyAll(e.secret, mine());
    await sleep(300);
    const after = (await api('GET', `/webhook-endpoints/${e.id}/deliveries`, token)).body.items[0];
    assert.deepEqual([after.status, after.attempts], ['delivered', 3]);
  });

  it('key 9, STOP and START: calls.revoked, occurrence.cancelled, phone_number.blocked and .unblocked', async () => {
    const { token } = await signIn(server);
    receiver.answer(204);
    const path = `/numbers-${randomUUID()}`;
    const e = await create(token, { url: `${receiver.url}${path}` });
    const mine = () => receiver.received.filter((r) => r.path === path);
    const { occurrenceId, e164 } = await placeCall(token, ['stop']);
    await receiver.waitFor(
      () =>
        ['calls.revoked', 'phone_number.blocked', 'occurrence.cancelled'].every((t) =>
          mine().some((r) => r.json.type === t),
        ),
      15_000,
      'the key-9 events',
    );
    const revoked = mine().find((r) => r.json.type === 'calls.revoked')!;
    assert.equal(revoked.json.data.occurrence_id, occurrenceId);
    const blocked = mine().find((r) => r.json.type === 'phone_number.blocked')!;
    assert.deepEqual(
      [blocked.json.data.phone_number.e164, blocked.json.data.reason, blocked.json.data.source],
      [e164, 'key_9', 'keypad'],
    );
    const cancelled = mine().find((r) => r.json.type === 'occurrence.cancelled')!;
    assert.equal(cancelled.json.data.occurrence.outcome_reason, 'stopped');

    assert.equal(
      (await call(server, 'POST', '/dev/sms/inbound', { body: { from: e164, body: 'STOP' } }))
        .status,
      204,
    );
    await receiver.waitFor(
      () =>
        mine().some((r) => r.json.type === 'phone_number.blocked' && r.json.data.reason === 'stop'),
      15_000,
      'STOP',
    );
    assert.equal(
      (await call(server, 'POST', '/dev/sms/inbound', { body: { from: e164, body: 'START' } }))
        .status,
      204,
    );
    await receiver.waitFor(
      () => mine().some((r) => r.json.type === 'phone_number.unblocked'),
      15_000,
      'START',
    );
    const unblocked = mine().find((r) => r.json.type === 'phone_number.unblocked')!;
    assert.deepEqual([unblocked.json.data.reason, unblocked.json.data.source], ['stop', 'sms']);
    await sleep(1000);
    assert.deepEqual(repeated(mine()), []);
    verifyAll(e.secret, mine());
  });

  it('the test event; a rotated secret signs beside the old one for a day', async () => {
    const { token } = await signIn(server);
    receiver.answer(204);
    const path = `/test-${randomUUID()}`;
    const e = await create(token, {
      url: `${receiver.url}${path}`,
      event_types: ['occurrence.missed'],
    });
    const mine = () => receiver.received.filter((r) => r.path === path);
    const sent = await api('POST', `/webhook-endpoints/${e.id}/test`, token);
    assert.equal(sent.status, 202, sent.text);
    assert.ok(deliveryOut(sent.body), JSON.stringify(deliveryOut.errors));
    assert.deepEqual([sent.body.event_type, sent.body.status], ['webhook.test', 'pending']);
    await receiver.waitFor(() => mine().length === 1, 15_000, 'the test event');
    assert.equal(mine()[0]!.id, sent.body.event_id);
    verifyAll(e.secret, mine());

    const rotated = await api('POST', `/webhook-endpoints/${e.id}/rotate-secret`, token);
    assert.equal(rotated.status, 200, rotated.text);
    assert.ok(secretOut(rotated.body), JSON.stringify(secretOut.errors));
    assert.notEqual(rotated.body.secret, e.secret);
    assert.ok(rotated.body.previous_secret_expires_at);
    await api('POST', `/webhook-endpoints/${e.id}/test`, token);
    await receiver.waitFor(() => mine().length === 2, 15_000, 'the second test event');
    const second = mine()[1]!;
    assert.equal(
      String(second.headers['webhook-signature']).split(' ').length,
      2,
      'two signatures during the grace day',
    );
    verifyAll(rotated.body.secret, [second]);
    verifyAll(e.secret, [second]);

    await advance(86_401);
    await api('POST', `/webhook-endpoints/${e.id}/test`, token);
    await receiver.waitFor(() => mine().length === 3, 15_000, 'the third test event');
    const third = mine()[2]!;
    assert.equal(String(third.headers['webhook-signature']).split(' ').length, 1);
    verifyAll(rotated.body.secret, [third]);
    assert.throws(() => verifyDelivery(e.secret, third), 'the old secret no longer signs');
    assert.equal(
      (await api('GET', `/webhook-endpoints/${e.id}`, token)).body.previous_secret_expires_at,
      null,
    );

    // An endpoint turned off takes no test event and no redelivery.
    await api('PATCH', `/webhook-endpoints/${e.id}`, token, { enabled: false });
    const off = await api('POST', `/webhook-endpoints/${e.id}/test`, token);
    assert.deepEqual([off.status, off.body.code], [409, 'webhook_endpoint_disabled']);
  });

  it('an endpoint every attempt of which fails for three days is turned off and its owner emailed', async () => {
    const { token, email } = await signIn(server);
    const path = `/failing-${randomUUID()}`;
    receiver.answer(503);
    const e = await create(token, { url: `${receiver.url}${path}` });
    const mine = () => receiver.received.filter((r) => r.path === path);
    const test = await api('POST', `/webhook-endpoints/${e.id}/test`, token);
    const deliveryId = test.body.id as string;
    const delivery = async () =>
      (await api('GET', `/webhook-endpoints/${e.id}/deliveries`, token)).body.items.find(
        (d: any) => d.id === deliveryId,
      );
    const start = await now();
    for (let attempts = 1; attempts <= 11; attempts++) {
      await receiver.waitFor(() => mine().length >= attempts, 15_000, `attempt ${attempts}`);
      let d = await delivery();
      for (let i = 0; i < 50 && d.attempts < attempts; i++)
        d = (await sleep(100), await delivery());
      assert.equal(d.attempts, attempts);
      if (attempts < 11) {
        assert.equal(d.status, 'pending');
        await clockTo(Date.parse(d.next_attempt_at) + 1000);
      } else assert.equal(d.status, 'failed');
    }
    assert.ok((await now()) - start >= 72 * 3600_000, 'the retries took three days');
    const endpoint = (await api('GET', `/webhook-endpoints/${e.id}`, token)).body;
    assert.deepEqual([endpoint.enabled, endpoint.disabled_reason], [false, 'failing']);
    const outbox = (
      await req(server.url, 'GET', `/dev/outbox?channel=email&to=${encodeURIComponent(email)}`)
    ).body.items as any[];
    const mail = outbox.filter((m) => /webhook endpoint was turned off/.test(m.subject));
    assert.equal(mail.length, 1);
    assert.match(mail[0].body, new RegExp(`${receiver.url}${path}`.replace(/[.]/g, '\\.')));
    // Nothing more goes to it; turning it on forgets the failures.
    await api('POST', '/webhook-endpoints', token, { url: `${receiver.url}/other` });
    const on = await api('PATCH', `/webhook-endpoints/${e.id}`, token, { enabled: true });
    assert.deepEqual(
      [on.body.enabled, on.body.disabled_reason, on.body.failing_since],
      [true, null, null],
    );
  });

  it('account deletion deletes the endpoints at once; the export lists them without secrets', async () => {
    const { token, email } = await signIn(server);
    const path = `/deleted-${randomUUID()}`;
    receiver.answer(500);
    const e = await create(token, { url: `${receiver.url}${path}`, description: 'Home' });
    const mine = () => receiver.received.filter((r) => r.path === path);

    const exported = await req(server.api, 'GET', '/me/export', { token });
    assert.equal(exported.status, 200);
    const endpoints = exported.body.webhook_endpoints as any[];
    assert.deepEqual(
      endpoints.map((x) => [x.id, x.url, x.description, x.event_types.length]),
      [[e.id, `${receiver.url}${path}`, 'Home', 10]],
    );
    assert.ok(!exported.text.includes(e.secret) && !('secret' in endpoints[0]));

    await api('POST', `/webhook-endpoints/${e.id}/test`, token);
    await receiver.waitFor(() => mine().length === 1, 15_000, 'the first attempt');
    await sleep(300); // the failed attempt is recorded: a retry is due in 5 s
    assert.equal((await api('POST', '/me/deletion-code', token)).status, 202);
    const items = (
      await req(server.url, 'GET', `/dev/outbox?channel=email&to=${encodeURIComponent(email)}`)
    ).body.items as any[];
    const code = items.find((i) => /deletion/i.test(i.subject))?.code;
    const del = await api('DELETE', '/me', token, { confirm: 'DELETE', code });
    assert.equal(del.status, 202, del.text);
    receiver.answer(204);
    await advance(3600);
    await sleep(2500); // a poll or two
    assert.equal(mine().length, 1, 'no attempt after the deletion');
  });
});

describe('outbound webhooks on two hosts sharing one database', () => {
  let a: TestServer;
  let b: TestServer;
  let receiver: Receiver;
  before(async () => {
    a = await startTestServer({ env: WEBHOOK_ENV });
    b = await startTestServer({ env: { ...WEBHOOK_ENV, WAKEUP_DB: a.dbFile } });
    receiver = await startReceiver();
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await receiver?.close();
  });

  it('delivers each event once', async () => {
    const { token } = await signIn(a);
    // Four endpoints: an endpoint takes 5 test events an hour.
    const endpoints: Array<{ id: string; secret: string }> = [];
    for (let k = 0; k < 4; k++) {
      const e = await req(a.api, 'POST', '/webhook-endpoints', {
        token,
        body: { url: `${receiver.url}/shared/${k}` },
      });
      assert.equal(e.status, 201, e.text);
      endpoints.push(e.body);
    }
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const host = i % 2 === 0 ? a : b;
      const r = await req(host.api, 'POST', `/webhook-endpoints/${endpoints[i % 4]!.id}/test`, {
        token,
      });
      assert.equal(r.status, 202, r.text);
      ids.push(r.body.event_id);
    }
    await receiver.waitFor(
      (got) => ids.every((id) => got.some((r) => r.id === id)),
      20_000,
      'all 20 events',
    );
    await sleep(2500); // both hosts poll at least twice more
    assert.equal(receiver.received.length, 20);
    assert.deepEqual(repeated(receiver.received), []);
    for (const [k, e] of endpoints.entries())
      verifyAll(
        e.secret,
        receiver.received.filter((r) => r.path === `/shared/${k}`),
      );
  });
});

describe('outbound webhook targets without WAKEUP_WEBHOOK_ALLOW_PRIVATE', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('refuses loopback, private and link-local targets (names resolved by the service), and plain http', async () => {
    const { token } = await signIn(server);
    const post = (url: string) =>
      req(server.api, 'POST', '/webhook-endpoints', { token, body: { url } });
    for (const url of [
      'https://localhost/hook',
      'https://127.0.0.1/hook',
      'https://127.8.9.10:8443/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://10.0.0.8/hook',
      'https://172.20.1.1/hook',
      'https://192.168.1.20:8123/api/webhook/x',
      'https://100.64.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[fe80::1]/hook',
      'https://[fd00::5]/hook',
      'https://0.0.0.0/hook',
      'https://2130706433/hook',
    ]) {
      const r = await post(url);
      assert.deepEqual(
        [r.status, r.body.code, r.body.field],
        [400, 'webhook_target_not_allowed', 'url'],
        url,
      );
    }
    const http = await post('http://example.com/hook');
    assert.deepEqual([http.status, http.body.code], [400, 'invalid_webhook_url']);
    // A public literal address passes (nothing is sent until an event).
    assert.equal((await post('https://93.184.216.34/hook')).status, 201);
  });
});

describe('outbound webhooks at shutdown', () => {
  it('a delivery under way does not hold the shutdown: it is abandoned, to be sent again', async () => {
    const server = await startTestServer({ env: WEBHOOK_ENV });
    const receiver = await startReceiver();
    try {
      const { token } = await signIn(server);
      receiver.answer('hang');
      const e = await req(server.api, 'POST', '/webhook-endpoints', {
        token,
        body: { url: `${receiver.url}/slow` },
      });
      const sent = await req(server.api, 'POST', `/webhook-endpoints/${e.body.id}/test`, { token });
      await receiver.waitFor((got) => got.length === 1, 15_000, 'the attempt');
      const started = Date.now();
      await server.running.close();
      assert.ok(Date.now() - started < 5000, `closed in ${Date.now() - started} ms`);
      const rows = await queryDatabase<{
        status: string;
        attempts: number;
        claimed_by: string | null;
      }>(
        server.dbFile,
        'SELECT status, attempts, claimed_by FROM webhook_deliveries WHERE id = ?',
        [sent.body.id],
      );
      assert.deepEqual(
        rows.map((r) => [r.status, r.attempts, r.claimed_by !== null]),
        [['pending', 0, true]],
        'not recorded: the lease lapses and it goes again',
      );
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});
