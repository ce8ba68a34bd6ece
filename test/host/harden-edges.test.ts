/**
 * Issue 30, item 4: the four input edges a probe of the running server found, through HTTP.
 * 1. Text that is not well-formed UTF-16 (a lone surrogate) is 400 validation_error in every
 *    string field and key, before any other check; nothing (no U+FFFD) is stored.
 * 2. One rule for control and bidirectional characters in every human-readable field
 *    (display_name, API key name, greeting_name, label, message): 400 message_disallowed_content.
 * 3. A declared Content-Length over the limit is answered 413 at once, before the body; a body
 *    slower than the minimum rate is answered 408 request_timeout; both close the connection.
 * 4. The right phone code sent again after the number is verified answers 200 again, and no
 *    code after verification counts as a wrong guess or locks the number.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { signIn, startTestServer, storedText } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import {
  addNumber,
  addVerifiedNumber,
  call,
  latestCode,
  PHONE_TEST_ENV,
} from '../helpers/phone.js';
import { req } from '../helpers/http.js';

/** What a raw connection saw: the status line, the parsed problem, when it came and whether the server closed. */
interface RawAnswer {
  status: number | null;
  body: any;
  answeredAfterMs: number | null;
  closedAfterMs: number | null;
}

/**
 * Opens a connection, writes `head` and then each of `chunks` after its delay, and records the
 * answer and the close (or gives up after `waitMs`).
 */
function rawExchange(
  server: TestServer,
  head: string,
  chunks: [delayMs: number, data: string][],
  waitMs: number,
): Promise<RawAnswer> {
  const url = new URL(server.url);
  return new Promise((resolve) => {
    const t0 = performance.now();
    const out: RawAnswer = { status: null, body: null, answeredAfterMs: null, closedAfterMs: null };
    let buf = '';
    const timers: NodeJS.Timeout[] = [];
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(head);
      let at = 0;
      for (const [delay, data] of chunks) {
        at += delay;
        timers.push(setTimeout(() => socket.writable && socket.write(data), at));
      }
    });
    const finish = () => {
      timers.forEach(clearTimeout);
      socket.destroy();
      const [headers = '', body = ''] = buf.split('\r\n\r\n');
      out.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? NaN) || null;
      try {
        out.body = body ? JSON.parse(body) : null;
      } catch {
        out.body = body;
      }
      resolve(out);
    };
    socket.on('data', (d) => {
      buf += String(d);
      out.answeredAfterMs ??= performance.now() - t0;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      out.closedAfterMs = performance.now() - t0;
      finish();
    });
    setTimeout(finish, waitMs).unref();
  });
}

const head = (method: string, path: string, headers: Record<string, string>) =>
  `${method} /api/v1${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n` +
  Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('') +
  '\r\n';

