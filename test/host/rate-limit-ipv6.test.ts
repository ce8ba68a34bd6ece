/**
 * Per-IP windows count an IPv6 client by its network prefix (issue 39, item 2), through HTTP on
 * SQLite and PostgreSQL, behind one trusted proxy (X-Forwarded-For names each request's
 * address): the general limit, sign-in codes, verification texts and the demo each count every
 * address of one /64 as one client (a /56 with WAKEUP_IPV6_PREFIX=56), while another prefix is
 * counted apart; an IPv4 address written as IPv6 (::ffff:a.b.c.d) is that IPv4 address.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, PHONE_TEST_ENV } from '../helpers/phone.js';
import { signIn, startTestServer, type TestServer } from '../helpers/server.js';

const from = (address: string) => ({ 'x-forwarded-for': address });
const countries = (server: TestServer, address: string) =>
  call(server, 'GET', '/countries', { headers: from(address) });

describe('the general per-IP limit counts IPv6 by its /64', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { WAKEUP_TRUST_PROXY: '1', WAKEUP_RATE_LIMIT_IP: '3' } });
  });
  after(() => server?.close());

  it('three addresses of one /64 use up its requests; another /64 is not affected', async () => {
    for (const a of ['2001:db8:a:1::1', '2001:db8:a:1::2', '2001:db8:a:1:ffff:ffff:ffff:ffff']) {
      assert.equal((await countries(server, a)).status, 200, a);
    }
    const refused = await countries(server, '2001:db8:a:1:1234::9');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await countries(server, '2001:db8:a:2::1')).status, 200, 'the next /64');
  });

  it('an IPv4 address written as IPv6 is that IPv4 address; IPv4 addresses count one by one', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await countries(server, '198.51.100.7')).status, 200);
    assert.equal((await countries(server, '::ffff:198.51.100.7')).status, 429);
    assert.equal((await countries(server, '::ffff:198.51.100.8')).status, 200);
    assert.equal((await countries(server, '198.51.100.9')).status, 200);
  });
});

describe('WAKEUP_IPV6_PREFIX=56', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      env: { WAKEUP_TRUST_PROXY: '1', WAKEUP_RATE_LIMIT_IP: '3', WAKEUP_IPV6_PREFIX: '56' },
    });
  });
  after(() => server?.close());

  it('counts every /64 of one /56 as one client', async () => {
    for (const a of ['2001:db8:b:100::1', '2001:db8:b:101::1', '2001:db8:b:1ff::1']) {
      assert.equal((await countries(server, a)).status, 200, a);
    }
    assert.equal((await countries(server, '2001:db8:b:180::1')).status, 429);
    assert.equal((await countries(server, '2001:db8:b:200::1')).status, 200, 'the next /56');
  });
});

describe('texts and the demo count IPv6 by its /64', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      env: {
        ...PHONE_TEST_ENV,
        WAKEUP_TRUST_PROXY: '1',
        WAKEUP_CODE_LIMIT_IP: '2/h',
        WAKEUP_DEMO_DAILY_CAP: '100000',
        WAKEUP_DEMO_PREFIX_DAILY_CAP: '100000',
      },
    });
  });
  after(() => server?.close());

  it('verification texts: 2 an hour for the /64, across accounts', async () => {
    let line = 7000;
    const add = async (address: string) => {
      const { token } = await signIn(server);
      return call(server, 'POST', '/phone-numbers', {
        token,
        body: { e164: `+1201555${line++}` },
        headers: from(address),
      });
    };
    assert.equal((await add('2001:db8:d:1::1')).status, 201);
    assert.equal((await add('2001:db8:d:1::2')).status, 201);
    const refused = await add('2001:db8:d:1:abcd::1');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'rate_limited');
    assert.equal((await add('2001:db8:d:2::1')).status, 201, 'another /64');
  });

  it('the demo: 3 starts an hour for the /64', async () => {
    let line = 8000;
    const start = (address: string) =>
      call(server, 'POST', '/demo/start', {
        body: { consent: true, e164: `+1201555${line++}` },
        headers: from(address),
      });
    for (const a of ['2001:db8:e:1::1', '2001:db8:e:1::2', '2001:db8:e:1::3'])
      assert.equal((await start(a)).status, 202, a);
    const refused = await start('2001:db8:e:1::4');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'demo_rate_limited');
    assert.equal((await start('2001:db8:e:2::1')).status, 202, 'another /64');
  });
});

describe('sign-in codes count IPv6 by its /64', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      env: { WAKEUP_TRUST_PROXY: '1', WAKEUP_SIGN_IN_CODES_PER_CLIENT: '2' },
    });
  });
  after(() => server?.close());

  it('sign-in codes: 2 an hour for the /64, whatever the addresses and emails', async () => {
    const start = (address: string) =>
      call(server, 'POST', '/auth/email/start', {
        body: { email: `v6-${randomUUID()}@example.com` },
        headers: from(address),
      });
    assert.equal((await start('2001:db8:c:1::1')).status, 202);
    assert.equal((await start('2001:db8:c:1::2')).status, 202);
    const refused = await start('2001:db8:c:1::3');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'rate_limited');
    assert.equal((await start('2001:db8:c:2::1')).status, 202, 'another /64');
  });
});
