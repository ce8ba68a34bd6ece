/**
 * Issue 30, item 5: an operator sees failing providers. With the SMTP relay unreachable the
 * API still answers 202 to a sign-in, and GET /readyz, GET /metrics and `admin providers`
 * show email failing, since when, with the last error; likewise texts and calls through an
 * unreachable Twilio-compatible API, and payments through an unreachable Stripe-compatible
 * one. A relay that worked and then went away shows its last success too.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { PRODUCTION_ENV, signIn, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { addNumber, call, PHONE_TEST_ENV } from '../helpers/phone.js';
import { req } from '../helpers/http.js';

/** Runs `admin providers --url <server>`; resolves with its exit code and output. */
function adminProviders(
  server: TestServer,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [
      '--import',
      'tsx',
      'host/admin.ts',
      'providers',
      '--url',
      server.url,
    ]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += String(c)));
    child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const readyz = async (server: TestServer) => {
  const r = await req(server.url, 'GET', '/readyz');
  assert.equal(r.status, 200, 'a failing provider does not make the server unready');
  return r.body;
};

/** Waits until /readyz shows `port` failing (sends are asynchronous to the answers). */
async function failing(server: TestServer, port: string): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const body = await readyz(server);
    if (body.providers[port].status === 'failing') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${port} never showed failing: ${JSON.stringify(await readyz(server))}`);
}

const UNREACHABLE = 'http://127.0.0.1:9';

describe('failing providers, as the operator sees them', () => {
  it('SMTP relay unreachable: sign-in still answers 202; /readyz, /metrics and admin providers show email failing', async () => {
    const server = await startTestServer({ env: { ...PRODUCTION_ENV } });
    try {
      const before = await readyz(server);
      assert.deepEqual(before.failing, []);
      assert.equal(before.providers.email.provider, 'smtp');
      assert.equal(before.providers.email.status, 'unknown');
      const t0 = Date.now();
      for (const email of ['a@example.com', 'b@example.com']) {
        const r = await req(server.api, 'POST', '/auth/email/start', { body: { email } });
        assert.equal(r.status, 202, 'the API answers as it must, whatever the relay does');
      }
      const body = await failing(server, 'email');
      assert.deepEqual(body.failing, ['email']);
      assert.equal(body.status, 'ready');
      const email = body.providers.email;
      assert.ok(
        Date.parse(email.failing_since) >= t0 - 1000 &&
          Date.parse(email.failing_since) <= Date.now(),
        email.failing_since,
      );
      assert.equal(email.last_error.code, 'provider_unavailable');
      assert.match(email.last_error.detail, /ECONNREFUSED|ESOCKET|ECONNECTION/);
      assert.equal(email.last_ok_at, null);
      assert.ok(email.consecutive_failures >= 1);
      assert.doesNotMatch(JSON.stringify(body), /password|Bearer/i);

      const metrics = (await req(server.url, 'GET', '/metrics')).text;
      assert.match(metrics, /wakeup_provider_up\{port="email",provider="smtp"\} 0/);
      assert.match(metrics, /wakeup_provider_up\{port="telephony",provider="simulator"\} 1/);
      assert.match(
        metrics,
        /wakeup_provider_failing_since_seconds\{port="email",provider="smtp"\} \d+/,
      );

      const admin = await adminProviders(server);
      assert.equal(admin.status, 3, admin.stderr);
      assert.match(admin.stdout, /FAILING: email/);
      assert.match(
        admin.stdout,
        new RegExp(
          `^email +smtp +FAILING since ${email.failing_since.replace(/[.]/g, '\\.')} .*provider_unavailable`,
          'm',
        ),
      );
      assert.match(admin.stdout, /^texts +simulator +not used yet/m);
    } finally {
      await server.close();
    }
  });

  it('a relay that worked and then went away: failing since the first failure, with its last success', async () => {
    const sink = await startSmtpSink();
    const server = await startTestServer({ env: { ...PRODUCTION_ENV, WAKEUP_SMTP_URL: sink.url } });
    try {
      await req(server.api, 'POST', '/auth/email/start', { body: { email: 'ok@example.com' } });
      await sink.waitFor('ok@example.com', /\d{6}/);
      let body = await readyz(server);
      for (let i = 0; i < 50 && body.providers.email.status !== 'ok'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        body = await readyz(server);
      }
      assert.equal(body.providers.email.status, 'ok');
      const lastOk = body.providers.email.last_ok_at;
      assert.ok(lastOk);
      await sink.close();
      await req(server.api, 'POST', '/auth/email/start', { body: { email: 'gone@example.com' } });
      body = await failing(server, 'email');
      assert.equal(body.providers.email.last_ok_at, lastOk);
      assert.ok(Date.parse(body.providers.email.failing_since) >= Date.parse(lastOk));
      const admin = await adminProviders(server);
      assert.equal(admin.status, 3);
      assert.match(admin.stdout, new RegExp(`last ok ${lastOk.replace(/[.]/g, '\\.')}`));
    } finally {
      await server.close();
    }
  });

  it('texts and calls through an unreachable Twilio-compatible API show texts and telephony failing', async () => {
    const server = await startTestServer({
      env: {
        ...PHONE_TEST_ENV,
        WAKEUP_TELEPHONY: 'twilio',
        WAKEUP_SMS: 'twilio',
        WAKEUP_TWILIO_ACCOUNT_SID: 'AC0000',
        WAKEUP_TWILIO_AUTH_TOKEN: 'token',
        WAKEUP_TWILIO_FROM: '+12025550100',
        WAKEUP_TWILIO_API_URL: UNREACHABLE,
      },
    });
    try {
      const { token } = await signIn(server);
      const added = await addNumber(server, token, '+12015550140');
      assert.equal(added.verification.sent, false, 'the code could not be texted');
      const byCall = await call(server, 'POST', `/phone-numbers/${added.id}/verify/start`, {
        token,
        body: { channel: 'call' },
      });
      assert.equal(byCall.body.sent, false, JSON.stringify(byCall.body));
      const body = await failing(server, 'telephony');
      assert.deepEqual(body.failing.sort(), ['telephony', 'texts']);
      assert.equal(body.providers.texts.provider, 'twilio');
      assert.equal(body.providers.telephony.last_error.code, 'provider_unavailable');
      assert.equal(body.providers.email.status, 'ok', 'the dev outbox took the sign-in email');
    } finally {
      await server.close();
    }
  });

  it('payments through an unreachable Stripe-compatible API: checkout 503, payments failing', async () => {
    const server = await startTestServer({
      env: {
        WAKEUP_PAYMENTS: 'stripe',
        WAKEUP_STRIPE_SECRET_KEY: 'sk_test_fake',
        WAKEUP_STRIPE_API_URL: UNREACHABLE,
        WAKEUP_PAYMENTS_WEBHOOK_SECRET: 'whsec_test',
        WAKEUP_STRIPE_PRICES:
          'traveler_monthly=price_m,traveler_yearly=price_y,pack_10=price_p10,pack_30=price_p30',
      },
    });
    try {
      const { token } = await signIn(server);
      const r = await req(server.api, 'POST', '/billing/checkout', {
        token,
        body: { plan: 'traveler_monthly' },
      });
      assert.equal(r.status, 503);
      assert.equal(r.body.code, 'provider_unavailable');
      const body = await failing(server, 'payments');
      assert.equal(body.providers.payments.provider, 'stripe');
      assert.deepEqual(body.failing, ['payments']);
    } finally {
      await server.close();
    }
  });
});
