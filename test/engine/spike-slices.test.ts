/**
 * How a spike shares the event loop: the runtime's units are sized to a slice of its clock
 * (`sliceMs`), and it yields before a slice would overrun. The clock here runs on a time
 * source the store moves: each commit costs clock time in proportion to its rows, the way a
 * real store costs CPU, so what happens between two turns of the event loop is counted in
 * that time, deterministically.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRuntime, systemClock, type CommitOptions } from '../../engine/index.js';
import type { ChangeSet, CommitResult } from '../../engine/internals.js';
import { MemoryStore } from '../../engine/sim/index.js';
import type { MemoryTransaction } from '../../engine/sim/memory-store.js';
import { PHONE, sequentialIds, T0 } from './harness.js';

/** Clock time a dispatch costs in its unit (the intent: an attempt inserted), and an answer's. */
const DISPATCH_MS = 0.05;
const ANSWER_MS = 0.01;
const SLICE_MS = 10;
const CALLS = 3000;

describe('a spike and the event loop', () => {
  it('keeps dispatch units within a slice and each turn of the loop near one slice', async () => {
    let t = T0 - 1;
    const dispatchUnits: number[] = [];
    class TimedStore extends MemoryStore {
      override commit(
        changes: ChangeSet,
        options?: CommitOptions<MemoryTransaction>,
      ): Promise<CommitResult> {
        let inserted = 0;
        for (const w of changes.attempts) if (w.expectedVersion === null) inserted++;
        if (inserted > 0) dispatchUnits.push(inserted);
        t += inserted * DISPATCH_MS + (changes.attempts.length - inserted) * ANSWER_MS;
        return super.commit(changes, options);
      }
    }
    const clock = systemClock({ now: () => t });
    const runtime = createRuntime({
      clock,
      ids: sequentialIds(),
      store: new TimedStore(),
      telephony: {
        placeCall: async (req) => ({ ok: true, callId: `C-${req.idempotencyKey}` }),
        hangUp: async () => {},
        onEvent: () => {},
      },
      options: { sliceMs: SLICE_MS },
    });
    await runtime.start();
    for (let i = 0; i < CALLS; i++)
      await runtime.schedule({ accountId: `a${i}`, to: PHONE, scheduledAt: T0 });

    // Clock time used in each turn of the event loop: a probe runs once per turn.
    const turns: number[] = [];
    let last = T0;
    let probing = true;
    const probe = () => {
      turns.push(t - last);
      last = t;
      if (probing) setImmediate(probe);
    };
    t = T0;
    setImmediate(probe);
    while (runtime.stats.dispatched < CALLS) await new Promise((r) => setTimeout(r, 5));
    await runtime.idle();
    probing = false;
    await runtime.stop();
    clock.stop();

    assert.equal(
      dispatchUnits.reduce((a, b) => a + b, 0),
      CALLS,
      'every call dispatched once',
    );
    // The first unit that overruns a slice halves the size; the answers' quick units must not
    // grow it back past a slice.
    const over = dispatchUnits.filter((rows) => rows * DISPATCH_MS > SLICE_MS);
    assert.ok(over.length <= 1, `dispatch units over a slice: ${over.join(', ')} rows`);
    const longest = Math.max(...turns);
    assert.ok(
      longest <= SLICE_MS * 1.5,
      `longest turn ${longest.toFixed(2)} ms of clock time (units ${dispatchUnits.join(' ')})`,
    );
  });
});
