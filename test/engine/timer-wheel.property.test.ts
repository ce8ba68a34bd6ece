import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TimerWheel } from '../../engine/internals.js';

const SCALE = Number(process.env.WAKEUP_PROPERTY_SCALE ?? 1);
const T0 = Date.UTC(2027, 2, 14, 6, 59, 0);

type Op =
  { op: 'add'; delta: number } | { op: 'cancel'; pick: number } | { op: 'advance'; by: number };

const delta = fc.oneof(
  fc.integer({ min: -50, max: 0 }),
  fc.integer({ min: 0, max: 300 }),
  fc.integer({ min: 0, max: 70_000 }),
  fc.integer({ min: 0, max: 6 * 3_600_000 }),
  fc.integer({ min: 0, max: 60 * 86_400_000 }),
  fc.double({ min: 0, max: 5000, noNaN: true }),
);
const ops = fc.array(
  fc.oneof(
    { arbitrary: fc.record({ op: fc.constant('add' as const), delta }), weight: 5 },
    { arbitrary: fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }), weight: 1 },
    {
      arbitrary: fc.record({
        op: fc.constant('advance' as const),
        by: fc.oneof(
          fc.integer({ min: 0, max: 400 }),
          fc.integer({ min: 0, max: 200_000 }),
          fc.integer({ min: 0, max: 10 * 86_400_000 }),
        ),
      }),
      weight: 2,
    },
  ),
  { maxLength: 300 },
);

/** Runs `script` on a wheel and on a sorted list; they must release the same timers in the same order. */
function check(script: Op[], options: { bits: number; levels: number }): void {
  const wheel = new TimerWheel<number>(T0, options);
  const live = new Map<number, { at: number; seq: number; timer: ReturnType<typeof wheel.add> }>();
  let now = T0;
  let seq = 0;
  const settle = () => {
    wheel.advance(now);
    const got = wheel.takeReady().map((t) => t.value);
    const expected = [...live.entries()]
      .filter(([, e]) => e.at <= now)
      .sort((a, b) => a[1].at - b[1].at || a[1].seq - b[1].seq)
      .map(([id]) => id);
    assert.deepEqual(got, expected);
    for (const id of got) live.delete(id);
    assert.equal(wheel.size, live.size);
    const next = wheel.nextEventAt();
    if (live.size === 0) assert.equal(next, null);
    else {
      const earliest = Math.min(...[...live.values()].map((e) => e.at));
      assert.ok(
        next !== null && next > now && next <= earliest,
        `nextEventAt ${next} must be in (now, ${earliest}]`,
      );
    }
  };
  for (const step of script) {
    if (step.op === 'add') {
      const id = seq++;
      const timer = wheel.add(now + step.delta, id);
      live.set(id, { at: Math.ceil(now + step.delta), seq: id, timer });
      if (Math.ceil(now + step.delta) <= now) settle();
    } else if (step.op === 'cancel') {
      const ids = [...live.keys()];
      if (ids.length === 0) continue;
      const id = ids[step.pick % ids.length]!;
      assert.equal(wheel.cancel(live.get(id)!.timer), true);
      assert.equal(wheel.cancel(live.get(id)!.timer), false);
      live.delete(id);
    } else {
      now += step.by;
      settle();
    }
  }
  // Drain everything: walking to the furthest instant releases every remaining timer in order.
  now += 61 * 86_400_000;
  settle();
  assert.equal(wheel.size, 0);
}

describe('TimerWheel against a sorted reference', () => {
  it('releases the same timers in the same order (default shape)', () => {
    fc.assert(
      fc.property(ops, (script) => check(script, { bits: 8, levels: 4 })),
      { numRuns: 150 * SCALE },
    );
  });

  it('releases the same timers in the same order (tiny shape: 4 slots, 3 levels, heavy cascade and overflow)', () => {
    fc.assert(
      fc.property(ops, (script) => check(script, { bits: 2, levels: 3 })),
      { numRuns: 150 * SCALE },
    );
  });

  it('never releases a timer before its instant, when advanced one millisecond at a time', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 2000 }), { minLength: 1, maxLength: 40 }),
        (deltas) => {
          const wheel = new TimerWheel<number>(T0, { bits: 3, levels: 2 });
          deltas.forEach((d, i) => wheel.add(T0 + d, i));
          for (let t = T0; t <= T0 + 2001; t++) {
            wheel.advance(t);
            for (const due of wheel.takeReady()) assert.equal(due.at, t);
          }
          assert.equal(wheel.size, 0);
        },
      ),
      { numRuns: 30 * SCALE },
    );
  });
});

describe('TimerWheel worked example', () => {
  it('matches the table in the module comment', () => {
    const wheel = new TimerWheel<string>(0, { bits: 2, levels: 3 });
    wheel.add(3, 'A');
    wheel.add(6, 'B');
    wheel.add(6, 'C');
    wheel.add(21, 'D');
    wheel.advance(5);
    assert.deepEqual(
      wheel.takeReady().map((t) => t.value),
      ['A'],
    );
    assert.equal(wheel.nextEventAt(), 6);
    wheel.advance(6);
    assert.deepEqual(
      wheel.takeReady().map((t) => t.value),
      ['B', 'C'],
    );
    assert.equal(wheel.nextEventAt(), 16);
    wheel.advance(20);
    assert.equal(wheel.nextEventAt(), 21);
    wheel.advance(21);
    assert.deepEqual(
      wheel.takeReady().map((t) => t.value),
      ['D'],
    );
  });

  it('a stale handle never cancels the timer that reused its storage', () => {
    const wheel = new TimerWheel<string>(0);
    const old = wheel.add(10, 'old');
    wheel.advance(10);
    assert.deepEqual(
      wheel.takeReady().map((t) => t.value),
      ['old'],
    );
    const fresh = wheel.add(20, 'fresh');
    assert.notEqual(fresh, old);
    assert.equal(wheel.has(old), false);
    assert.equal(wheel.cancel(old), false);
    assert.equal(wheel.has(fresh), true);
    wheel.advance(20);
    assert.deepEqual(
      wheel.takeReady().map((t) => [t.value, t.at, t.handle]),
      [['fresh', 20, fresh]],
    );
  });

  it('queues a late add at once, after the timers already ready', () => {
    const wheel = new TimerWheel<string>(1000);
    wheel.add(1001, 'first');
    wheel.advance(2000);
    wheel.add(1500, 'late');
    assert.deepEqual(
      wheel.takeReady(1).map((t) => t.value),
      ['first'],
    );
    assert.deepEqual(
      wheel.takeReady().map((t) => t.value),
      ['late'],
    );
  });
});
