/**
 * The engine as an embedder meets it first: `createRuntime` on the real clock
 * (`systemClock({ now: Date.now })`) with random UUIDs (here on SQLite), a runtime without a
 * clock or ids refused by name (the engine reads no clock or randomness of its own), rules
 * need only their required fields, and a
 * malformed rule is refused with an `EngineError` naming the field in camelCase, never a
 * TypeError or RangeError from inside. Through the public entries only.
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { describe, it } from 'node:test';
import {
  EngineError,
  compileRecurrence,
  createRuntime,
  inMinutes,
  nextOccurrenceAfter,
  once,
  systemClock,
  upcomingOccurrences,
  weekly,
  type OccurrenceRecord,
  type RecurrenceInput,
} from '../../engine/index.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { createSqliteStore } from '../../engine/sqlite/index.js';

const PHONE = '+14155550123';
const NOW = Date.parse('2027-03-03T12:00:00Z'); // a Wednesday

/** The EngineError `fn` throws (or rejects with), with its code and field. */
async function refusal(fn: () => unknown): Promise<{ code: string; field?: string }> {
  try {
    await fn();
  } catch (err) {
    assert.ok(EngineError.is(err), `an EngineError, not ${String(err)}`);
    return err.field === undefined ? { code: err.code } : { code: err.code, field: err.field };
  }
  assert.fail('expected a refusal');
}

const realTime = () => systemClock({ now: Date.now });
const randomIds = () => ({ uuid: () => crypto.randomUUID() });

