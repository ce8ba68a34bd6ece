import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ConfigError, ENV_VARS, isLoopback, loadConfig } from '../../host/config.js';

const SMTP = {
  WAKEUP_EMAIL: 'smtp',
  WAKEUP_SMTP_URL: 'smtp://mailer:s3cret-pass@mail.example.com:587',
  WAKEUP_EMAIL_FROM: 'Wakeup <wake@example.com>',
};

describe('loadConfig(env)', () => {
  it('runs in dev mode on 127.0.0.1:8080 with ./data/wakeup.sqlite when nothing is set', () => {
    const c = loadConfig({});
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.port, 8080);
    assert.equal(c.dbFile, './data/wakeup.sqlite');
    assert.equal(c.dev, true);
    assert.equal(c.devByDefault, true);
    assert.equal(c.clock, 'system');
    assert.equal(c.trustProxy, 0);
    assert.equal(c.dailyCap, 20);
    assert.equal(c.rateLimitAccount, 120);
    assert.equal(c.rateLimitIp, 300);
    assert.equal(c.siteUrl, null);
    assert.equal(c.maxBodyBytes, 1_048_576);
    assert.equal(c.callsInFlight, 256);
    assert.equal(loadConfig({ WAKEUP_CALLS_IN_FLIGHT: '64' }).callsInFlight, 64);
  });

  it('turns dev mode off with WAKEUP_DEV=0, which allows any listen address', () => {
    const c = loadConfig({ ...SMTP, WAKEUP_DEV: '0', HOST: '0.0.0.0' });
    assert.equal(c.dev, false);
    assert.equal(c.host, '0.0.0.0');
  });

  it('refuses production mode without a real email provider, naming the variables to set', () => {
    assert.throws(
      () => loadConfig({ WAKEUP_DEV: '0' }),
      (e: Error) =>
        e instanceof ConfigError &&
        /WAKEUP_EMAIL=smtp/.test(e.message) &&
        /WAKEUP_SMTP_URL/.test(e.message),
    );
    assert.throws(
      () => loadConfig({ WAKEUP_DEV: '0', WAKEUP_EMAIL: 'simulator' }),
      /real email provider/,
    );
  });

  it('reads the SMTP relay and sender, and never echoes the relay password in an error', () => {
    const c = loadConfig({ ...SMTP, WAKEUP_DEV: '0' });
    assert.deepEqual(c.email, {
      provider: 'smtp',
      smtp: { url: SMTP.WAKEUP_SMTP_URL, from: SMTP.WAKEUP_EMAIL_FROM },
    });
    assert.throws(
      () => loadConfig({ WAKEUP_EMAIL: 'smtp', WAKEUP_EMAIL_FROM: 'a@b.c' }),
      /WAKEUP_SMTP_URL is required/,
    );
    assert.throws(
      () => loadConfig({ WAKEUP_EMAIL: 'smtp', WAKEUP_SMTP_URL: 'smtp://h:25' }),
      /WAKEUP_EMAIL_FROM is required/,
    );
    assert.throws(() => loadConfig({ WAKEUP_EMAIL: 'mailgun' }), /expected simulator or smtp/);
    assert.throws(
      () => loadConfig({ ...SMTP, WAKEUP_EMAIL_FROM: 'not an address' }),
      /WAKEUP_EMAIL_FROM/,
    );
    assert.throws(
      () => loadConfig({ ...SMTP, WAKEUP_SMTP_URL: 'http://user:hunter2secret@mail.example.com' }),
      (e: Error) => /smtp:\/\//.test(e.message) && !e.message.includes('hunter2secret'),
    );
  });

  it('reads the metrics token, refusing a short one', () => {
    assert.equal(loadConfig({}).metricsToken, null);
    assert.equal(
      loadConfig({ WAKEUP_METRICS_TOKEN: 'a-long-enough-token-1' }).metricsToken,
      'a-long-enough-token-1',
    );
    assert.throws(() => loadConfig({ WAKEUP_METRICS_TOKEN: 'short' }), /WAKEUP_METRICS_TOKEN/);
  });

  it('refuses dev mode on a non-loopback address, naming the fix', () => {
    assert.throws(
      () => loadConfig({ HOST: '0.0.0.0' }),
      (e: Error) => e instanceof ConfigError && /WAKEUP_DEV=0/.test(e.message),
    );
    assert.throws(() => loadConfig({ HOST: '192.168.1.5', WAKEUP_DEV: '1' }), ConfigError);
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) assert.ok(isLoopback(h), h);
  });

  it('allows the virtual clock only in dev mode, optionally from a start instant', () => {
    assert.equal(loadConfig({ WAKEUP_CLOCK: 'virtual' }).clock, 'virtual');
    assert.throws(() => loadConfig({ WAKEUP_CLOCK: 'virtual', WAKEUP_DEV: '0' }), /needs dev mode/);
    assert.equal(
      loadConfig({ WAKEUP_CLOCK: 'virtual', WAKEUP_CLOCK_START: '2027-03-14T06:00:00Z' })
        .clockStart,
      Date.parse('2027-03-14T06:00:00Z'),
    );
    assert.throws(
      () => loadConfig({ WAKEUP_CLOCK: 'virtual', WAKEUP_CLOCK_START: 'tomorrow' }),
      /WAKEUP_CLOCK_START/,
    );
    assert.throws(() => loadConfig({ WAKEUP_CLOCK: 'sundial' }), /WAKEUP_CLOCK/);
  });

  it('names the variable at fault', () => {
    for (const [name, value] of [
      ['PORT', '99999'],
      ['PORT', 'eighty'],
      ['WAKEUP_DAILY_CAP', '-1'],
      ['WAKEUP_TRUST_PROXY', 'yes'],
      ['WAKEUP_LOG_LEVEL', 'loud'],
      ['WAKEUP_SITE_URL', 'ftp://x'],
      ['WAKEUP_RATE_LIMIT_ACCOUNT', '0'],
      ['WAKEUP_CALLS_IN_FLIGHT', '0'],
    ]) {
      assert.throws(
        () => loadConfig({ [name!]: value }),
        (e: Error) => e instanceof ConfigError && e.message.startsWith(`${name}=`),
        name,
      );
    }
  });

  it('keeps the origin of WAKEUP_SITE_URL only', () => {
    assert.equal(
      loadConfig({ WAKEUP_SITE_URL: 'https://wake.example.com/app/' }).siteUrl,
      'https://wake.example.com',
    );
  });
});

describe('README', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

  it('has the two quick-start commands exactly', () => {
    assert.ok(readme.includes('npm install && npm start'));
    assert.ok(readme.includes('npm install && npm test'));
  });

  it('lists every environment variable with its default (docs/operations/configuration.md)', () => {
    const page = readFileSync(
      new URL('../../docs/operations/configuration.md', import.meta.url),
      'utf8',
    );
    const rows = new Map<string, string>();
    for (const m of page.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]*) \|/gm))
      rows.set(m[1]!, m[2]!.trim());
    for (const v of ENV_VARS) {
      assert.ok(rows.has(v.name), `${v.name} missing from the configuration page`);
      assert.equal(rows.get(v.name)!.replace(/`/g, ''), v.default, `${v.name} default`);
    }
  });
});
