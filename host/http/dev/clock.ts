/**
 * GET /dev/clock and POST /dev/clock (dev mode only). POST moves the virtual clock forward
 * and answers once every timer due up to the new now has run, in due order.
 * @module
 */
import type { AppDeps } from '../../deps.js';
import { isoInstant } from '../../instant.js';
import { settleClock } from '../../calls/settle.js';
import { invalid, problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

/** Registers the operations. */
export function register(routes: Routes, deps: AppDeps): void {
  routes.operation('getDevClock', () => ({
    status: 200,
    body: { now: isoInstant(deps.clock.now()), mode: deps.virtualClock ? 'virtual' : 'system' },
  }));

  routes.operation<{ advance_seconds?: number; to?: string }>('setDevClock', async ({ body }) => {
    const clock = deps.virtualClock;
    if (!clock) {
      throw problem('validation_error', {
        detail: 'The service runs on the system clock; start it with WAKEUP_CLOCK=virtual to move time.',
        errors: [{ field: '', in: 'body', code: 'invalid', message: 'the clock is not virtual (WAKEUP_CLOCK=system)' }],
      });
    }
    if ((body.advance_seconds === undefined) === (body.to === undefined)) {
      throw invalid({ field: '', in: 'body', code: 'invalid', message: 'send exactly one of advance_seconds or to' });
    }
    const target = body.to !== undefined ? Date.parse(body.to) : clock.now() + body.advance_seconds! * 1000;
    if (!Number.isFinite(target)) throw invalid({ field: 'to', in: 'body', code: 'format', message: 'must be a date-time' });
    if (target < clock.now()) {
      throw invalid({
        field: 'to',
        in: 'body',
        code: 'minimum',
        message: `must not be before the current time ${isoInstant(clock.now())}`,
      });
    }
    const now = await settleClock(clock, deps.runtime, target);
    return { status: 200, body: { now: isoInstant(now) } };
  });
}
