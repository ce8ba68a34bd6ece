/**
 * Issue 10, items 2 and 5: account deletion through HTTP on the virtual clock.
 * POST /me/deletion-code (202, emailed, 10 minutes, 3 an hour), DELETE /me (confirm, code,
 * lock after wrong codes), what deletion does at once (calls cancelled, a ringing call hung
 * up, no fallback text, sessions and keys ended, personal data anonymised), the purge 30
 * days later on the service clock, a new account for the same email, API keys refused,
 * and a deletion interrupted after its first transaction completing at restart.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../host/config.js';
import { startServer } from '../../host/server.js';
import {
  queryDatabase,
  settledDb,
  signIn,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { call, PHONE_TEST_ENV } from '../helpers/phone.js';
import {
  advance,
  CALLS_START,
  createCall,
  fallbackTexts,
  newAccount,
  nowMs,
  phone,
  startCallsServer,
} from './calls-fixture.js';

const DAY = 86_400;

/** The newest deletion code emailed to `email`. */
async function deletionCode(server: Pick<TestServer, 'url'>, email: string): Promise<string> {
  const r = await fetch(`${server.url}/dev/outbox?channel=email&to=${encodeURIComponent(email)}`);
  const { items } = (await r.json()) as { items: Array<{ subject: string; code: string | null }> };
  const item = items.find((i) => /deletion/i.test(i.subject));
  assert.ok(item?.code, `no deletion code emailed to ${email}`);
  return item.code;
}

async function requestDeletion(server: TestServer, token: string, email: string): Promise<string> {
  const r = await call(server, 'POST', '/me/deletion-code', { token });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  return deletionCode(server, email);
}

async function rows(
  server: Pick<TestServer, 'dbFile' | 'running'>,
  text: string,
  ...params: unknown[]
): Promise<any[]> {
  await settledDb(server);
  return queryDatabase(server.dbFile, text, params);
}

