/**
 * Outbound webhooks, the target policy and one attempt (host/webhooks/target.ts, send.ts), with
 * no server: which addresses are refused (IPv4, IPv6, IPv4 inside IPv6), the URL's shape, and
 * an attempt that connects only to the address it checked (a name resolved to a private
 * address is refused before any connection; an allowed one is reached on that address, with
 * the URL's host in Host), follows no redirect and gives up after its time limit.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  classifyAddress,
  checkUrlShape,
  resolveTarget,
  type Resolver,
} from '../../host/webhooks/target.js';
import { sendWebhook } from '../../host/webhooks/send.js';

describe('classifyAddress', () => {
  const cases: Array<[string, 'public' | 'private' | 'forbidden']> = [
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['127.0.0.1', 'private'],
    ['127.255.0.9', 'private'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.20', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'private'],
    ['198.18.0.1', 'private'],
    ['192.0.2.1', 'private'],
    ['0.0.0.0', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['2606:4700:4700::1111', 'public'],
    ['::1', 'private'],
    ['[::1]', 'private'],
    ['::', 'forbidden'],
    ['fe80::1', 'private'],
    ['fe80::1%eth0', 'private'],
    ['fd00::1', 'private'],
    ['fc12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['ff02::1', 'forbidden'],
    ['2001:db8::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'forbidden'],
    ['::8.8.8.8', 'forbidden'],
    ['::ffff:169.254.169.254', 'private'],
    ['::ffff:0:7f00:1', 'forbidden'],
    ['::ffff:0:808:808', 'forbidden'],
    ['4000::1', 'forbidden'],
    ['1::1', 'forbidden'],
    ['2001:2::1', 'private'],
    ['2001:10::1', 'forbidden'],
    ['2001:20::1', 'forbidden'],
    ['3fff::1', 'private'],
    ['2a00:1450:4001::1', 'public'],
    ['64:ff9b::a9fe:a9fe', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['2002:c0a8:0101::1', 'private'],
    ['2002:0808:0808::1', 'public'],
    ['not-an-address', 'forbidden'],
  ];
  for (const [address, cls] of cases) {
    it(`${address} is ${cls}`, () => assert.equal(classifyAddress(address), cls));
  }
});

describe('checkUrlShape', () => {
  const https = { allowHttp: false };
  it('takes an https URL and, with the setting, an http one', () => {
    assert.equal(checkUrlShape('https://hooks.example.com/a?b=1', https).ok, true);
    assert.equal(checkUrlShape('http://hooks.example.com/a', https).ok, false);
    assert.equal(checkUrlShape('http://hooks.example.com/a', { allowHttp: true }).ok, true);
  });
  it('refuses other schemes, credentials, fragments, relative and over-long URLs', () => {
    for (const bad of [
      'ftp://x.example/',
      'https://u:p@x.example/',
      'https://x.example/#f',
      '/relative',
      `https://x.example/${'a'.repeat(2000)}`,
    ]) {
      assert.equal(checkUrlShape(bad, { allowHttp: true }).ok, false, bad);
    }
  });
  it('reads every spelling of an address the way the connection will (WHATWG URL)', () => {
    const host = (u: string) => (checkUrlShape(u, https) as { url: URL }).url.hostname;
    assert.equal(classifyAddress(host('https://2130706433/')), 'private');
    assert.equal(classifyAddress(host('https://0x7f.1/')), 'private');
    assert.equal(classifyAddress(host('https://[::ffff:127.0.0.1]/')), 'private');
  });
});

describe('resolveTarget', () => {
  const resolver =
    (map: Record<string, string[]>): Resolver =>
    async (name) => {
      const list = map[name];
      if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
  const dns = resolver({
    'pub.example': ['93.184.216.34'],
    'lan.example': ['192.168.1.5'],
    'mixed.example': ['93.184.216.34', '10.0.0.1'],
  });
  it('refuses a name with any private address unless private targets are allowed', async () => {
    assert.deepEqual(await resolveTarget('pub.example', { allowPrivate: false }, dns), {
      ok: true,
      address: { address: '93.184.216.34', family: 4 },
    });
    assert.deepEqual(await resolveTarget('lan.example', { allowPrivate: false }, dns), {
      ok: false,
      reason: 'not_allowed',
      address: '192.168.1.5',
    });
    assert.deepEqual(await resolveTarget('mixed.example', { allowPrivate: false }, dns), {
      ok: false,
      reason: 'not_allowed',
      address: '10.0.0.1',
    });
    assert.equal((await resolveTarget('lan.example', { allowPrivate: true }, dns)).ok, true);
    assert.equal((await resolveTarget('[::1]', { allowPrivate: false }, dns)).ok, false);
    assert.equal(
      (await resolveTarget('0.0.0.0', { allowPrivate: true }, dns)).ok,
      false,
      'forbidden even when private is allowed',
    );
  });
  it('says when a name does not resolve', async () => {
    assert.deepEqual(await resolveTarget('nowhere.example', { allowPrivate: false }, dns), {
      ok: false,
      reason: 'unresolvable',
      detail: 'ENOTFOUND',
    });
  });
});

describe('sendWebhook', () => {
  let server: Server;
  let port: number;
  const seen: IncomingMessage[] = [];
  let answer: (
    path: string,
  ) => { status: number; headers?: Record<string, string> } | 'hang' = () => ({ status: 204 });
  before(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      req.resume();
      const a = answer(req.url ?? '/');
      if (a === 'hang') return;
      res.writeHead(a.status, a.headers).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const loopbackName: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const options = (
    allowPrivate: boolean,
    resolve: Resolver = loopbackName,
    timeoutMs?: number,
  ) => ({
    config: { allowPrivate, allowHttp: true },
    resolve,
    userAgent: 'test',
    wallNow: () => performance.now(),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  const request = (url: string) => ({ url, headers: { 'webhook-id': 'evt_1' }, body: '{"a":1}' });

  it('refuses a name that resolves to a private address before connecting', async () => {
    seen.length = 0;
    const r = await sendWebhook(request(`http://hooks.example:${port}/in`), options(false));
    assert.deepEqual(
      [r.ok, r.status, r.error],
      [false, null, 'host did not resolve to public addresses only'],
    );
    assert.equal(seen.length, 0, 'nothing reached the server');
  });

  it('connects to the checked address, with the URL host in Host, and posts the body', async () => {
    seen.length = 0;
    answer = () => ({ status: 200 });
    const r = await sendWebhook(request(`http://hooks.example:${port}/in?x=1`), options(true));
    assert.deepEqual([r.ok, r.status, r.error], [true, 200, null]);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.headers.host, `hooks.example:${port}`);
    assert.equal(seen[0]!.url, '/in?x=1');
    assert.equal(seen[0]!.headers['webhook-id'], 'evt_1');
    assert.equal(seen[0]!.headers['content-type'], 'application/json');
  });

  it('follows no redirect', async () => {
    seen.length = 0;
    answer = (path) =>
      path === '/moved'
        ? { status: 302, headers: { location: `http://127.0.0.1:${port}/there` } }
        : { status: 200 };
    const r = await sendWebhook(request(`http://hooks.example:${port}/moved`), options(true));
    assert.deepEqual([r.ok, r.status, r.error], [false, 302, 'redirect not followed']);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/moved'],
    );
  });

  it('gives up after its time limit', async () => {
    answer = () => 'hang';
    const r = await sendWebhook(
      request(`http://hooks.example:${port}/slow`),
      options(true, loopbackName, 300),
    );
    assert.deepEqual([r.ok, r.status, r.error], [false, null, 'timed out']);
  });

  it('reports a refused connection and a non-2xx answer', async () => {
    answer = () => ({ status: 500 });
    const r = await sendWebhook(request(`http://hooks.example:${port}/err`), options(true));
    assert.deepEqual([r.ok, r.status, r.error], [false, 500, 'answered 500']);
    const closed = await sendWebhook(request('http://hooks.example:1/x'), options(true));
    assert.deepEqual([closed.ok, closed.error], [false, 'connection refused']);
  });
});
