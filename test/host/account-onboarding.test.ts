/**
 * Issue 10, item 1: onboarding through HTTP on the virtual clock. POST /me/onboarding
 * (self-reported flags, done default true, returns onboarding_state), POST
 * /me/onboarding/skip (the skip remembered, Onboarding returned), `next` and `finished`,
 * every Readiness field computed from the store, the stale rule (30 days without a
 * confirmed call while a schedule is enabled), the step list and copy texts, and the
 * unknown-field rule on OnboardingIn and OnboardingSkipIn.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import { signIn } from '../helpers/server.js';
import { call } from '../helpers/phone.js';
import {
  advance,
  assertSchema,
  createCall,
  newAccount,
  phone,
  startCallsServer,
} from './calls-fixture.js';

describe('account onboarding', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  const me = async (token: string) => {
    const r = await call(server, 'GET', '/me', { token });
    assert.equal(r.status, 200);
    return r.body;
  };
  const step = (o: any, slug: string) => o.steps.find((s: any) => s.slug === slug);

  it('lists the steps with numbers, skippable flags, skip warnings and the copy texts', async () => {
    const { token } = await signIn(server);
    const o = (await me(token)).onboarding;
    assertSchema('OnboardingOut', o);
    assert.deepEqual(
      o.steps.map((s: any) => [s.slug, s.number, s.skippable]),
      [
        ['phone', 2, false],
        ['timezone', 3, false],
        ['contact', 4, true],
        ['ring', 5, true],
        ['test-call', 7, true],
        ['first-call', 8, true],
      ],
    );
    for (const s of o.steps) assert.equal(typeof s.title, 'string');
    assert.equal(step(o, 'phone').skip_warning, null);
    assert.equal(typeof step(o, 'contact').skip_warning, 'string');
    assert.ok(o.texts.ring.steps_android.length > 0 && o.texts.ring.steps_ios.length > 0);
    assert.equal(typeof o.texts.stale_notice, 'string');
    assert.equal(o.next, 'phone');
    assert.equal(o.finished, false);
  });

  it('POST /me/onboarding sets a flag (done defaults to true), done false clears it, and returns onboarding_state', async () => {
    const { token } = await signIn(server);
    let r = await call(server, 'POST', '/me/onboarding', {
      token,
      body: { step: 'contact_saved' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assertSchema('OnboardingState', r.body);
    assert.deepEqual(r.body, { contact_saved: true });
    r = await call(server, 'POST', '/me/onboarding', {
      token,
      body: { step: 'dnd_acknowledged', done: true },
    });
    assert.deepEqual(r.body, { contact_saved: true, dnd_acknowledged: true });
    let o = (await me(token)).onboarding;
    assert.equal(step(o, 'contact').done, true);
    assert.equal(step(o, 'ring').done, true);
    assert.equal(o.readiness.contact_saved, true);
    assert.equal(o.readiness.dnd_acknowledged, true);
    r = await call(server, 'POST', '/me/onboarding', {
      token,
      body: { step: 'contact_saved', done: false },
    });
    assert.deepEqual(r.body, { contact_saved: false, dnd_acknowledged: true });
    o = (await me(token)).onboarding;
    assert.equal(step(o, 'contact').done, false);
    assert.equal(o.readiness.contact_saved, false);
    assert.deepEqual((await me(token)).onboarding_state, {
      contact_saved: false,
      dnd_acknowledged: true,
    });
  });

  it('POST /me/onboarding refuses other steps, wrong types and unknown fields with validation_error', async () => {
    const { token } = await signIn(server);
    for (const body of [
      { step: 'phone_verified' },
      { step: 'contact' },
      {},
      { step: 'contact_saved', done: 'yes' },
      { step: 'contact_saved', extra: 1 },
    ]) {
      const r = await call(server, 'POST', '/me/onboarding', { token, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.code, 'validation_error');
    }
    assert.deepEqual((await me(token)).onboarding_state, {}, 'nothing half-applied');
  });

  it('POST /me/onboarding/skip remembers the skip, answers Onboarding as GET /me shows it, and moves next', async () => {
    const f = await newAccount(server);
    let o = (await me(f.token)).onboarding;
    assert.equal(o.next, 'contact', 'phone and timezone are done for this account');
    const r = await f.api('POST', '/me/onboarding/skip', { step: 'contact' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assertSchema('OnboardingOut', r.body);
    assert.equal(step(r.body, 'contact').skipped, true);
    assert.equal(r.body.next, 'ring');
    o = (await me(f.token)).onboarding;
    assert.deepEqual(o, r.body);
    assert.deepEqual((await me(f.token)).onboarding_state, { skipped: ['contact'] });
    // Skipping twice keeps one entry.
    await f.api('POST', '/me/onboarding/skip', { step: 'contact' });
    assert.deepEqual((await me(f.token)).onboarding_state, { skipped: ['contact'] });
    for (const s of ['ring', 'test-call'])
      assert.equal((await f.api('POST', '/me/onboarding/skip', { step: s })).status, 200);
    o = (await f.api('POST', '/me/onboarding/skip', { step: 'first-call' })).body;
    assert.equal(o.next, 'done');
    assert.equal(o.finished, true, 'every step settled');
    // A skipped step that gets done shows done, not skipped.
    await f.api('POST', '/me/onboarding', { step: 'contact_saved' });
    o = (await me(f.token)).onboarding;
    assert.deepEqual([step(o, 'contact').done, step(o, 'contact').skipped], [true, false]);
  });

  it('POST /me/onboarding/skip refuses non-skippable or unknown steps and unknown fields', async () => {
    const { token } = await signIn(server);
    for (const body of [
      { step: 'phone' },
      { step: 'timezone' },
      { step: 'contact_saved' },
      {},
      { step: 'ring', done: true },
    ]) {
      const r = await call(server, 'POST', '/me/onboarding/skip', { token, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.code, 'validation_error');
    }
  });

  it('finished once a schedule exists, even with steps open', async () => {
    const f = await newAccount(server);
    await createCall(f, {}, 30);
    const o = (await me(f.token)).onboarding;
    assert.equal(o.finished, true);
    assert.equal(o.next, 'contact');
    assert.equal(step(o, 'first-call').done, true);
  });

  it('readiness comes from the store: verified number, test call (time, status, done), last success', async () => {
    const fresh = await signIn(server);
    let rd = (await me(fresh.token)).onboarding.readiness;
    assert.deepEqual(
      [
        rd.phone_verified,
        rd.phone_expired,
        rd.test_call_done,
        rd.last_success_at,
        rd.last_test_at,
        rd.last_test_status,
        rd.stale,
      ],
      [false, false, false, null, null, null, false],
    );
    const f = await newAccount(server);
    rd = (await me(f.token)).onboarding.readiness;
    assert.equal(rd.phone_verified, true);

    await phone(server, f.number, ['no_answer'], 5);
    const t1 = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.equal(t1.status, 201);
    await advance(server, 120);
    rd = (await me(f.token)).onboarding.readiness;
    assert.equal(rd.test_call_done, false);
    assert.equal(rd.last_test_at, t1.body.created_at);
    assert.equal(rd.last_test_status, 'no_answer');
    assert.equal(rd.last_success_at, null);

    await phone(server, f.number, ['confirm'], 5);
    const t2 = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    await advance(server, 120);
    rd = (await me(f.token)).onboarding.readiness;
    assert.equal(rd.test_call_done, true);
    assert.equal(rd.last_test_at, t2.body.created_at);
    assert.equal(rd.last_test_status, 'confirmed');
    assert.notEqual(rd.last_success_at, null);
    assert.equal(step((await me(f.token)).onboarding, 'test-call').done, true);
  });

  it('stale: an enabled schedule and no confirmed call in 30 days; a confirmed call clears it', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['no_answer'], 5);
    // A weekly call that rings every day and is never answered.
    const r = await f.api('POST', '/schedules', {
      kind: 'recurring',
      local_time: '06:00',
      days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      retry_policy: { offsets_minutes: [] },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    let rd = (await me(f.token)).onboarding.readiness;
    assert.equal(rd.stale, true, 'no confirmed call ever, with a schedule enabled');
    await phone(server, f.number, ['confirm'], 5);
    await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    await advance(server, 120);
    rd = (await me(f.token)).onboarding.readiness;
    assert.equal(rd.stale, false);
    // 30 days of unanswered calls later it is stale again.
    await phone(server, f.number, ['no_answer'], 5);
    await advance(server, 29 * 86_400);
    assert.equal((await me(f.token)).onboarding.readiness.stale, false, 'within 30 days');
    await advance(server, 2 * 86_400);
    assert.equal((await me(f.token)).onboarding.readiness.stale, true, 'after 30 days');
  });
});
