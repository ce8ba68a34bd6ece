/**
 * Devices through HTTP: the upsert by installation_id (201 then 200), credentials (API key
 * 403, web session allowed), 10 registrations a minute, the push token never returned nor
 * stored in clear, PATCH, DELETE ending the bound app sessions, the 21-device eviction
 * (device seen longest ago, its app signed out), last_seen_at moved by a bound session,
 * and time-zone reports (zone policy, reported_at, a report never moves a call).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { requestCode, storedText } from '../helpers/server.js';
import { req } from '../helpers/http.js';
import { call } from '../helpers/phone.js';
import { assertSchema, create, setup, type Fixture } from './schedules-fixture.js';

/** Signs the fixture's account in again as the app, bound to `installationId` (or not). */
async function appSession(
  f: Fixture,
  email: string,
  installationId: string | null,
): Promise<string> {
  await f.advance(1201); // at most 5 sign-in codes an hour go to one address
  const code = await requestCode(f.server, email);
  const r = await req(f.server.api, 'POST', '/auth/email/verify', {
    body: {
      email,
      code,
      client: 'app',
      ...(installationId ? { installation_id: installationId } : {}),
    },
  });
  assert.equal(r.status, 200, r.text);
  return r.body.session_token;
}

async function emailOf(f: Fixture): Promise<string> {
  return (
    (await f.server.running.deps.db.get('SELECT email FROM accounts WHERE id = ?', [
      f.accountId,
    ])) as { email: string }
  ).email;
}

const device = (installation_id: string, extra: Record<string, unknown> = {}) => ({
  installation_id,
  platform: 'ios',
  ...extra,
});

