/**
 * Issue 18, item 4: every implemented operation of schema/openapi.yaml, fed generated bodies,
 * queries and headers (deep nesting, huge and non-finite numbers, Infinity strings,
 * __proto__/constructor keys, wrong and garbled encodings), never answers 5xx, and an error
 * answer never commits a change to the database (seen through SQLite's data_version from a
 * second connection), apart from the operations whose errors are documented to count
 * something (wrong verification codes).
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { getOperations, loadOpenApi } from '../../schema/load.js';
import { openTestDb, signIn, startTestServer } from '../helpers/server.js';
import { settleEngine } from '../../host/db/engine-store.js';
import type { Db } from '../../host/db/sql.js';
import type { TestServer } from '../helpers/server.js';
import { addVerifiedNumber, PHONE_TEST_ENV } from '../helpers/phone.js';

const SCALE = Number(process.env.WAKEUP_PROPERTY_SCALE ?? 1);
const RUNS = Math.max(1, Math.round(12 * SCALE));

/** Errors of these write by design: a wrong code counts towards the lock. */
const ERRORS_WRITE = new Set([
  'verifyEmailSignIn',
  'checkPhoneVerification',
  'deleteMe',
  'startEmailSignIn',
  'startPhoneVerification',
]);
/** Never with the shared session: a success would end it. */
const NO_TOKEN = new Set(['logout', 'deleteMe']);

type Doc = {
  paths: Record<
    string,
    Record<string, { 'x-implemented'?: boolean; parameters?: Param[] }> & { parameters?: Param[] }
  >;
};
type Param = { name?: string; in?: string; $ref?: string };

const hostileString = fc.constantFrom(
  'Infinity',
  '-Infinity',
  'NaN',
  '1e400',
  '-1e400',
  '9'.repeat(400),
  '0x10',
  '__proto__',
  'constructor',
  '',
  '%',
  '\u0000',
  'x'.repeat(5000),
  '2027-02-30T25:61:00Z',
  '00000000-0000-4000-8000-000000000000',
);
/** Raw JSON number tokens, some beyond double range. */
const hostileNumber = fc.constantFrom(
  '1e400',
  '-1e400',
  '1e-400',
  '123456789012345678901234567890',
  '-0',
  '0.5',
  '1e21',
  '-1',
);
const keyNames = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'email',
  'code',
  'kind',
  'limit',
  'to',
  'name',
);

