import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestCode, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

const advance = (server: TestServer, seconds: number) =>
  req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: seconds } });

/** A 6-digit code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('sign-in: POST /auth/email/start, /auth/email/verify, /auth/logout', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('start answers 202 {sent_to, valid_minutes} and emails a 6-digit code', async () => {
    const r = await req(server.api, 'POST', '/auth/email/start', {
      body: { email: 'Ada@Example.COM' },
    });
    assert.equal(r.status, 202);
    assert.deepEqual(r.body, { sent_to: 'ada@example.com', valid_minutes: 10 });
    const outbox = await req(server.url, 'GET', '/dev/outbox?to=ada@example.com');
    assert.equal(outbox.body.items.length, 1);
    const mail = outbox.body.items[0];
    assert.equal(mail.channel, 'email');
    assert.equal(mail.to, 'ada@example.com');
    assert.match(mail.code, /^\d{6}$/);
    assert.ok(mail.body.includes(mail.code));
    assert.match(mail.created_at, /Z$/);
  });

  it('start answers the same whether or not an account exists', async () => {
    const email = 'exists@example.com';
    const code = await requestCode(server, email);
    await req(server.api, 'POST', '/auth/email/verify', { body: { email, code, client: 'app' } });
    const known = await req(server.api, 'POST', '/auth/email/start', { body: { email } });
    const unknown = await req(server.api, 'POST', '/auth/email/start', {
      body: { email: 'nobody@example.com' },
    });
    assert.equal(known.status, unknown.status);
    assert.deepEqual(Object.keys(known.body), Object.keys(unknown.body));
  });

  it('start refuses a value that is not an email with validation_error', async () => {
    const r = await req(server.api, 'POST', '/auth/email/start', {
      body: { email: 'not-an-email' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'validation_error');
    assert.equal(r.body.errors[0].field, 'email');
  });

  it('verify with client app creates the account with its trial and returns a wus_ session token', async () => {
    const email = 'new-app@example.com';
    const code = await requestCode(server, email);
    const r = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code, client: 'app' },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.created, true);
    assert.match(r.body.session_token, /^wus_[A-Za-z0-9]{51}$/);
    assert.equal(r.body.csrf_token, undefined);
    assert.equal(r.body.account.email, email);
    assert.equal(r.body.account.display_name, 'new-app');
    assert.deepEqual(r.body.account.plan, {
      code: 'trial',
      entitled: true,
      name: 'Free trial',
      source: null,
      status: 'trialing',
    });
    assert.equal(r.headers.get('set-cookie'), null);

    const again = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code: await requestCode(server, email), client: 'app' },
    });
    assert.equal(again.body.created, false);
    assert.equal(again.body.account.id, r.body.account.id);
    assert.notEqual(again.body.session_token, r.body.session_token);
  });

  it('verify with client web sets HttpOnly sessionid and csrftoken cookies and returns csrf_token', async () => {
    const email = 'web@example.com';
    const r = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code: await requestCode(server, email), client: 'web' },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.session_token, undefined);
    assert.match(r.body.csrf_token, /^[A-Za-z0-9]{32}$/);
    const cookies = r.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('sessionid='))!;
    const csrf = cookies.find((c) => c.startsWith('csrftoken='))!;
    assert.match(session, /^sessionid=wuw_[A-Za-z0-9]{51};/);
    assert.match(session, /httponly/i);
    assert.match(session, /samesite=lax/i);
    assert.match(session, /path=\//i);
    assert.equal(csrf.split(';')[0], `csrftoken=${r.body.csrf_token}`);
    assert.doesNotMatch(csrf, /httponly/i);
  });

  it('refuses installation_id for client web', async () => {
    const email = 'web-install@example.com';
    const r = await req(server.api, 'POST', '/auth/email/verify', {
      body: {
        email,
        code: await requestCode(server, email),
        client: 'web',
        installation_id: crypto.randomUUID(),
      },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'validation_error');
    assert.equal(r.body.field, 'installation_id');
  });

  it('a wrong code is 400 verification_code_invalid; a code is single use', async () => {
    const email = 'single@example.com';
    const code = await requestCode(server, email);
    const bad = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code: wrong(code), client: 'app' },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'verification_code_invalid');
    const ok = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code, client: 'app' },
    });
    assert.equal(ok.status, 200);
    const reuse = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code, client: 'app' },
    });
    assert.equal(reuse.status, 400);
    assert.equal(reuse.body.code, 'verification_code_invalid');
  });

  it('a code that is not 6 digits is verification_code_invalid (specific code first)', async () => {
    const r = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email: 'x@example.com', code: '12ab', client: 'app' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'verification_code_invalid');
  });

  it('a code expires after 10 minutes', async () => {
    const email = 'expires@example.com';
    const code = await requestCode(server, email);
    await advance(server, 10 * 60 + 1);
    const r = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code, client: 'app' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'verification_code_invalid');
  });

  it('only the latest code works', async () => {
    const email = 'latest@example.com';
    const first = await requestCode(server, email);
    const second = await requestCode(server, email);
    if (first !== second) {
      const r = await req(server.api, 'POST', '/auth/email/verify', {
        body: { email, code: first, client: 'app' },
      });
      assert.equal(r.body.code, 'verification_code_invalid');
    }
    const ok = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code: second, client: 'app' },
    });
    assert.equal(ok.status, 200);
  });

  it('the fifth wrong code locks the email for 15 minutes, even for the right code and a new code', async () => {
    const email = 'locked@example.com';
    const code = await requestCode(server, email);
    for (let i = 1; i <= 4; i++) {
      const r = await req(server.api, 'POST', '/auth/email/verify', {
        body: { email, code: wrong(code), client: 'app' },
      });
      assert.equal(r.body.code, 'verification_code_invalid', `try ${i}`);
    }
    const fifth = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code: wrong(code), client: 'app' },
    });
    assert.equal(fifth.status, 429);
    assert.equal(fifth.body.code, 'verification_locked');
    assert.equal(fifth.headers.get('retry-after'), String(15 * 60));

    const right = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code, client: 'app' },
    });
    assert.equal(right.status, 429);
    assert.equal(right.body.code, 'verification_locked');
    const restart = await req(server.api, 'POST', '/auth/email/start', { body: { email } });
    assert.equal(restart.status, 429);
    assert.equal(restart.body.code, 'verification_locked');
    assert.ok(Number(restart.headers.get('retry-after')) > 0);

    await advance(server, 15 * 60);
    const fresh = await requestCode(server, email);
    const ok = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code: fresh, client: 'app' },
    });
    assert.equal(ok.status, 200);
  });

  it('asking for a new code does not reset the wrong-code count', async () => {
    const email = 'count@example.com';
    for (let i = 0; i < 4; i++) {
      const code = await requestCode(server, email);
      await req(server.api, 'POST', '/auth/email/verify', {
        body: { email, code: wrong(code), client: 'app' },
      });
    }
    const code = await requestCode(server, email);
    const r = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code: wrong(code), client: 'app' },
    });
    assert.equal(r.body.code, 'verification_locked');
    await advance(server, 15 * 60); // leave the address unlocked for other tests
  });

  it('sends at most 5 codes an hour to one address (429 rate_limited)', async () => {
    const email = 'flood@example.com';
    for (let i = 0; i < 5; i++) {
      const r = await req(server.api, 'POST', '/auth/email/start', { body: { email } });
      assert.equal(r.status, 202);
    }
    const sixth = await req(server.api, 'POST', '/auth/email/start', { body: { email } });
    assert.equal(sixth.status, 429);
    assert.equal(sixth.body.code, 'rate_limited');
    assert.ok(Number(sixth.headers.get('retry-after')) > 0);
  });

  it('a burst of guesses cannot outrun the lock: nine wrong codes and the right one sent at once sign nobody in', async () => {
    const email = 'burst@example.com';
    const code = await requestCode(server, email);
    const guesses = [...Array.from({ length: 9 }, () => wrong(code)), code];
    const results = await Promise.all(
      guesses.map((guess) =>
        req(server.api, 'POST', '/auth/email/verify', {
          body: { email, code: guess, client: 'app' },
        }),
      ),
    );
    const codes = results.map((r) => r.body.code as string | undefined);
    assert.equal(
      results.filter((r) => r.status === 200).length,
      0,
      'no guess may get past the lock',
    );
    assert.equal(codes.filter((c) => c === 'verification_code_invalid').length, 4);
    assert.equal(codes.filter((c) => c === 'verification_locked').length, 6);
    await advance(server, 15 * 60); // leave the address unlocked for other tests
  });

  it('two concurrent verifies with the right code make one session, not two', async () => {
    const email = 'race@example.com';
    const code = await requestCode(server, email);
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        req(server.api, 'POST', '/auth/email/verify', { body: { email, code, client: 'app' } }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400]);
  });

  it('logout ends the app session: later use gives 401 session_expired', async () => {
    const email = 'logout@example.com';
    const v = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code: await requestCode(server, email), client: 'app' },
    });
    const token = v.body.session_token as string;
    const out = await req(server.api, 'POST', '/auth/logout', { token });
    assert.equal(out.status, 204);
    assert.equal(out.text, '');
    const me = await req(server.api, 'GET', '/me', { token });
    assert.equal(me.status, 401);
    assert.equal(me.body.code, 'session_expired');
    const again = await req(server.api, 'POST', '/auth/logout', { token });
    assert.equal(again.body.code, 'session_expired');
  });

  it('logout of a web session needs X-CSRFToken and clears the cookies', async () => {
    const email = 'web-logout@example.com';
    const v = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code: await requestCode(server, email), client: 'web' },
    });
    const cookie = v.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const noCsrf = await req(server.api, 'POST', '/auth/logout', { headers: { cookie } });
    assert.equal(noCsrf.status, 403);
    assert.equal(noCsrf.body.code, 'insufficient_scope');
    const out = await req(server.api, 'POST', '/auth/logout', {
      headers: { cookie, 'x-csrftoken': v.body.csrf_token },
    });
    assert.equal(out.status, 204);
    assert.ok(out.headers.getSetCookie().some((c) => /^sessionid=;/.test(c)));
    const me = await req(server.api, 'GET', '/me', { headers: { cookie } });
    assert.equal(me.body.code, 'session_expired');
  });
});

describe('web session cookies behind a proxy', () => {
  it('are Secure when the trusted proxy says the request came over https', async () => {
    const server = await startTestServer({ env: { WAKEUP_TRUST_PROXY: '1' } });
    try {
      const email = 'proxied@example.com';
      const code = await requestCode(server, email);
      const r = await req(server.api, 'POST', '/auth/email/verify', {
        body: { email, code, client: 'web' },
        headers: { 'x-forwarded-proto': 'https' },
      });
      assert.equal(r.status, 200);
      for (const c of r.headers.getSetCookie()) assert.match(c, /;\s*secure/i, c);
    } finally {
      await server.close();
    }
  });
});