describe('devices', () => {
  let f: Fixture;
  let email: string;
  before(async () => {
    f = await setup();
    email = await emailOf(f);
  });
  after(async () => {
    await f.server.close();
  });

  it('time-zone report: zone policy, reported_at stored (a stale one does not replace a newer), a report never moves a call', async () => {
    const token = await appSession(f, email, null);
    const s = await create(f, { kind: 'once', local_date: '2027-03-11', local_time: '07:00' });
    const d = (await call(f.server, 'POST', '/devices', { token, body: device(randomUUID()) }))
      .body;
    const path = `/devices/${d.id}/timezone`;
    for (const [zone, code] of [
      ['Mars/Olympus', 'invalid_timezone'],
      ['EST', 'invalid_timezone'],
      ['Etc/GMT+5', 'timezone_not_allowed'],
    ] as const) {
      const r = await call(f.server, 'POST', path, { token, body: { timezone: zone } });
      assert.deepEqual([r.status, r.body.code, r.body.field], [400, code, 'timezone'], zone);
    }
    const missing = await call(f.server, 'POST', path, { token, body: {} });
    assert.deepEqual([missing.status, missing.body.code], [400, 'validation_error']);

    const r = await call(f.server, 'POST', path, {
      token,
      body: { timezone: 'Asia/Tokyo', reported_at: '2027-03-10T11:00:00Z' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assertSchema('TimezoneContext', r.body);
    assert.deepEqual(
      [
        r.body.device_id,
        r.body.device_timezone,
        r.body.device_timezone_reported_at,
        r.body.home_timezone,
      ],
      [d.id, 'Asia/Tokyo', '2027-03-10T11:00:00Z', 'America/New_York'],
    );
    assert.equal(r.body.mismatches.length, 1);
    const stale = await call(f.server, 'POST', path, {
      token,
      body: { timezone: 'Europe/Paris', reported_at: '2027-03-10T10:00:00Z' },
    });
    assert.deepEqual(
      [stale.status, stale.body.device_timezone],
      [200, 'Asia/Tokyo'],
      'an older report does not replace a newer one',
    );
    const future = await call(f.server, 'POST', path, {
      token,
      body: { timezone: 'Europe/Paris', reported_at: '2030-01-01T00:00:00Z' },
    });
    const now = (await call(f.server, 'GET', '/dev/clock')).body.now;
    assert.equal(
      future.body.device_timezone_reported_at,
      now,
      'a future reported_at counts as now',
    );

    const occ = await f.api('GET', `/occurrences/${s.next_occurrence.id}`);
    assert.deepEqual(
      [occ.body.status, occ.body.scheduled_at, occ.body.derivation_source],
      ['pending', '2027-03-11T12:00:00Z', 'one_off'],
    );
    const sched = await f.api('GET', `/schedules/${s.id}`);
    assert.equal(sched.body.timezone, 'America/New_York', 'the report never moves a call');
    await f.api('DELETE', `/schedules/${s.id}`);
  });

  it('POST /devices upserts by installation_id: 201 new, 200 known, same id; the push token is never returned nor stored in clear', async () => {
    await f.advance(61); // a fresh window of the 10-a-minute limit
    const token = await appSession(f, email, null);
    const inst = randomUUID();
    const pushToken = `push-${randomUUID()}-secret`;
    const first = await call(f.server, 'POST', '/devices', {
      token,
      body: device(inst, {
        push_token: pushToken,
        app_version: '1.2.0',
        model: 'iPhone 15',
        alarm_capability: 'exact',
      }),
    });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assertSchema('DeviceOut', first.body);
    assert.equal(first.body.push_token_set, true);
    assert.equal(JSON.stringify(first.body).includes(pushToken), false);
    assert.deepEqual([first.body.timezone, first.body.timezone_reported_at], [null, null]);
    // SQLite: the file and its WAL; PostgreSQL: every row as text, while the token is set.
    const stored = await storedText(f.server);
    assert.ok(stored.includes(inst), 'the stored data holds the device');
    assert.equal(stored.includes(pushToken), false, 'push token not in the database in clear');

    const again = await call(f.server, 'POST', '/devices', {
      token,
      body: device(inst, { app_version: '1.3.0', timezone: 'Europe/Paris' }),
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.body.id);
    assert.deepEqual(
      [again.body.app_version, again.body.model, again.body.push_token_set, again.body.timezone],
      ['1.3.0', 'iPhone 15', true, 'Europe/Paris'],
      'fields left out are kept',
    );
    const cleared = await call(f.server, 'POST', '/devices', {
      token,
      body: device(inst, { push_token: null }),
    });
    assert.equal(cleared.body.push_token_set, false);

    assert.equal(
      (await storedText(f.server)).includes(pushToken),
      false,
      'push token not in the database in clear',
    );
  });

  it('an API key gets 403 insufficient_scope on POST and DELETE, but may PATCH; a web session may register', async () => {
    await f.advance(61); // a fresh window of the 10-a-minute limit
    const token = await appSession(f, email, null);
    const d = await call(f.server, 'POST', '/devices', { token, body: device(randomUUID()) });
    assert.equal(d.status, 201);
    const key = (await call(f.server, 'POST', '/api-keys', { token, body: { name: 'script' } }))
      .body.key;
    const post = await call(f.server, 'POST', '/devices', {
      token: key,
      body: device(randomUUID()),
    });
    assert.deepEqual([post.status, post.body.code], [403, 'insufficient_scope']);
    const del = await call(f.server, 'DELETE', `/devices/${d.body.id}`, { token: key });
    assert.deepEqual([del.status, del.body.code], [403, 'insufficient_scope']);
    const patch = await call(f.server, 'PATCH', `/devices/${d.body.id}`, {
      token: key,
      body: { os_version: '18.1' },
    });
    assert.deepEqual([patch.status, patch.body.os_version], [200, '18.1']);

    const code = await requestCode(f.server, email);
    const v = await req(f.server.api, 'POST', '/auth/email/verify', {
      body: { email, code, client: 'web' },
    });
    const cookie = v.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const web = await req(f.server.api, 'POST', '/devices', {
      headers: { cookie, 'x-csrftoken': v.body.csrf_token },
      body: { installation_id: randomUUID(), platform: 'web' },
    });
    assert.equal(web.status, 201, web.text);
  });

  it('PATCH: null leaves a field unchanged except push_token and timezone (null clears); another account gets 404', async () => {
    await f.advance(61); // a fresh window of the 10-a-minute limit
    const token = await appSession(f, email, null);
    const d = (
      await call(f.server, 'POST', '/devices', {
        token,
        body: device(randomUUID(), { model: 'Pixel', push_token: 'abc' }),
      })
    ).body;
    const p = await call(f.server, 'PATCH', `/devices/${d.id}`, {
      token,
      body: { model: null, app_version: '2.0', timezone: 'Asia/Tokyo' },
    });
    assert.equal(p.status, 200);
    assert.deepEqual(
      [p.body.model, p.body.app_version, p.body.timezone, p.body.push_token_set],
      ['Pixel', '2.0', 'Asia/Tokyo', true],
    );
    assert.ok(p.body.timezone_reported_at);
    const c = await call(f.server, 'PATCH', `/devices/${d.id}`, {
      token,
      body: { push_token: null, timezone: null },
    });
    assert.deepEqual(
      [c.body.push_token_set, c.body.timezone, c.body.timezone_reported_at],
      [false, null, null],
    );
    const bad = await call(f.server, 'PATCH', `/devices/${d.id}`, {
      token,
      body: { timezone: 'EST' },
    });
    assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_timezone']);
    const unknown = await call(f.server, 'PATCH', `/devices/${d.id}`, {
      token,
      body: { colour: 'red' },
    });
    assert.deepEqual([unknown.status, unknown.body.code], [400, 'validation_error']);

    const other = await setupOther(f);
    const foreign = await call(f.server, 'PATCH', `/devices/${d.id}`, {
      token: other,
      body: { model: 'x' },
    });
    assert.deepEqual([foreign.status, foreign.body.code], [404, 'not_found']);
    const foreignDel = await call(f.server, 'DELETE', `/devices/${d.id}`, { token: other });
    assert.deepEqual([foreignDel.status, foreignDel.body.code], [404, 'not_found']);
  });

  it('DELETE removes the device and ends the app sessions bound to its installation (401 session_expired), and no other', async () => {
    await f.advance(61); // a fresh window of the 10-a-minute limit
    const inst = randomUUID();
    const bound = await appSession(f, email, inst);
    const other = await appSession(f, email, null);
    const d = await call(f.server, 'POST', '/devices', { token: bound, body: device(inst) });
    assert.equal(d.status, 201);
    assert.equal((await call(f.server, 'GET', '/me', { token: bound })).status, 200);
    const del = await call(f.server, 'DELETE', `/devices/${d.body.id}`, { token: other });
    assert.equal(del.status, 204);
    const after = await call(f.server, 'GET', '/me', { token: bound });
    assert.deepEqual([after.status, after.body.code], [401, 'session_expired']);
    assert.equal((await call(f.server, 'GET', '/me', { token: other })).status, 200);
    const gone = await call(f.server, 'PATCH', `/devices/${d.body.id}`, { token: other, body: {} });
    assert.equal(gone.status, 404);
  });

  it('an app session signed in without installation_id is bound by its POST /devices', async () => {
    await f.advance(61); // a fresh window of the 10-a-minute limit
    const inst = randomUUID();
    const token = await appSession(f, email, null);
    const d = await call(f.server, 'POST', '/devices', { token, body: device(inst) });
    const other = await appSession(f, email, null);
    assert.equal(
      (await call(f.server, 'DELETE', `/devices/${d.body.id}`, { token: other })).status,
      204,
    );
    assert.equal((await call(f.server, 'GET', '/me', { token })).body.code, 'session_expired');
  });

  it('at most 10 registrations a minute per account (429 rate_limited with Retry-After)', async () => {
    await f.advance(120);
    const token = await appSession(f, email, null);
    const inst = randomUUID();
    for (let i = 0; i < 10; i++) {
      const r = await call(f.server, 'POST', '/devices', { token, body: device(inst) });
      assert.ok(r.status === 200 || r.status === 201, `request ${i + 1}: ${r.status}`);
      assert.equal(r.headers.get('ratelimit-policy'), '10;w=60');
    }
    const refused = await call(f.server, 'POST', '/devices', { token, body: device(inst) });
    assert.deepEqual([refused.status, refused.body.code], [429, 'rate_limited']);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    await f.advance(61);
    assert.equal(
      (await call(f.server, 'POST', '/devices', { token, body: device(inst) })).status,
      200,
    );
  });
});

describe('the 21st device', () => {
  let f: Fixture;
  after(async () => {
    await f.server.close();
  });

  it('is accepted; the device seen longest ago is removed and its app signed out; a bound session in use keeps its device', async () => {
    f = await setup();
    const email = await emailOf(f);
    const count = async () =>
      (
        (await f.server.running.deps.db.get(
          'SELECT COUNT(*) AS n FROM devices WHERE account_id = ?',
          [f.accountId],
        )) as { n: number }
      ).n;
    let made = 0;
    const register = async (token: string, inst: string) => {
      if (++made % 10 === 0) await f.advance(61); // the 10-a-minute limit
      const r = await call(f.server, 'POST', '/devices', { token, body: device(inst) });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return r.body;
    };
    const i0 = randomUUID();
    const i1 = randomUUID();
    const s0 = await appSession(f, email, i0);
    const s1 = await appSession(f, email, i1);
    const d0 = await register(s0, i0);
    const d1 = await register(s1, i1);
    await f.advance(5);
    assert.equal(
      (await call(f.server, 'GET', '/me', { token: s0 })).status,
      200,
      'd0 seen again through its bound session',
    );
    const seen = await call(f.server, 'PATCH', `/devices/${d0.id}`, { token: f.token, body: {} });
    assert.ok(
      Date.parse(seen.body.last_seen_at) > Date.parse(d0.last_seen_at),
      'last_seen_at moved by the bound session',
    );

    // The fixture's session becomes bound to the first device it registers (and is used each time).
    for (let i = 0; i < 18; i++) await register(f.token, randomUUID());
    assert.equal(await count(), 20);
    assert.equal(
      (await call(f.server, 'GET', '/me', { token: s1 })).status,
      200,
      's1 still signed in at 20 devices',
    );
    // Using s1 just now made d1 the most recently seen: see d0 and d1 age again below.
    await f.advance(5);
    assert.equal((await call(f.server, 'GET', '/me', { token: s0 })).status, 200);

    const d21 = await register(f.token, randomUUID());
    assert.equal(await count(), 20, 'still 20');
    assert.ok(d21.id);
    // The one seen longest ago: the fixture's second registration (never used after), not d0 or d1.
    const remaining = await f.server.running.deps.db.all<{ id: string }>(
      'SELECT id FROM devices WHERE account_id = ?',
      [f.accountId],
    );
    assert.ok(remaining.some((r) => r.id === d0.id));
    assert.ok(remaining.some((r) => r.id === d1.id));

    // Now make d1 the oldest: every other device is touched after it.
    await f.advance(5);
    for (const r of remaining)
      if (r.id !== d1.id)
        await call(f.server, 'PATCH', `/devices/${r.id}`, { token: f.token, body: {} });
    const d22 = await register(f.token, randomUUID());
    assert.ok(d22.id);
    assert.equal(await count(), 20);
    const s1After = await call(f.server, 'GET', '/me', { token: s1 });
    assert.deepEqual(
      [s1After.status, s1After.body.code],
      [401, 'session_expired'],
      'the evicted app is signed out',
    );
    assert.equal((await call(f.server, 'GET', '/me', { token: s0 })).status, 200);
    assert.equal(
      (await call(f.server, 'PATCH', `/devices/${d1.id}`, { token: f.token, body: {} })).status,
      404,
    );
  });
});

async function setupOther(f: Fixture): Promise<string> {
  const otherEmail = `other-${randomUUID()}@example.com`;
  const code = await requestCode(f.server, otherEmail);
  const r = await req(f.server.api, 'POST', '/auth/email/verify', {
    body: { email: otherEmail, code, client: 'app' },
  });
  return r.body.session_token;
}