describe('input edges (issue 30)', () => {
  let server: TestServer;
  let token: string;
  let phoneId: string;
  before(async () => {
    server = await startTestServer({ env: PHONE_TEST_ENV });
    token = (await signIn(server)).token;
    phoneId = (await addVerifiedNumber(server, token, '+12015550130')).id;
  });
  after(() => server.close());

  const send = (method: string, path: string, body: unknown) =>
    req(server.api, method, path, { token, body });

  it('a lone surrogate is 400 validation_error in every string field and key, and nothing is stored', async () => {
    const before = (await req(server.api, 'GET', '/me', { token })).body;
    const cases: [string, string, unknown, string][] = [
      ['PATCH', '/me', { display_name: 'Sam \ud800' }, 'display_name'],
      ['PATCH', '/me', { greeting_name: 'Sam\udc00' }, 'greeting_name'],
      ['PATCH', '/me', { home_timezone: 'Europe/Paris\ud83d' }, 'home_timezone'],
      ['PATCH', '/me', { '\ud800': 1 }, '\ufffd'],
      ['POST', '/api-keys', { name: 'key \udfff' }, 'name'],
      ['POST', '/phone-numbers', { e164: '+12015550131', label: 'Desk \ud800' }, 'label'],
      [
        'POST',
        '/schedules',
        { kind: 'once', in_minutes: 30, phone_number_id: phoneId, label: 'Gym \ud800' },
        'label',
      ],
      [
        'POST',
        '/schedules',
        { kind: 'once', in_minutes: 30, phone_number_id: phoneId, message: 'Up \udc00 now' },
        'message',
      ],
      ['PATCH', `/phone-numbers/${phoneId}`, { label: '\ud800' }, 'label'],
    ];
    for (const [method, path, body, field] of cases) {
      const r = await send(method, path, body);
      assert.equal(r.status, 400, `${method} ${path} ${field}: ${r.text}`);
      assert.equal(r.body.code, 'validation_error', `${path} ${field}`);
      assert.equal(r.body.field, field);
      assert.match(r.body.detail, /well-formed/);
      assert.ok(
        !/[\ud800-\udfff]/.test(r.text.replace(/\\u[0-9a-f]{4}/gi, '')),
        'the answer echoes no surrogate',
      );
    }
    // Public endpoints and queries too.
    const start = await req(server.api, 'POST', '/auth/email/start', {
      body: { email: 'a\ud800@example.com' },
    });
    assert.equal(start.body.code, 'validation_error');
    const query = await req(
      server.api,
      'GET',
      `/timezones?q=${encodeURIComponent('Par')}%ED%A0%80`,
      { token },
    );
    assert.notEqual(query.status, 500);
    assert.deepEqual((await req(server.api, 'GET', '/me', { token })).body, before);
    assert.ok(
      !(await storedText(server)).includes('\u00ef\u00bf\u00bd'),
      'no U+FFFD (EF BF BD) anywhere in the database',
    );
  });

  it('control and bidirectional characters: one refusal, message_disallowed_content, in every human-readable field', async () => {
    const bad = [
      '\u202Eevil',
      'a\u200Fb',
      'bell\u0007',
      'iso\u2066late\u2069',
      'line\u2028two',
      'tab\there',
    ];
    const fields: [string, string, (v: string) => unknown, string][] = [
      ['PATCH', '/me', (v) => ({ display_name: v }), 'display_name'],
      ['POST', '/api-keys', (v) => ({ name: v }), 'name'],
      ['PATCH', '/me', (v) => ({ greeting_name: v }), 'greeting_name'],
      [
        'POST',
        '/schedules',
        (v) => ({ kind: 'once', in_minutes: 30, phone_number_id: phoneId, label: v }),
        'label',
      ],
      [
        'POST',
        '/schedules',
        (v) => ({ kind: 'once', in_minutes: 30, phone_number_id: phoneId, message: v }),
        'message',
      ],
    ];
    for (const [method, path, body, field] of fields) {
      for (const v of bad) {
        const r = await send(method, path, body(v));
        assert.equal(r.status, 400, `${field} ${JSON.stringify(v)}: ${r.text}`);
        assert.equal(r.body.code, 'message_disallowed_content', `${field} ${JSON.stringify(v)}`);
        assert.equal(r.body.field, field, `${field} ${JSON.stringify(v)}`);
      }
    }
    // Names keep everything else: accents, apostrophes, symbols, emoji with their joiners.
    const me = await send('PATCH', '/me', { display_name: 'Zoë O’Brien 👩‍💻 #1' });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.display_name, 'Zoë O’Brien 👩‍💻 #1');
    const key = await send('POST', '/api-keys', { name: 'home automation — 🏠 (v2)' });
    assert.equal(key.status, 201, key.text);
    assert.equal(key.body.name, 'home automation — 🏠 (v2)');
  });

  it('a declared Content-Length over the limit is answered 413 at once, before any body byte, and the connection closed', async () => {
    for (const [method, path, auth] of [
      ['PATCH', '/me', true],
      ['POST', '/auth/email/start', false],
      ['POST', '/api-keys', true],
    ] as const) {
      const headers: Record<string, string> = { 'Content-Length': '1000000000000' };
      if (auth) headers.Authorization = `Bearer ${token}`;
      const r = await rawExchange(server, head(method, path, headers), [[0, '{"a']], 5_000);
      assert.equal(r.status, 413, `${method} ${path}`);
      assert.equal(r.body.code, 'payload_too_large');
      assert.ok(
        r.answeredAfterMs! < 2_000,
        `${method} ${path} answered after ${r.answeredAfterMs} ms`,
      );
      assert.ok(
        r.closedAfterMs !== null && r.closedAfterMs < 3_000,
        `${method} ${path}: closed after ${r.closedAfterMs} ms`,
      );
    }
  });

  it('a body slower than the minimum rate is answered 408 request_timeout and closed; a short pause is not', async () => {
    const trickle = Array.from({ length: 20 }, () => [1_000, ' '] as [number, string]);
    const [declared, chunked, paused] = await Promise.all([
      rawExchange(
        server,
        head('POST', '/auth/email/start', { 'Content-Length': '5000' }),
        [[0, '{"email": '], ...trickle],
        15_000,
      ),
      rawExchange(
        server,
        head('PATCH', '/me', { 'Transfer-Encoding': 'chunked', Authorization: `Bearer ${token}` }),
        [[0, '3\r\n{ "\r\n'], ...trickle.map(([d]) => [d, '1\r\n \r\n'] as [number, string])],
        15_000,
      ),
      // The whole body in two parts, 2 s apart: well within the grace.
      rawExchange(
        server,
        head('POST', '/auth/email/start', {
          'Content-Length': String('{"email": "slow@example.com"}'.length),
        }),
        [
          [0, '{"email": '],
          [2_000, '"slow@example.com"}'],
        ],
        6_000,
      ),
    ]);
    for (const [name, r] of [
      ['declared length', declared],
      ['chunked', chunked],
    ] as const) {
      assert.equal(r.status, 408, `${name}: ${JSON.stringify(r)}`);
      assert.equal(r.body.code, 'request_timeout');
      assert.ok(
        r.answeredAfterMs! >= 5_000 && r.answeredAfterMs! < 9_000,
        `${name}: answered after ${r.answeredAfterMs} ms`,
      );
      assert.ok(
        r.closedAfterMs !== null && r.closedAfterMs < 10_000,
        `${name}: closed after ${r.closedAfterMs} ms`,
      );
    }
    assert.equal(paused.status, 202, JSON.stringify(paused));
  });

  it('the right code again after verification answers 200; no code after it counts as a wrong guess or locks the number', async () => {
    const added = await addNumber(server, token, '+12015550132');
    const code = await latestCode(server, '+12015550132');
    const path = `/phone-numbers/${added.id}/verify/check`;
    const first = await call(server, 'POST', path, { token, body: { code } });
    assert.equal(first.status, 200);
    assert.equal(first.body.verified, true);
    // Duplicates of the right code, one after another and five at once: the same answer.
    for (let i = 0; i < 8; i++) {
      const again = await call(server, 'POST', path, { token, body: { code } });
      assert.equal(again.status, 200, `repeat ${i}: ${JSON.stringify(again.body)}`);
      assert.equal(again.body.verified, true);
      assert.equal(
        again.body.verification_expires_at,
        first.body.verification_expires_at,
        'nothing changes',
      );
    }
    const together = await Promise.all(
      Array.from({ length: 5 }, () => call(server, 'POST', path, { token, body: { code } })),
    );
    assert.deepEqual(
      together.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
    // Any other code: a clear 400, never counted (six of them would lock an unverified number).
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 6; i++) {
      const r = await call(server, 'POST', path, { token, body: { code: wrong } });
      assert.equal(r.status, 400, `wrong ${i}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'verification_code_invalid');
      assert.match(r.body.detail, /already verified/);
    }
    assert.equal(
      (await call(server, 'POST', path, { token, body: { code } })).status,
      200,
      'the right code still answers 200',
    );
    // Not locked: a new code can be sent and verifies the number again.
    const start = await call(server, 'POST', `/phone-numbers/${added.id}/verify/start`, {
      token,
      body: {},
    });
    assert.ok(start.status < 300 && start.body.sent === true, JSON.stringify(start.body));
    const fresh = await latestCode(server, '+12015550132');
    const old = await call(server, 'POST', path, {
      token,
      body: { code: code === fresh ? wrong : code },
    });
    assert.equal(old.status, 400, 'with a new code waiting, the old one is a wrong guess again');
    assert.equal((await call(server, 'POST', path, { token, body: { code: fresh } })).status, 200);
  });
});
