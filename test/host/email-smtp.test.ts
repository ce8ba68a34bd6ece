import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { PRODUCTION_ENV, startTestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';

/** A writable that keeps JSON log lines, and the raw text. */
function capture() {
  const lines: Array<Record<string, any>> = [];
  let raw = '';
  const stream = new Writable({
    write(chunk, _enc, cb) {
      raw += String(chunk);
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { lines, stream, raw: () => raw };
}

const codeIn = (raw: string): string => {
  const m = /code (?:is|to delete your Wake-Up Call account is) (\d{6})/.exec(raw);
  assert.ok(m, 'a 6-digit code in the message');
  return m[1]!;
};

describe('email over SMTP in production mode', () => {
  it('signs a person in with the code from a real SMTP server, emails the deletion code, and logs no secret', async () => {
    const sink = await startSmtpSink();
    const log = capture();
    const server = await startTestServer({
      logStream: log.stream,
      env: {
        ...PRODUCTION_ENV,
        WAKEUP_SMTP_URL: sink.url,
        WAKEUP_EMAIL_FROM: 'Wakeup <wake@example.test>',
      },
    });
    try {
      const email = 'sleeper@example.com';
      const start = await req(server.api, 'POST', '/auth/email/start', { body: { email } });
      assert.equal(start.status, 202);
      const signInMail = await sink.waitFor(email, /sign-in code/);
      assert.equal(signInMail.from, 'wake@example.test');
      assert.match(signInMail.raw, /^Subject: Your Wake-Up Call sign-in code/m);
      const code = codeIn(signInMail.raw);
      const verify = await req(server.api, 'POST', '/auth/email/verify', {
        body: { email, code, client: 'app' },
      });
      assert.equal(verify.status, 200, verify.text);
      const token = verify.body.session_token as string;
      assert.equal((await req(server.api, 'GET', '/me', { token })).body.email, email);

      const deletion = await req(server.api, 'POST', '/me/deletion-code', { token });
      assert.equal(deletion.status, 202, deletion.text);
      const deletionCode = codeIn(
        (await sink.waitFor(email, /delete your Wake-Up Call account/)).raw,
      );
      const deleted = await req(server.api, 'DELETE', '/me', {
        token,
        body: { confirm: 'DELETE', code: deletionCode },
      });
      assert.ok(deleted.status >= 200 && deleted.status < 300, deleted.text);

      // The dev outbox is off, and nothing secret reached the log.
      assert.equal((await req(server.url, 'GET', `/dev/outbox?to=${email}`)).status, 404);
      const all = log.raw();
      for (const secret of [code, deletionCode, sink.password, token])
        assert.ok(!all.includes(secret), `${secret} in the log`);
      // The first lines name every provider and warn about each simulator left on.
      const providers = log.lines.find((l) => String(l.msg).startsWith('providers:'));
      assert.ok(providers, 'a providers line');
      assert.match(
        providers.msg,
        /telephony simulator, texts simulator, email smtp \(smtp:\/\/mailer@127\.0\.0\.1:\d+\), payments none/,
      );
      const warnings = log.lines.filter(
        (l) => l.level === 40 && /SIMULATOR IN PRODUCTION/.test(String(l.msg)),
      );
      assert.deepEqual(
        warnings.map((w) => w.port),
        ['telephony', 'texts'],
      );
    } finally {
      await server.close();
      await sink.close();
    }
  });

  it('answers 202 and logs the failure class only when the relay refuses the password', async () => {
    const sink = await startSmtpSink();
    const log = capture();
    const badUrl = sink.url.replace(sink.password, 'wrong-pass-Z3');
    const server = await startTestServer({
      logStream: log.stream,
      env: { ...PRODUCTION_ENV, WAKEUP_SMTP_URL: badUrl },
    });
    try {
      const start = await req(server.api, 'POST', '/auth/email/start', {
        body: { email: 'nobody@example.com' },
      });
      assert.equal(start.status, 202);
      assert.equal(sink.messages.length, 0);
      const failure = log.lines.find((l) => l.msg === 'email not sent');
      assert.ok(failure, 'a warning');
      assert.equal(failure.smtpError, 'EAUTH');
      assert.ok(!log.raw().includes('wrong-pass-Z3'), 'password not logged');
    } finally {
      await server.close();
      await sink.close();
    }
  });

  it('refuses to start in production without a real email provider (exit code 2)', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'host/main.ts'], {
      env: {
        ...process.env,
        WAKEUP_DEV: '0',
        PORT: '0',
        WAKEUP_DB: ':memory:',
        WAKEUP_EMAIL: '',
        WAKEUP_SMTP_URL: '',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /configuration error: WAKEUP_DEV=0 needs a real email provider/);
  });
});
