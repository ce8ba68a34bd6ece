import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { COMPONENTS_ID, createAjv, loadOpenApi } from '../../schema/load.js';
import { signIn, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

const meSchema = createAjv().compile<any>({ $ref: `${COMPONENTS_ID}#/$defs/MeOut` });

describe('account: GET /me and PATCH /me', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer({ env: { WAKEUP_CLOCK_START: '2027-03-14T06:00:00Z' } });
    token = (await signIn(server, 'Grace.Hopper@Example.com')).token;
  });
  after(() => server.close());

  it('GET /me returns every required MeOut field, typed as the schema says', async () => {
    const r = await req(server.api, 'GET', '/me', { token });
    assert.equal(r.status, 200);
    assert.ok(meSchema(r.body), JSON.stringify(meSchema.errors));
    const required: string[] = loadOpenApi().components.schemas.MeOut.required;
    for (const f of required) assert.ok(f in r.body, f);
    assert.equal(r.body.email, 'grace.hopper@example.com');
    assert.equal(r.body.display_name, 'grace.hopper');
    assert.equal(r.body.greeting_name, null);
    assert.equal(r.body.home_timezone, null);
    assert.equal(r.body.time_format, '24h');
    assert.equal(r.body.locale, 'en-US');
    assert.equal(r.body.voice, 'female');
    assert.deepEqual(r.body.onboarding_state, {});
    assert.equal(r.body.default_retry_policy, null);
    assert.equal(r.body.calls_revoked_at, null);
    // Dev mode runs the payment simulator, which offers the web checkout to an account with no plan.
    assert.equal(r.body.billing.web_checkout_link, true);
  });

  it('the plan is the trial (7 days, 5 calls) and ends after 7 days', async () => {
    const s = await signIn(server);
    const me = (await req(server.api, 'GET', '/me', { token: s.token })).body;
    assert.deepEqual(me.plan, {
      code: 'trial',
      entitled: true,
      name: 'Free trial',
      source: null,
      status: 'trialing',
    });
    await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 7 * 86_400 } });
    const later = (await req(server.api, 'GET', '/me', { token: s.token })).body;
    assert.deepEqual(later.plan, {
      code: null,
      entitled: false,
      name: null,
      source: null,
      status: 'none',
    });
  });

  it('onboarding starts at the phone step, and the home zone settles the timezone step', async () => {
    const s = await signIn(server);
    const me = (await req(server.api, 'GET', '/me', { token: s.token })).body;
    assert.equal(me.onboarding.next, 'phone');
    assert.equal(me.onboarding.finished, false);
    assert.deepEqual(
      me.onboarding.steps.map((x: any) => [x.slug, x.number, x.skippable]),
      [
        ['phone', 2, false],
        ['timezone', 3, false],
        ['contact', 4, true],
        ['ring', 5, true],
        ['test-call', 7, true],
        ['first-call', 8, true],
      ],
    );
    assert.deepEqual(me.onboarding.readiness, {
      contact_saved: false,
      dnd_acknowledged: false,
      phone_expired: false,
      phone_verified: false,
      stale: false,
      test_call_done: false,
      last_success_at: null,
      last_test_at: null,
      last_test_status: null,
    });
    const patched = (
      await req(server.api, 'PATCH', '/me', {
        token: s.token,
        body: { home_timezone: 'Europe/Paris' },
      })
    ).body;
    assert.equal(patched.onboarding.steps.find((x: any) => x.slug === 'timezone').done, true);
  });

  it('PATCH /me changes each field and answers the updated account', async () => {
    const body = {
      display_name: 'Grace',
      greeting_name: 'Admiral',
      home_timezone: 'America/New_York',
      time_format: '12h',
      locale: 'fr-FR',
      voice: 'male',
      marketing_opt_in: true,
      digest_opt_in: true,
      default_backup_alarm: true,
      default_retry_policy: {
        max_snoozes: 3,
        offsets_minutes: [2, 4, 8],
        ring_timeout_seconds: 30,
        snooze_minutes: 5,
      },
    };
    const r = await req(server.api, 'PATCH', '/me', { token, body });
    assert.equal(r.status, 200);
    assert.ok(meSchema(r.body), JSON.stringify(meSchema.errors));
    for (const [k, v] of Object.entries(body)) assert.deepEqual(r.body[k], v, k);
    const again = (await req(server.api, 'GET', '/me', { token })).body;
    for (const [k, v] of Object.entries(body)) assert.deepEqual(again[k], v, k);
  });

  it('null leaves fields unchanged, except greeting_name, home_timezone and default_retry_policy, which it clears', async () => {
    await req(server.api, 'PATCH', '/me', {
      token,
      body: {
        display_name: 'Keep',
        greeting_name: 'G',
        home_timezone: 'Asia/Tokyo',
        default_retry_policy: {},
      },
    });
    const r = await req(server.api, 'PATCH', '/me', {
      token,
      body: {
        display_name: null,
        time_format: null,
        voice: null,
        marketing_opt_in: null,
        greeting_name: null,
        home_timezone: null,
        default_retry_policy: null,
      },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.display_name, 'Keep');
    assert.equal(r.body.greeting_name, null);
    assert.equal(r.body.home_timezone, null);
    assert.equal(r.body.default_retry_policy, null);
  });

  it('an empty patch changes nothing', async () => {
    const before = (await req(server.api, 'GET', '/me', { token })).body;
    const r = await req(server.api, 'PATCH', '/me', { token, body: {} });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, before);
  });

  it('a partial retry policy takes the built-in defaults for the fields left out', async () => {
    const r = await req(server.api, 'PATCH', '/me', {
      token,
      body: { default_retry_policy: { max_snoozes: 0 } },
    });
    assert.deepEqual(r.body.default_retry_policy, {
      max_snoozes: 0,
      offsets_minutes: [5, 10],
      ring_timeout_seconds: 45,
      snooze_minutes: 9,
    });
  });

  it('home_timezone goes through the zone policy: canonical names, invalid_timezone, timezone_not_allowed', async () => {
    const kiev = await req(server.api, 'PATCH', '/me', {
      token,
      body: { home_timezone: 'Europe/Kiev' },
    });
    assert.equal(kiev.body.home_timezone, 'Europe/Kyiv');
    for (const zone of ['EST', 'US/Eastern', 'Mars/Olympus_Mons', 'x'.repeat(65)]) {
      const r = await req(server.api, 'PATCH', '/me', { token, body: { home_timezone: zone } });
      assert.equal(r.status, 400, zone);
      assert.equal(r.body.code, 'invalid_timezone', zone);
      assert.equal(r.body.field, 'home_timezone');
    }
    for (const zone of ['Etc/GMT+5', '+02:00']) {
      const r = await req(server.api, 'PATCH', '/me', { token, body: { home_timezone: zone } });
      assert.equal(r.body.code, 'timezone_not_allowed', zone);
    }
  });

  it('retry policy bounds give invalid_retry_policy naming the field; a wrong type stays validation_error', async () => {
    const cases: Array<[unknown, string]> = [
      [{ max_snoozes: 6 }, 'default_retry_policy.max_snoozes'],
      [{ ring_timeout_seconds: 14 }, 'default_retry_policy.ring_timeout_seconds'],
      [{ ring_timeout_seconds: 121 }, 'default_retry_policy.ring_timeout_seconds'],
      [{ snooze_minutes: 0 }, 'default_retry_policy.snooze_minutes'],
      [{ snooze_minutes: 31 }, 'default_retry_policy.snooze_minutes'],
      [{ offsets_minutes: [1, 2, 3, 4, 5, 6] }, 'default_retry_policy.offsets_minutes'],
      [{ offsets_minutes: [0] }, 'default_retry_policy.offsets_minutes.0'],
      [{ offsets_minutes: [121] }, 'default_retry_policy.offsets_minutes.0'],
      [{ offsets_minutes: [5, 5] }, 'default_retry_policy.offsets_minutes.1'],
      [{ offsets_minutes: [10, 5] }, 'default_retry_policy.offsets_minutes.1'],
    ];
    for (const [policy, field] of cases) {
      const r = await req(server.api, 'PATCH', '/me', {
        token,
        body: { default_retry_policy: policy },
      });
      assert.equal(r.status, 400, JSON.stringify(policy));
      assert.equal(r.body.code, 'invalid_retry_policy', JSON.stringify(policy));
      assert.equal(r.body.field, field, JSON.stringify(policy));
    }
    const typed = await req(server.api, 'PATCH', '/me', {
      token,
      body: { default_retry_policy: { max_snoozes: 'two' } },
    });
    assert.equal(typed.body.code, 'validation_error');
    assert.deepEqual(typed.body.errors[0], {
      field: 'default_retry_policy.max_snoozes',
      in: 'body',
      code: 'type',
      message: typed.body.errors[0].message,
    });
  });

  it('greeting_name follows the content rule (message_disallowed_content)', async () => {
    for (const name of [
      'x'.repeat(41),
      'visit example.com',
      'call 555 123 4567',
      'a@b',
      '<b>',
      '',
    ]) {
      const r = await req(server.api, 'PATCH', '/me', { token, body: { greeting_name: name } });
      assert.equal(r.status, 400, name);
      assert.equal(r.body.code, 'message_disallowed_content', name);
    }
    const ok = await req(server.api, 'PATCH', '/me', {
      token,
      body: { greeting_name: "Zoë O'Neil-Smith" },
    });
    assert.equal(ok.body.greeting_name, "Zoë O'Neil-Smith");
  });

  it('other bad values give validation_error with one item each', async () => {
    const r = await req(server.api, 'PATCH', '/me', {
      token,
      body: {
        time_format: '25h',
        voice: 'robot',
        locale: 'english',
        display_name: '',
        marketing_opt_in: 'yes',
        colour: 'red',
      },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'validation_error');
    const fields = r.body.errors.map((e: any) => `${e.field}:${e.code}`).sort();
    assert.deepEqual(fields, [
      'colour:unknown_field',
      'display_name:min_length',
      'locale:pattern',
      'marketing_opt_in:type',
      'time_format:enum',
      'voice:enum',
    ]);
    const blank = await req(server.api, 'PATCH', '/me', { token, body: { display_name: '   ' } });
    assert.equal(blank.body.code, 'validation_error');
  });
});
