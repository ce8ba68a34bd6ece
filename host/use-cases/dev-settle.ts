/**
 * POST /dev/clock's settling: the virtual clock moved to the target, answered once idle, where
 * idle means the runtime's work (the calls feature's settleClock) and the texts to contacts its
 * outcomes started (the contacts feature's teller).
 * @module
 */
import type { EpochMs, Runtime } from '../../engine/index.js';
import type { VirtualClock } from '../../engine/sim/index.js';
import { settleClock } from '../calls/settle.js';
import type { ContactTeller } from '../contacts/tell.js';

/** The dev service's `settleClock`; it refuses when the service clock is not virtual. */
export function settleDevClock(deps: {
  virtualClock: VirtualClock | null;
  runtime: Pick<Runtime, 'idle'>;
  teller: Pick<ContactTeller, 'idle'>;
}): (target: EpochMs) => Promise<EpochMs> {
  const { virtualClock, runtime, teller } = deps;
  return (target) => {
    if (!virtualClock) throw new Error('settleClock: the service clock is not virtual');
    const idle = async () => {
      await runtime.idle();
      await teller.idle();
    };
    return settleClock(virtualClock, { idle }, target);
  };
}