async function apiKey(server: TestServer, token: string, scopes?: string[]): Promise<string> {
  const r = await call(server, 'POST', '/api-keys', {
    token,
    body: { name: 'script', ...(scopes ? { scopes } : {}) },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.key;
}

describe('account deletion', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  it('POST /me/deletion-code emails a 6-digit code (202 sent_to, valid_minutes 10), stored hashed; 3 an hour', async () => {
    const { token, email, account } = await signIn(server);
    const r = await call(server, 'POST', '/me/deletion-code', { token });
    assert.equal(r.status, 202);
    assert.deepEqual(r.body, { sent_to: email, valid_minutes: 10 });
    const code = await deletionCode(server, email);
    assert.match(code, /^\d{6}$/);
    const stored = (
      await rows(server, 'SELECT * FROM deletion_codes WHERE account_id = ?', account.id)
    )[0];
    assert.ok(stored.code_hash && !JSON.stringify(stored).includes(code), 'only a hash is stored');
    assert.equal((await call(server, 'POST', '/me/deletion-code', { token })).status, 202);
    assert.equal((await call(server, 'POST', '/me/deletion-code', { token })).status, 202);
    const fourth = await call(server, 'POST', '/me/deletion-code', { token });
    assert.equal(fourth.status, 429);
    assert.equal(fourth.body.code, 'rate_limited');
    assert.ok(Number(fourth.headers.get('retry-after')) > 0);
    await advance(server, 3600);
    assert.equal((await call(server, 'POST', '/me/deletion-code', { token })).status, 202);
  });

  it('DELETE /me needs confirm DELETE, then a right, unexpired code; unknown fields are refused', async () => {
    const { token, email } = await signIn(server);
    const del = (body: unknown) => call(server, 'DELETE', '/me', { token, body });
    const code = await requestDeletion(server, token, email);
    for (const body of [{ code }, { confirm: null, code }]) {
      const r = await del(body);
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'confirmation_required');
    }
    assert.equal((await del({ confirm: 'delete', code })).body.code, 'confirmation_required');
    assert.equal((await del({ confirm: 'DELETE' })).body.code, 'verification_code_invalid');
    assert.equal(
      (await del({ confirm: 'DELETE', code: null })).body.code,
      'verification_code_invalid',
    );
    const wrong = code === '000000' ? '000001' : '000000';
    assert.equal(
      (await del({ confirm: 'DELETE', code: wrong })).body.code,
      'verification_code_invalid',
    );
    const extra = await del({ confirm: 'DELETE', code, reason: 'bye' });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.code, 'validation_error');
    // Expired after 10 minutes.
    await advance(server, 601);
    assert.equal((await del({ confirm: 'DELETE', code })).body.code, 'verification_code_invalid');
    assert.equal((await call(server, 'GET', '/me', { token })).status, 200, 'nothing deleted');
  });

  it('the fifth wrong code locks deletion (429 verification_locked) even for the right code, until the lock ends', async () => {
    const { token, email } = await signIn(server);
    const code = await requestDeletion(server, token, email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 1; i <= 4; i++) {
      assert.equal(
        (await call(server, 'DELETE', '/me', { token, body: { confirm: 'DELETE', code: wrong } }))
          .body.code,
        'verification_code_invalid',
      );
    }
    const fifth = await call(server, 'DELETE', '/me', {
      token,
      body: { confirm: 'DELETE', code: wrong },
    });
    assert.equal(fifth.status, 429);
    assert.equal(fifth.body.code, 'verification_locked');
    assert.ok(Number(fifth.headers.get('retry-after')) > 0);
    const right = await call(server, 'DELETE', '/me', { token, body: { confirm: 'DELETE', code } });
    assert.equal(right.body.code, 'verification_locked');
    await advance(server, 15 * 60 + 1);
    const fresh = await requestDeletion(server, token, email);
    assert.equal(
      (await call(server, 'DELETE', '/me', { token, body: { confirm: 'DELETE', code: fresh } }))
        .status,
      202,
    );
  });

  it('API keys get 403 insufficient_scope on DELETE /me, deletion-code, idp-authorization and resume-calls', async () => {
    const { token } = await signIn(server);
    const key = await apiKey(server, token, ['read', 'write', 'export']);
    const cases: Array<[string, string, unknown]> = [
      ['DELETE', '/me', { confirm: 'DELETE', code: '123456' }],
      ['POST', '/me/deletion-code', undefined],
      ['POST', '/me/idp-authorization', { authorization_code: 'abc' }],
      ['POST', '/me/resume-calls', { consent: true }],
    ];
    for (const [method, path, body] of cases) {
      const r = await call(server, method, path, {
        token: key,
        ...(body === undefined ? {} : { body }),
      });
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.code, 'insufficient_scope');
    }
  });

  it('deletes: calls stop at once (ringing hung up, pending cancelled, no fallback text), sessions and keys end, data anonymised, purged after 30 days', async () => {
    const f = await newAccount(server);
    const me = (await call(server, 'GET', '/me', { token: f.token })).body;
    const key = await apiKey(server, f.token);
    const device = await call(server, 'POST', '/devices', {
      token: f.token,
      body: {
        installation_id: '0b5e2f7c-9d1a-4c3e-8f6b-2a4d6c8e0f13',
        platform: 'android',
        model: 'Pixel of Anna',
      },
    });
    assert.equal(device.status, 201);
    await phone(server, f.number, ['confirm'], 120);
    const ringing = await createCall(f, { label: 'Ringing call', message: 'Time to get up' }, 1);
    const later = await createCall(f, { label: 'Later call', sms_fallback: true }, 90);
    await advance(server, 65);
    assert.equal(
      (await rows(server, 'SELECT status FROM occurrences WHERE id = ?', ringing.occurrenceId))[0]
        .status,
      'calling',
    );
    const placedBefore = (
      await rows(server, 'SELECT COUNT(*) AS n FROM attempts WHERE account_id = ?', f.accountId)
    )[0].n;

    const code = await requestDeletion(server, f.token, me.email);
    const del = await call(server, 'DELETE', '/me', {
      token: f.token,
      body: { confirm: 'DELETE', code },
    });
    assert.equal(del.status, 202, JSON.stringify(del.body));
    assert.equal(del.body.deleted_at, new Date(nowMs(server)).toISOString().replace('.000Z', 'Z'));

    const occ = await rows(
      server,
      'SELECT id, status, label, message, to_e164 FROM occurrences WHERE account_id = ?',
      f.accountId,
    );
    assert.deepEqual(new Set(occ.map((o) => o.status)), new Set(['cancelled']));
    const live = await rows(
      server,
      `SELECT status FROM attempts WHERE occurrence_id = ?`,
      ringing.occurrenceId,
    );
    await advance(server, 5);
    const hung = await rows(
      server,
      `SELECT status, ended_at FROM attempts WHERE occurrence_id = ?`,
      ringing.occurrenceId,
    );
    assert.ok(live.length === 1 && hung[0].ended_at !== null, 'the ringing call was hung up');
    assert.notEqual(hung[0].status, 'confirmed');

    // Credentials end.
    const s = await call(server, 'GET', '/me', { token: f.token });
    assert.equal(s.status, 401);
    assert.equal(s.body.code, 'session_expired');
    const k = await call(server, 'GET', '/me', { token: key });
    assert.equal(k.status, 401);
    assert.equal(k.body.code, 'api_key_revoked');

    // Anonymised now.
    const acc = (await rows(server, 'SELECT * FROM accounts WHERE id = ?', f.accountId))[0];
    assert.notEqual(acc.email, me.email);
    assert.equal(acc.display_name, '');
    assert.equal(acc.home_timezone, null);
    assert.notEqual(acc.deleted_at, null);
    const all = JSON.stringify([
      acc,
      await rows(server, 'SELECT * FROM phone_numbers WHERE account_id = ?', f.accountId),
      await rows(server, 'SELECT * FROM series WHERE account_id = ?', f.accountId),
      await rows(server, 'SELECT * FROM occurrences WHERE account_id = ?', f.accountId),
      await rows(server, 'SELECT * FROM attempts WHERE account_id = ?', f.accountId),
      await rows(server, 'SELECT * FROM email_sign_in WHERE email = ?', me.email),
      await rows(server, 'SELECT * FROM devices WHERE account_id = ?', f.accountId),
    ]);
    for (const personal of [
      me.email,
      f.number,
      'Ringing call',
      'Later call',
      'Time to get up',
      'Pixel of Anna',
    ]) {
      assert.ok(!all.includes(personal), `${personal} is gone`);
    }

    // Later: no call, no fallback text.
    await advance(server, 3 * 3600);
    assert.equal(
      (
        await rows(server, 'SELECT COUNT(*) AS n FROM attempts WHERE account_id = ?', f.accountId)
      )[0].n,
      placedBefore,
    );
    assert.deepEqual(await fallbackTexts(server, f.number), []);
    assert.equal(later.schedule.sms_fallback, true);

    // The same email signs up again: a new, empty account.
    const again = await signIn(server, me.email);
    assert.notEqual(again.account.id, f.accountId);
    const numbers = await call(server, 'GET', '/phone-numbers', { token: again.token });
    assert.deepEqual(numbers.body.items, []);
    const scheds = await call(server, 'GET', '/schedules', { token: again.token });
    assert.deepEqual(scheds.body.items, []);

    // 30 days later everything it owned is gone; the new account stays.
    await advance(server, 29 * DAY);
    assert.equal(
      (await rows(server, 'SELECT COUNT(*) AS n FROM accounts WHERE id = ?', f.accountId))[0].n,
      1,
      'not before 30 days',
    );
    await advance(server, DAY);
    for (const table of [
      'accounts',
      'phone_numbers',
      'series',
      'occurrences',
      'attempts',
      'sessions',
      'api_keys',
    ]) {
      const col = table === 'accounts' ? 'id' : 'account_id';
      assert.equal(
        (await rows(server, `SELECT COUNT(*) AS n FROM ${table} WHERE ${col} = ?`, f.accountId))[0]
          .n,
        0,
        `${table} purged`,
      );
    }
    assert.notEqual(
      (
        await rows(
          server,
          'SELECT purged_at FROM account_deletions WHERE account_id = ?',
          f.accountId,
        )
      )[0].purged_at,
      null,
    );
    assert.equal((await call(server, 'GET', '/me', { token: again.token })).status, 200);
  });
});

