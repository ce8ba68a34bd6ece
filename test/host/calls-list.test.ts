/**
 * GET /occurrences (soonest first; status filter; `from` inclusive, `to` exclusive; the
 * default window of the last day and the next seven days; paging) and GET /calls paging, with
 * the validation errors of their query parameters. Also the time fields of OccurrenceOut for
 * a call in another zone than the account's home.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import { addVerifiedNumber } from '../helpers/phone.js';
import {
  advance,
  assertSchema,
  createCall,
  freshNumber,
  newAccount,
  nowMs,
  occurrence,
  startCallsServer,
  type CallsAccount,
} from './calls-fixture.js';

const DAY = 86_400_000;

async function ids(f: CallsAccount, query: string): Promise<string[]> {
  const r = await f.api('GET', `/occurrences${query}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assertSchema('OccurrencePage', r.body);
  return r.body.items.map((o: any) => o.id);
}

describe('GET /occurrences and GET /calls', () => {
  let server: TestServer;
  let f: CallsAccount;
  const occ: Record<string, any> = {};
  before(async () => {
    server = await startCallsServer();
    f = await newAccount(server, { home: 'America/New_York' });
    const old = await createCall(f);
    await advance(server, 2 * 86_400); // the first call rang two days ago
    occ.old = await occurrence(f, old.occurrenceId);
    for (const [name, minutes] of [
      ['a', 10],
      ['b', 20],
      ['d', 30],
    ] as const) {
      occ[name] = await occurrence(f, (await createCall(f, {}, minutes)).occurrenceId);
    }
    // Ten days ahead, in Paris: outside the default window.
    const date = new Date(nowMs(server) + 10 * DAY).toISOString().slice(0, 10);
    const far = await f.api('POST', '/schedules', {
      kind: 'once',
      local_date: date,
      local_time: '07:00',
      timezone: 'Europe/Paris',
    });
    assert.equal(far.status, 201, JSON.stringify(far.body));
    occ.c = await occurrence(f, far.body.next_occurrence.id);
    assert.equal((await f.api('POST', `/occurrences/${occ.d.id}/cancel`)).status, 200);
  });
  after(async () => {
    await server.close();
  });

  it('default window: the last day and the next seven days, soonest first', async () => {
    assert.deepEqual(await ids(f, ''), [occ.a.id, occ.b.id, occ.d.id]);
  });

  it('status filter', async () => {
    assert.deepEqual(await ids(f, '?status=cancelled'), [occ.d.id]);
    assert.deepEqual(await ids(f, '?status=pending'), [occ.a.id, occ.b.id]);
    assert.deepEqual(
      await ids(f, '?status=confirmed'),
      [],
      'the confirmed call is outside the default window',
    );
    assert.deepEqual(await ids(f, '?status=confirmed&from=2000-01-01T00:00:00Z'), [occ.old.id]);
  });

  it('from is inclusive, to exclusive; with only one, the other side is open', async () => {
    const from = encodeURIComponent(occ.a.scheduled_at);
    const to = encodeURIComponent(occ.b.scheduled_at);
    assert.deepEqual(await ids(f, `?from=${from}&to=${to}`), [occ.a.id]);
    assert.deepEqual(await ids(f, `?from=${from}`), [occ.a.id, occ.b.id, occ.d.id, occ.c.id]);
    assert.deepEqual(await ids(f, `?to=${to}`), [occ.old.id, occ.a.id]);
    // An offset other than Z names the same instant.
    const shifted = new Date(Date.parse(occ.a.scheduled_at)).toISOString().replace('Z', '+00:00');
    assert.deepEqual(await ids(f, `?from=${encodeURIComponent(shifted)}&to=${to}`), [occ.a.id]);
  });

  it('pages with next_cursor, never repeating or skipping', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `?from=2000-01-01T00:00:00Z&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const r = await f.api('GET', `/occurrences${q}`);
      assert.equal(r.status, 200);
      assert.ok(r.body.items.length <= 2);
      seen.push(...r.body.items.map((o: any) => o.id));
      cursor = r.body.next_cursor;
      pages++;
    } while (cursor !== null);
    assert.deepEqual(seen, [occ.old.id, occ.a.id, occ.b.id, occ.d.id, occ.c.id]);
    assert.equal(pages, 3);
  });

  it('the time fields: the call zone in local, the home zone in in_home_timezone', async () => {
    assert.deepEqual(
      [occ.c.local.timezone, occ.c.local.time, occ.c.local.wall_time_kind],
      ['Europe/Paris', '07:00', 'normal'],
    );
    assert.equal(occ.c.in_home_timezone.timezone, 'America/New_York');
    assert.equal(occ.c.in_home_timezone.time, '01:00');
    assert.equal(occ.a.local.timezone, 'America/New_York');
    assert.equal(occ.a.in_home_timezone, undefined, 'omitted when the call is in the home zone');
    const list = await f.api('GET', '/occurrences');
    const a = list.body.items[0];
    assert.equal(a.in_seconds, Math.trunc((Date.parse(a.scheduled_at) - nowMs(server)) / 1000));
    assert.equal(a.label, 'Wake-up call');
  });

  it('400 validation_error for a bad limit, cursor, status or instant', async () => {
    for (const q of [
      'limit=201',
      'limit=0',
      'limit=x',
      'cursor=%%%',
      'cursor=bm90IGEga2V5',
      'status=ringing',
      'from=yesterday',
      'to=2027-13-01T00:00:00Z',
    ]) {
      const r = await f.api('GET', `/occurrences?${q}`);
      assert.deepEqual([r.status, r.body.code], [400, 'validation_error'], q);
      assertSchema('Problem', r.body);
    }
    for (const q of ['limit=201', 'cursor=WzEsMiwzXQ']) {
      const r = await f.api('GET', `/calls?${q}`);
      assert.deepEqual([r.status, r.body.code], [400, 'validation_error'], q);
    }
  });

  it('GET /calls pages newest first', async () => {
    const first = await f.api('GET', '/calls?limit=1');
    assert.equal(first.status, 200);
    assert.equal(first.body.items.length, 1);
    assert.equal(first.body.items[0].occurrence_id, occ.old.id);
    assert.equal(first.body.next_cursor, null, 'one call so far');
    // Two test calls at the same instant (two numbers): still newest first, across pages.
    const second = await addVerifiedNumber(server, f.token, freshNumber());
    const t1 = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    const t2 = await f.api('POST', `/phone-numbers/${second.id}/test-call`);
    assert.deepEqual([t1.status, t2.status], [201, 201]);
    assert.equal(t1.body.created_at, t2.body.created_at);
    await advance(server, 60);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await f.api('GET', `/calls?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...r.body.items.map((x: any) => x.id));
      cursor = r.body.next_cursor;
    } while (cursor !== null);
    assert.deepEqual(seen.slice(0, 2), [t2.body.id, t1.body.id]);
    assert.equal(seen.length, 3);
  });
});
