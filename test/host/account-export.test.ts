/**
 * Issue 10, item 3: GET /me/export through HTTP. The document's layout, the export scope
 * for API keys, that no token, key, code or hash of one appears in it, and that an account
 * with 50,000 attempts exports with flat server memory (the document is streamed batch by
 * batch, never built whole).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { settledDb, withTestDb, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';
import {
  advance,
  assertSchema,
  createCall,
  newAccount,
  phone,
  startCallsServer,
} from './calls-fixture.js';

async function exportText(
  server: TestServer,
  token: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  const r = await fetch(`${server.api}/me/export`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

describe('GET /me/export', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  it('streams one JSON document with the documented layout; API keys need scope export', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['no_answer', 'confirm'], 5);
    const { occurrenceId } = await createCall(f, { retry_policy: { offsets_minutes: [5] } }, 1);
    await advance(server, 60 * 8);
    await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    await advance(server, 60);

    const r = await exportText(server, f.token);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(
      r.headers.get('content-disposition') ?? '',
      /^attachment; filename="wakeup-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const doc = JSON.parse(r.text);
    assertSchema('ExportOut', doc);
    assert.deepEqual(Object.keys(doc), [
      'format_version',
      'exported_at',
      'account',
      'usage',
      'occurrences',
      'phone_numbers',
      'schedules',
      'calls',
      'api_keys',
      'sessions',
      'identity_links',
      'devices',
      'webhook_endpoints',
      'contacts',
      'schedule_contacts',
      'contact_texts',
    ]);
    assert.equal(doc.account.id, f.accountId);
    const occ = doc.occurrences.find((o: any) => o.id === occurrenceId);
    assert.deepEqual(
      occ.attempts.map((a: any) => [a.n, a.status]),
      [
        [1, 'no_answer'],
        [2, 'confirmed'],
      ],
    );
    assert.equal(doc.phone_numbers[0].e164, f.number);
    assert.equal(doc.schedules.length, 1);
    assert.equal(doc.calls.length, 1);
    assert.equal(doc.calls[0].kind, 'test');
    assert.equal(doc.sessions.length, 1);

    // API keys: without export 403 insufficient_scope; with it 200.
    const plain = await f.api('POST', '/api-keys', { name: 'plain' });
    const denied = await fetch(`${server.api}/me/export`, {
      headers: { authorization: `Bearer ${plain.body.key}` },
    });
    assert.equal(denied.status, 403);
    assert.equal(((await denied.json()) as any).code, 'insufficient_scope');
    const exp = await f.api('POST', '/api-keys', { name: 'export', scopes: ['read', 'export'] });
    const ok = await exportText(server, exp.body.key);
    assert.equal(ok.status, 200);
    assert.equal(JSON.parse(ok.text).api_keys.length, 2);
    assert.ok(JSON.parse(ok.text).api_keys.every((k: any) => k.prefix.startsWith('wuk_')));
  });

  it('holds no token, key, code or hash of one', async () => {
    const f = await newAccount(server);
    const key = (
      await f.api('POST', '/api-keys', { name: 'k', scopes: ['read', 'write', 'export'] })
    ).body.key as string;
    const pushToken = 'push-token-0123456789abcdef';
    const installationId = '6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b';
    const dev = await f.api('POST', '/devices', {
      installation_id: installationId,
      platform: 'ios',
      push_token: pushToken,
    });
    assert.equal(dev.status, 201);
    assert.equal((await f.api('POST', '/me/deletion-code')).status, 202);
    const me = (await f.api('GET', '/me')).body;
    const mail = await call(
      server,
      'GET',
      `/dev/outbox?channel=email&to=${encodeURIComponent(me.email)}`,
    );
    const codes: string[] = mail.body.items.map((i: any) => i.code).filter(Boolean);
    const db = server.running.deps.db;
    const hashes = [
      ...(await db.all(
        'SELECT token_hash AS h, csrf_hash AS c, lookup AS l FROM sessions WHERE account_id = ?',
        [f.accountId],
      )),
      ...(await db.all('SELECT key_hash AS h FROM api_keys WHERE account_id = ?', [f.accountId])),
      ...(await db.all(
        'SELECT code_hash AS h, code_salt AS c FROM deletion_codes WHERE account_id = ?',
        [f.accountId],
      )),
      ...(await db.all(
        'SELECT code_hash AS h, code_salt AS c FROM phone_numbers WHERE account_id = ?',
        [f.accountId],
      )),
      ...(await db.all('SELECT push_token_hash AS h FROM devices WHERE account_id = ?', [
        f.accountId,
      ])),
    ].flatMap((r: any) =>
      Object.values(r as object).filter((v): v is string => typeof v === 'string'),
    );
    const text = (await exportText(server, f.token)).text;
    assert.deepEqual(
      (JSON.parse(text) as { devices: Array<{ installation_id: string }> }).devices.map(
        (d) => d.installation_id,
      ),
      [installationId],
    );
    const secrets = [
      f.token,
      key,
      key.slice(12),
      pushToken,
      ...codes.map((c) => `"${c}"`),
      ...hashes,
    ];
    assert.ok(secrets.length >= 8);
    for (const s of secrets) assert.ok(!text.includes(s), `export leaks ${s.slice(0, 12)}…`);
  });

  it('exports an account with 50,000 attempts with flat server memory', async () => {
    const f = await newAccount(server);
    const { occurrenceId } = await createCall(f, {}, 600);
    // 10,000 finished occurrences of 5 attempts each, copied from the stored one (folded into its table first).
    await settledDb(server);
    await withTestDb(server, async (db) => {
      // The stored occurrence's columns (a row's keys), but PostgreSQL's generated rowid column.
      const occCols = Object.keys(
        (await db.get<Record<string, unknown>>('SELECT * FROM occurrences WHERE id = ?', [
          occurrenceId,
        ]))!,
      ).filter((c) => c !== 'rowid');
      const occSelect = occCols.map((c) =>
        c === 'id'
          ? `'bulk-' || i`
          : c === 'status'
            ? `'missed'`
            : c === 'next_due_at'
              ? 'NULL'
              : c === 'outcome_reason'
                ? `'no_answer'`
                : c,
      );
      const att = {
        id: `'bulk-' || i || '-' || k`,
        occurrence_id: `'bulk-' || i`,
        account_id: `'${f.accountId}'`,
        phone_number_id: `'${f.phoneId}'`,
        kind: `'first'`,
        n: 'k',
        status: `'no_answer'`,
        to_e164: `'${f.number}'`,
        due_at: '0',
        created_at: '0',
        requested_at: '0',
        ended_at: '1',
        idempotency_key: `'bulk-' || i || '-' || k`,
        ring_timeout_seconds: '45',
        updated_at: '1',
      };
      await db.tx(async (tx) => {
        await tx.run(
          `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < 10000)
         INSERT INTO occurrences (${occCols.join(', ')}) SELECT ${occSelect.join(', ')} FROM seq, occurrences WHERE occurrences.id = ?`,
          [occurrenceId],
        );
        await tx.run(
          `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < 10000),
                        ks(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM ks WHERE k < 5)
         INSERT INTO attempts (${Object.keys(att).join(', ')}) SELECT ${Object.values(att).join(', ')} FROM seq, ks`,
        );
      });
      assert.equal(
        (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM attempts WHERE account_id = ?', [
          f.accountId,
        ]))!.n,
        50_000,
      );
    });

    // Live heap (after a full collection), sampled while the document streams.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const live = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const base = live();
    let peak = base;
    const res = await fetch(`${server.api}/me/export`, {
      headers: { authorization: `Bearer ${f.token}` },
    });
    assert.equal(res.status, 200);
    let bytes = 0;
    let chunks = 0;
    let tail = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      chunks++;
      if (chunks % 100 === 0) peak = Math.max(peak, live());
      tail = Buffer.from(chunk).toString('utf8').slice(-64);
    }
    const growth = peak - base;
    console.log(
      `export: ${(bytes / 1e6).toFixed(1)} MB in ${chunks} chunks; heap growth at peak ${(growth / 1e6).toFixed(1)} MB`,
    );
    assert.ok(bytes > 20e6, 'a large document');
    assert.ok(chunks > 50, 'streamed in many chunks, not one');
    assert.match(tail, /\]\}\n$/);
    // Building the document whole would hold at least its size in the heap; streamed, the
    // live heap holds a few batches and buffers (measured: about 7 MB for 40 MB).
    assert.ok(growth < bytes / 4, `live heap grew ${growth} bytes for a ${bytes}-byte document`);
  });
});