describe('account deletion across a restart', () => {
  it('a deletion interrupted after its transaction completes at restart; the purge is re-armed and runs once', async () => {
    const first = await startTestServer({
      env: { ...PHONE_TEST_ENV, WAKEUP_CLOCK_START: CALLS_START },
    });
    const dbFile = first.dbFile;
    const f = await newAccount(first);
    const me = (await call(first, 'GET', '/me', { token: f.token })).body;
    const pending = await createCall(f, {}, 60);
    const code = await requestDeletion(first, f.token, me.email);
    // The process "dies" after the first transaction: cancelling through the runtime fails.
    const runtime = first.running.deps.runtime as { cancel: (id: string) => unknown };
    runtime.cancel = () => {
      throw new Error('killed');
    };
    const del = await call(first, 'DELETE', '/me', {
      token: f.token,
      body: { confirm: 'DELETE', code },
    });
    assert.equal(del.status, 202);
    assert.equal(
      (await rows(first, 'SELECT status FROM occurrences WHERE id = ?', pending.occurrenceId))[0]
        .status,
      'pending',
    );
    assert.equal(
      (
        await rows(
          first,
          'SELECT calls_stopped FROM account_deletions WHERE account_id = ?',
          f.accountId,
        )
      )[0].calls_stopped,
      0,
    );
    const stoppedAt = nowMs(first);
    // Keep the file: close the server without removing its folder.
    await first.running.close();

    const config = loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      WAKEUP_DB: dbFile,
      WAKEUP_DEV: '1',
      WAKEUP_CLOCK: 'virtual',
      WAKEUP_CLOCK_START: new Date(stoppedAt).toISOString(),
      WAKEUP_LOG_LEVEL: 'silent',
      WAKEUP_RATE_LIMIT_ACCOUNT: '100000',
      WAKEUP_RATE_LIMIT_IP: '100000',
      ...PHONE_TEST_ENV,
    });
    const running = await startServer(config);
    const second = {
      url: running.url,
      api: `${running.url}/api/v1`,
      dbFile,
      running,
    } as unknown as TestServer;
    try {
      // Resumed at start.
      for (
        let i = 0;
        i < 50 &&
        (await rows(second, 'SELECT calls_stopped FROM account_deletions'))[0].calls_stopped === 0;
        i++
      ) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(
        (await rows(second, 'SELECT status FROM occurrences WHERE id = ?', pending.occurrenceId))[0]
          .status,
        'cancelled',
      );
      await advance(second, 2 * 3600);
      assert.equal(
        (
          await rows(second, 'SELECT COUNT(*) AS n FROM attempts WHERE account_id = ?', f.accountId)
        )[0].n,
        0,
        'no call placed',
      );
      await advance(second, 30 * DAY);
      assert.equal(
        (await rows(second, 'SELECT COUNT(*) AS n FROM accounts WHERE id = ?', f.accountId))[0].n,
        0,
        'purged',
      );
    } finally {
      await running.close();
      await first.close();
    }
  });
});
