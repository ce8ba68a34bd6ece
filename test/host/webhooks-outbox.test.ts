/**
 * The engine's commits and their webhook events are one transaction
 * (host/webhooks/engine-outbox.ts through host/db/unit-writes.ts, docs/decisions/0023), on SQLite and on PostgreSQL
 * (WAKEUP_TEST_DB=postgres): a commit that finishes an occurrence stores its event with it;
 * writing the row again stores nothing new; a commit the store refuses (version conflict)
 * stores no event; and when the event cannot be stored, the outcome is not stored either.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { OccurrenceRecord } from '../../engine/index.js';
import type { ChangeSet } from '../../engine/internals.js';
import { sampleOccurrence, sampleSeries } from '../../engine/testing/index.js';
import {
  createEngineStore,
  settleEngine,
  type EngineStore,
  type UnitWrite,
} from '../../host/db/engine-store.js';
import { openDatabase } from '../../host/db/open.js';
import type { Db } from '../../host/db/sql.js';
import { webhookEventId } from '../../host/db/webhook-outbox.js';
import { blockNumber, getBlock } from '../../host/db/phone-numbers.js';
import { outcomeEventWrites } from '../../host/webhooks/engine-outbox.js';
import { testPgDatabase } from '../helpers/server.js';

const changes = (
  occurrences: Array<[OccurrenceRecord, number | null]>,
  series: ChangeSet['series'] = [],
): ChangeSet => ({
  occurrences: occurrences.map(([record, expectedVersion]) => ({ record, expectedVersion })),
  attempts: [],
  series,
});

describe('webhook events in the engine commit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-outbox-'));
  let pg: Awaited<ReturnType<typeof testPgDatabase>> = null;
  let db: Db;
  let nudges = 0;
  let engine: EngineStore;
  /** A unit's commit as the runtime makes it: the outcome's events are the commit's writes. */
  const store = {
    commit: async (c: ChangeSet) => {
      const writes = outcomeEventWrites(c);
      const result = await engine.commit(c, { writes });
      if (result.ok && writes.length > 0) nudges++;
      return result;
    },
    load: (keys: Parameters<EngineStore['load']>[0]) => engine.load(keys),
  };
  before(async () => {
    pg = await testPgDatabase();
    db = await openDatabase(pg?.url ?? join(dir, 'wakeup.sqlite'));
    engine = createEngineStore(db);
  });
  after(async () => {
    await db?.close();
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const events = async () =>
    (
      await db.all<{ id: string; type: string }>(
        'SELECT id, type FROM webhook_outbox ORDER BY type',
      )
    ).map((r) => [r.id, r.type]);
  const stored = async (id: string) => {
    await settleEngine(db);
    return (await store.load({ occurrences: [id] })).occurrences[0];
  };

  it('stores the event of a finished occurrence with it, once, and none for unfinished ones', async () => {
    const pending = sampleOccurrence();
    assert.deepEqual(await store.commit(changes([[pending, null]])), { ok: true });
    assert.deepEqual(await events(), []);
    assert.equal(nudges, 0);

    const confirmed = {
      ...pending,
      status: 'confirmed' as const,
      outcomeReason: 'confirmed' as const,
      finishedAt: pending.scheduledAt + 30_000,
      confirmedAt: pending.scheduledAt + 30_000,
      nextDueAt: null,
      version: 2,
    };
    assert.deepEqual(await store.commit(changes([[confirmed, 1]])), { ok: true });
    const id = webhookEventId(`occurrence:${pending.id}:confirmed`);
    assert.deepEqual(await events(), [[id, 'occurrence.confirmed']]);
    assert.equal(nudges, 1);
    const payload = JSON.parse(
      (await db.get<{ payload: string }>('SELECT payload FROM webhook_outbox WHERE id = ?', [id]))!
        .payload,
    );
    assert.deepEqual(
      [
        payload.id,
        payload.type,
        payload.data.occurrence.id,
        payload.data.occurrence.local.timezone,
      ],
      [id, 'occurrence.confirmed', pending.id, 'America/Los_Angeles'],
    );

    // A later write of the finished row (its fallback text's state) reports nothing new.
    assert.deepEqual(
      await store.commit(changes([[{ ...confirmed, fallbackState: 'sent', version: 3 }, 2]])),
      { ok: true },
    );
    assert.deepEqual(await events(), [[id, 'occurrence.confirmed']]);
    assert.equal((await stored(pending.id))!.version, 3);
  });

  it('reports schedule.completed with the occurrence that completed it', async () => {
    const series = sampleSeries();
    const o = sampleOccurrence({ scheduleId: series.id, accountId: series.accountId });
    assert.deepEqual(
      await store.commit({
        ...changes([[o, null]]),
        series: [{ record: series, expectedVersion: null }],
      }),
      { ok: true },
    );
    const missed = {
      ...o,
      status: 'missed' as const,
      outcomeReason: 'no_answer' as const,
      finishedAt: o.scheduledAt + 60_000,
      nextDueAt: null,
      version: 2,
    };
    const completed = {
      ...series,
      status: 'completed' as const,
      nextOccurrenceId: null,
      version: series.version + 1,
    };
    assert.deepEqual(
      await store.commit({
        ...changes([[missed, 1]]),
        series: [{ record: completed, expectedVersion: series.version }],
      }),
      {
        ok: true,
      },
    );
    const types = (await events()).map(([, t]) => t);
    assert.ok(
      types.includes('occurrence.missed') && types.includes('schedule.completed'),
      types.join(),
    );
  });

  it('stores no event for a commit the store refuses', async () => {
    const o = sampleOccurrence();
    await store.commit(changes([[o, null]]));
    const before = await events();
    const cancelled = {
      ...o,
      status: 'cancelled' as const,
      outcomeReason: 'cancelled' as const,
      finishedAt: o.scheduledAt,
      nextDueAt: null,
      version: 3,
    };
    const r = await store.commit(changes([[cancelled, 2]])); // stored at version 1
    assert.equal(r.ok, false);
    assert.deepEqual(await events(), before);
    assert.equal((await stored(o.id))!.status, 'pending');
  });

  it('does not store the outcome when its event cannot be stored', async () => {
    const o = sampleOccurrence();
    await store.commit(changes([[o, null]]));
    if (db.dialect === 'sqlite') {
      await db.exec(
        "CREATE TRIGGER outbox_boom BEFORE INSERT ON webhook_outbox BEGIN SELECT RAISE(ABORT, 'outbox refused'); END;",
      );
    } else {
      await db.exec(
        "CREATE FUNCTION outbox_boom() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'outbox refused'; END $$ LANGUAGE plpgsql;" +
          ' CREATE TRIGGER outbox_boom BEFORE INSERT ON webhook_outbox FOR EACH ROW EXECUTE FUNCTION outbox_boom();',
      );
    }
    try {
      const missed = {
        ...o,
        status: 'missed' as const,
        outcomeReason: 'busy' as const,
        finishedAt: o.scheduledAt,
        nextDueAt: null,
        version: 2,
      };
      await assert.rejects(store.commit(changes([[missed, 1]])), /outbox refused/);
      const now = await stored(o.id);
      assert.deepEqual(
        [now!.status, now!.version],
        ['pending', 1],
        'the outcome was rolled back with its event',
      );
    } finally {
      await db.exec(
        db.dialect === 'sqlite'
          ? 'DROP TRIGGER outbox_boom'
          : 'DROP TRIGGER outbox_boom ON webhook_outbox; DROP FUNCTION outbox_boom()',
      );
    }
    // And with the outbox back, the same outcome commits with its event.
    const missed = {
      ...o,
      status: 'missed' as const,
      outcomeReason: 'busy' as const,
      finishedAt: o.scheduledAt,
      nextDueAt: null,
      version: 2,
    };
    assert.deepEqual(await store.commit(changes([[missed, 1]])), { ok: true });
    assert.ok((await events()).some(([id]) => id === webhookEventId(`occurrence:${o.id}:missed`)));
  });

  it("a unit's other host writes (key 9's line blocked, credits) commit with it or not at all", async () => {
    const o = sampleOccurrence();
    await store.commit(changes([[o, null]]));
    const ringing = { ...o, status: 'calling' as const, version: 2 };
    const failing: UnitWrite[] = [
      (tx) => blockNumber(tx, o.to, 'key_9', 'keypad', o.scheduledAt, 'key 9 (test)'),
      () => Promise.reject(new Error('a later write failed')),
    ];
    await assert.rejects(
      engine.commit(changes([[ringing, 1]]), { writes: failing }),
      /a later write failed/,
    );
    assert.deepEqual(
      [(await stored(o.id))!.status, (await stored(o.id))!.version],
      ['pending', 1],
      'the unit was rolled back',
    );
    assert.equal(await getBlock(db, o.to), undefined, 'and the write before the failure too');
    const working: UnitWrite[] = [
      (tx) => blockNumber(tx, o.to, 'key_9', 'keypad', o.scheduledAt, 'key 9 (test)'),
    ];
    assert.deepEqual(await engine.commit(changes([[ringing, 1]]), { writes: working }), {
      ok: true,
    });
    assert.equal((await stored(o.id))!.version, 2);
    assert.notEqual(await getBlock(db, o.to), undefined);
  });
});