describe('createRuntime on the real clock', () => {
  it('fires a call on the real clock, never before its instant, on SQLite', async () => {
    const store = createSqliteStore(new Database(':memory:'), { createTables: true });
    const clock = realTime();
    const telephony = new MemoryTelephony({
      clock,
      setupSeconds: 0,
      ringSeconds: 0,
      keySeconds: 0,
    });
    const runtime = createRuntime({ clock, ids: randomIds(), store, telephony });
    const done = new Promise<OccurrenceRecord>((resolve) =>
      runtime.on('occurrence:status', ({ occurrence }) => {
        if (occurrence.status === 'confirmed') resolve(occurrence);
      }),
    );
    await runtime.start();
    const o = await runtime.schedule({ accountId: 'a1', to: PHONE, scheduledAt: Date.now() + 50 });
    assert.match(o.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const confirmed = await done;
    await runtime.stop();
    clock.stop();
    assert.equal(confirmed.id, o.id);
    assert.equal(telephony.calls.length, 1);
    assert.ok(telephony.calls[0]!.placedAt >= o.scheduledAt, 'not before its instant');
    await store.close();
  });

  it('refuses a runtime without a clock or ids, naming the port', async () => {
    const clock = realTime();
    const deps = {
      clock,
      ids: randomIds(),
      store: new MemoryStore(),
      telephony: new MemoryTelephony({ clock }),
    };
    for (const port of ['clock', 'ids'] as const) {
      const without = { ...deps, [port]: undefined };
      assert.deepEqual(await refusal(() => createRuntime(without)), {
        code: 'invalid_option',
        field: port,
      });
    }
    clock.stop();
  });

  it('systemClock() never fires a timer early and stop() cancels what is armed', async () => {
    const clock = realTime();
    const due = clock.now() + 20;
    const fired = await new Promise<number>((resolve) =>
      clock.setTimer(due, () => resolve(clock.now())),
    );
    assert.ok(fired >= due);
    clock.setTimer(clock.now() + 30 * 86_400_000, () => assert.fail('a month later'));
    assert.equal(clock.pending, 1);
    clock.stop();
    assert.equal(clock.pending, 0);
  });
});

/** A runtime on a virtual clock at NOW, for what needs no time to pass. */
function virtualRuntime() {
  const clock = new VirtualClock(NOW);
  return createRuntime({
    clock,
    ids: randomIds(),
    store: new MemoryStore(),
    telephony: new MemoryTelephony({ clock }),
  });
}

describe('rules with defaults, and their builders', () => {
  it('weekly() leaves the optional fields to compileRecurrence', () => {
    const rule = compileRecurrence(
      weekly({ timezone: 'America/New_York', localTime: '07:00', days: ['fri', 'mon'] }),
      NOW,
    );
    assert.deepEqual(rule, {
      kind: 'weekly',
      timezone: 'America/New_York',
      localTime: '07:00',
      daysOfWeek: ['mon', 'fri'],
      startDate: '2027-03-03',
      endDate: null,
      pausedUntil: null,
      skipDates: [],
    });
    assert.equal(nextOccurrenceAfter(rule, NOW)!.date, '2027-03-05');
  });

  it('once() and inMinutes() make the one-off kinds', () => {
    const one = once({ timezone: 'Europe/Paris', localDate: '2027-07-01', localTime: '06:30' });
    assert.equal(
      new Date(nextOccurrenceAfter(one, NOW)!.at).toISOString(),
      '2027-07-01T04:30:00.000Z',
    );
    const soon = inMinutes({ timezone: 'UTC', minutes: 20, now: NOW });
    assert.equal(nextOccurrenceAfter(soon, NOW)!.at, NOW + 20 * 60_000);
  });

  it('saveSeries takes a weekly rule with only its required fields', async () => {
    const runtime = virtualRuntime();
    const rule = {
      kind: 'weekly',
      timezone: 'UTC',
      localTime: '07:00',
      daysOfWeek: ['mon'],
    } as const;
    const { series, occurrence } = await runtime.saveSeries({ accountId: 'a1', to: PHONE, rule });
    assert.deepEqual(series.rule.kind === 'weekly' && series.rule.skipDates, []);
    assert.ok(occurrence, 'its next call');
    await runtime.stop();
  });
});

describe('a malformed rule gets a typed error naming the field', () => {
  const base = { kind: 'weekly', timezone: 'UTC', localTime: '07:00', daysOfWeek: ['mon'] };
  const bad = (patch: Record<string, unknown>) =>
    ({ ...base, ...patch }) as unknown as RecurrenceInput;

  it('from saveSeries, as rule.<field>', async () => {
    const runtime = virtualRuntime();
    const save = (rule: RecurrenceInput) => () =>
      runtime.saveSeries({ accountId: 'a1', to: PHONE, rule });
    assert.deepEqual(await refusal(save(bad({ timezone: 'Mars/Base' }))), {
      code: 'invalid_timezone',
      field: 'rule.timezone',
    });
    assert.deepEqual(await refusal(save(bad({ timezone: '+05:00' }))), {
      code: 'timezone_not_allowed',
      field: 'rule.timezone',
    });
    assert.deepEqual(await refusal(save(bad({ skipDates: '2027-03-08' }))), {
      code: 'invalid_rule',
      field: 'rule.skipDates',
    });
    assert.deepEqual(await refusal(save(bad({ daysOfWeek: ['mon', 'moon'] }))), {
      code: 'invalid_rule',
      field: 'rule.daysOfWeek.1',
    });
    assert.deepEqual(await refusal(save(bad({ daysOfWeek: undefined }))), {
      code: 'invalid_rule',
      field: 'rule.daysOfWeek',
    });
    assert.deepEqual(await refusal(save(bad({ localTime: '7am' }))), {
      code: 'invalid_rule',
      field: 'rule.localTime',
    });
    assert.deepEqual(await refusal(save(bad({ startDate: '2027-03-09', endDate: '2027-03-08' }))), {
      code: 'invalid_rule',
      field: 'rule.endDate',
    });
    assert.deepEqual(await refusal(save(bad({ kind: 'recurring' }))), {
      code: 'invalid_rule',
      field: 'rule.kind',
    });
    await runtime.stop();
  });

  it('from the time functions, with the same codes', async () => {
    assert.deepEqual(
      await refusal(() => compileRecurrence(base as RecurrenceInput, undefined as never)),
      {
        code: 'invalid_argument',
        field: 'now',
      },
    );
    assert.deepEqual(
      await refusal(() => nextOccurrenceAfter(bad({ timezone: 'Mars/Base' }), NOW)),
      {
        code: 'invalid_timezone',
        field: 'timezone',
      },
    );
    assert.deepEqual(
      await refusal(() => nextOccurrenceAfter(bad({ skipDates: ['tomorrow'] }), NOW)),
      {
        code: 'invalid_rule',
        field: 'skipDates.0',
      },
    );
    assert.deepEqual(await refusal(() => upcomingOccurrences(base as RecurrenceInput, NaN, 3)), {
      code: 'invalid_argument',
      field: 'after',
    });
    assert.deepEqual(
      await refusal(() =>
        nextOccurrenceAfter(
          { kind: 'one_off', timezone: 'UTC', localDate: '2027-02-30', localTime: '07:00' },
          NOW,
        ),
      ),
      { code: 'invalid_rule', field: 'localDate' },
    );
  });
});
