/**
 * No input to the calls endpoints gives a 500: any query on the lists, any path id, any body
 * on resume-calls and the POST endpoints, with and without credentials. Errors are
 * problem+json.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';
import { createCall, newAccount, startCallsServer, type CallsAccount } from './calls-fixture.js';

const SCALE = Number(process.env.WAKEUP_PROPERTY_SCALE ?? 1);
const RUNS = Math.max(1, Math.round(30 * SCALE));

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    '%',
    '..',
    '\u0000',
    'x'.repeat(300),
    '2027-05-04T12:00:00Z',
    '2027-05-04T12:00:00+02:00',
    '-1',
    '1e400',
    'pending',
    'WzEsMl0',
  ),
);
const body = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom('consent', 'from', 'to', 'status', '__proto__'), fc.jsonValue()),
);

function ok(r: { status: number; text: string; headers: Headers }, what: string): void {
  assert.ok(r.status < 500, `${r.status} for ${what}: ${r.text}`);
  if (r.status >= 400) assert.match(r.headers.get('content-type') ?? '', /problem\+json/, what);
}

describe('no input to the calls endpoints gives a 500', () => {
  let server: TestServer;
  let f: CallsAccount;
  let occurrenceId: string;
  before(async () => {
    server = await startCallsServer();
    f = await newAccount(server);
    occurrenceId = (await createCall(f, {}, 600)).occurrenceId;
  });
  after(() => server.close());

  it('any query on GET /occurrences and GET /calls', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        text,
        text,
        text,
        fc.constantFrom('/api/v1/occurrences', '/api/v1/calls'),
        async (a, b, c, d, path) => {
          const q = `?limit=${encodeURIComponent(a)}&cursor=${encodeURIComponent(b)}&from=${encodeURIComponent(c)}&to=${encodeURIComponent(d)}&status=${encodeURIComponent(a)}`;
          ok(await req(server.url, 'GET', path + q, { token: f.token }), path + q);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('any id on the occurrence, call and test-call paths, with or without credentials', async () => {
    const paths = [
      ['GET', '/api/v1/occurrences/'],
      ['POST', '/api/v1/occurrences/:/cancel'],
      ['GET', '/api/v1/calls/'],
      ['POST', '/api/v1/phone-numbers/:/test-call'],
      ['POST', '/api/v1/schedules/:/test-call'],
    ] as const;
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom(...paths),
        fc.boolean(),
        async (seg, [method, template], authed) => {
          const id = encodeURIComponent(seg);
          const path = template.includes(':') ? template.replace(':', id) : template + id;
          ok(
            await req(server.url, method, path, authed ? { token: f.token } : {}),
            `${method} ${path}`,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('any body on POST /me/resume-calls and the POST endpoints', async () => {
    const paths = [
      '/api/v1/me/resume-calls',
      `/api/v1/phone-numbers/${f.phoneId}/test-call`,
      `/api/v1/occurrences/${occurrenceId}/cancel`,
    ];
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(...paths), async (value, path) => {
        ok(
          await req(server.url, 'POST', path, { body: JSON.stringify(value), token: f.token }),
          `${path} ${JSON.stringify(value)}`,
        );
      }),
      { numRuns: RUNS },
    );
  });
});