/** Raw JSON text: valid JSON, often hostile. */
function jsonText(fields: string[]): fc.Arbitrary<string> {
  const key = fields.length ? fc.oneof(fc.constantFrom(...fields), keyNames) : keyNames;
  const leaf: fc.Arbitrary<string> = fc.oneof(
    hostileNumber,
    hostileString.map((s) => JSON.stringify(s)),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    fc.integer({ min: 20, max: 5000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
    fc.integer({ min: 20, max: 5000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  );
  const object = fc.dictionary(key, leaf, { maxKeys: 6 }).map(
    (o) =>
      '{' +
      Object.entries(o)
        .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
        .join(',') +
      '}',
  );
  return fc.oneof(object, object, leaf);
}

interface Case {
  path: Record<string, string>;
  query: Array<[string, string]>;
  body: string | null;
  encoding: 'none' | 'gzip' | 'gzip-garbled' | 'br-garbled' | 'compress';
  contentType: string;
  idempotencyKey: string | null;
}

/**
 * A value that changes whenever another connection commits a change: SQLite's data_version;
 * on PostgreSQL a digest of every row of the schema, rate-limit windows aside (there they are
 * rows that every request counts in, by design: docs/decisions/0013).
 */
async function dataVersion(db: Db): Promise<() => Promise<unknown>> {
  if (db.dialect === 'sqlite')
    return async () =>
      (await db.get<{ data_version: number }>('PRAGMA data_version'))!.data_version;
  const tables = await db.all<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'rate_windows' ORDER BY 1",
  );
  // One digest per table, so that a failure names the tables that changed.
  const digests = tables.map(
    ({ name }) =>
      `'${name}=' || (SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM "${name}" t)`,
  );
  const text = `SELECT concat_ws(' ', ${digests.join(', ')}) AS v`;
  return async () => (await db.get<{ v: string }>(text))!.v;
}

describe('no generated input to any implemented operation gives a 5xx or changes anything on error', () => {
  let server: TestServer;
  let token: string;
  let ids: string[];
  let reader: Db;
  let version: () => Promise<unknown>;
  before(async () => {
    server = await startTestServer({ env: PHONE_TEST_ENV });
    token = (await signIn(server)).token;
    const phone = await addVerifiedNumber(server, token, '+12015550123');
    const schedule = await fetch(`${server.api}/schedules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'recurring',
        days_of_week: ['mon'],
        local_time: '07:00',
        timezone: 'Europe/Paris',
      }),
    });
    const s = (await schedule.json()) as { id: string; next_occurrence?: { id: string } };
    ids = [phone.id, s.id, s.next_occurrence?.id ?? s.id];
    reader = await openTestDb(server);
    version = await dataVersion(reader);
  });
  after(async () => {
    await reader.close();
    await server.close();
  });

  /** Whether the last request succeeded (and so may have left work running). */
  let settling = true;
  /**
   * Returns once the database has stopped changing: the engine's journal folded (SQLite: its
   * background fold would otherwise write the tables during a later request), then two reads
   * 50 ms apart agree (at most 5 s).
   */
  async function quiet(): Promise<void> {
    await settleEngine(server.running.deps.db);
    let last = await version();
    for (let i = 0; i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = await version();
      if (now === last) return;
      last = now;
    }
  }

  /**
   * A test call that was placed rings the simulated phone for seconds of real time, and its end
   * commits then: wait for it (GET /calls/{id} no longer live, at most 20 s), or that commit
   * would show as a change made by a later request.
   */
  async function callEnded(answer: string): Promise<void> {
    const id = (JSON.parse(answer) as { id?: string }).id;
    if (!id) return;
    for (let i = 0; i < 200; i++) {
      const r = await fetch(`${server.api}/calls/${encodeURIComponent(id)}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (r.status !== 200 || (((await r.json()) as { live?: boolean }).live ?? false) === false)
        return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const doc = loadOpenApi() as unknown as Doc;
  const ops = [...getOperations().values()].filter(
    (op) => doc.paths[op.path]?.[op.method.toLowerCase()]?.['x-implemented'] !== false,
  );

  it(`covers every implemented operation (${ops.length})`, () => {
    assert.ok(ops.length > 40);
  });

  for (const op of ops) {
    const item = doc.paths[op.path]!;
    const params = [
      ...(item.parameters ?? []),
      ...(item[op.method.toLowerCase()]!.parameters ?? []),
    ];
    const queryNames = params.filter((p) => p.in === 'query').map((p) => p.name!);
    const pathNames = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const bodyFields = Object.keys(
      (op.validateBody?.schema as { properties?: Record<string, unknown> } | undefined)
        ?.properties ?? {},
    );

    it(`${op.method} ${op.path}`, async () => {
      const pathValue = fc.oneof(
        fc.constantFrom(...ids),
        hostileString,
        fc.string({ maxLength: 40 }),
      );
      const arbitrary: fc.Arbitrary<Case> = fc.record({
        path: fc.record(Object.fromEntries(pathNames.map((n) => [n, pathValue]))),
        query: fc.array(
          fc.tuple(
            queryNames.length ? fc.oneof(fc.constantFrom(...queryNames), keyNames) : keyNames,
            hostileString,
          ),
          {
            maxLength: 4,
          },
        ),
        body: op.validateBody
          ? fc.option(jsonText(bodyFields), { nil: null, freq: 6 })
          : fc.constant(null),
        encoding: fc.constantFrom(
          'none',
          'none',
          'none',
          'gzip',
          'gzip-garbled',
          'br-garbled',
          'compress',
        ),
        contentType: fc.constantFrom(
          'application/json',
          'application/json',
          'application/json; charset=latin1',
          'text/plain',
        ),
        idempotencyKey: fc.option(fc.constantFrom('k', 'x'.repeat(201), '__proto__'), {
          nil: null,
        }),
      });
      await fc.assert(
        fc.asyncProperty(arbitrary, async (c) => {
          let path = (op.server === 'api' ? server.api : server.url) + op.path;
          for (const [n, v] of Object.entries(c.path))
            path = path.replace(`{${n}}`, encodeURIComponent(v));
          const qs = c.query
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
            .join('&');
          const headers: Record<string, string> = {};
          if (!NO_TOKEN.has(op.operationId)) headers.authorization = `Bearer ${token}`;
          if (c.idempotencyKey !== null) headers['idempotency-key'] = c.idempotencyKey;
          let body: Buffer | undefined;
          if (c.body !== null) {
            headers['content-type'] = c.contentType;
            body = Buffer.from(c.body);
            if (c.encoding === 'gzip') body = gzipSync(body);
            if (c.encoding !== 'none')
              headers['content-encoding'] = c.encoding.replace('-garbled', '');
          }
          // A request that succeeded may leave work running (a test call rings the simulated
          // phone and its progress commits after the answer): wait for that work to end, or it
          // would show as a change made by the next request.
          if (settling) await quiet();
          const before = await version();
          const res = await fetch(path + (qs ? `?${qs}` : ''), {
            method: op.method,
            headers,
            ...(body ? { body } : {}),
          });
          const text = await res.text();
          settling = res.status < 400;
          if (res.status < 300 && op.path.endsWith('/test-call')) await callEnded(text);
          const what = `${op.method} ${path}?${qs} ${c.encoding} ${c.body?.slice(0, 200)}`;
          // 503 provider_unavailable is a documented answer (e.g. POST /billing/inapp/sync with no in-app
          // provider configured), not a failure; every other 5xx is.
          const unavailable = res.status === 503 && /"code":"provider_unavailable"/.test(text);
          assert.ok(
            res.status < 500 || unavailable,
            `${res.status} for ${what}: ${text.slice(0, 300)}`,
          );
          if (res.status >= 400 && !ERRORS_WRITE.has(op.operationId)) {
            const now = await version();
            if (now !== before) {
              const changed = String(now)
                .split(' ')
                .filter((t) => !String(before).split(' ').includes(t))
                .map((t) => t.split('=')[0]);
              assert.fail(
                `${res.status} changed the database (${changed.join(', ') || 'data_version'}): ${what}`,
              );
            }
          }
        }),
        { numRuns: RUNS },
      );
    });
  }
});
