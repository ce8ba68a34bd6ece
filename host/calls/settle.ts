/**
 * POST /dev/clock's promise (contract §3): it answers only after every timer due up to the
 * new now has run, the calls and texts they start included, in due order. The virtual clock
 * awaits each timer's promise, and the runtime awaits everything a tick starts; this adds
 * the last step: wait until the runtime is idle, and run any timer that idle work armed at
 * or before the new now, until nothing is left.
 * @module
 */
import type { EpochMs, Runtime } from '../../engine/index.js';
import type { VirtualClock } from '../../engine/sim/index.js';

/** Rounds of "idle, then run what came due" before giving up (a guard against a livelock). */
const MAX_ROUNDS = 1000;

/** Advances `clock` to `target` and returns once the runtime is idle with nothing due. */
export async function settleClock(
  clock: VirtualClock,
  runtime: Pick<Runtime, 'idle'>,
  target: EpochMs,
): Promise<EpochMs> {
  let now = await clock.advance(target);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    await runtime.idle();
    const next = clock.nextAt();
    if (next === null || next > now) break;
    now = await clock.advance(now);
  }
  return now;
}
