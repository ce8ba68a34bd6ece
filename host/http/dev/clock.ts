/**
 * GET /dev/clock and POST /dev/clock (dev mode only). POST moves the virtual clock forward
 * and answers once every timer due up to the new now has run, in due order.
 * @module
 */
import type { AppServices } from '../../services.js';
import { isoInstant } from '../../instant.js';
import { invalid, problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

/** The furthest one POST /dev/clock may move time (schema DevClockIn). */
const MAX_JUMP_DAYS = 1826;
const MAX_JUMP_MS = MAX_JUMP_DAYS * 86_400_000;

/** Registers the operations. */
export function register(routes: Routes, services: AppServices): void {
  routes.operation('getDevClock', () => ({
    status: 200,
    body: {
      now: isoInstant(services.clock.now()),
      mode: services.dev.virtualClock ? 'virtual' : 'system',
    },
  }));

  routes.operation<{ advance_seconds?: number; to?: string }>('setDevClock', async ({ body }) => {
    const clock = services.dev.virtualClock;
    if (!clock) {
      throw problem('validation_error', {
        detail:
          'The service runs on the system clock; start it with WAKEUP_CLOCK=virtual to move time.',
        errors: [
          {
            field: '',
            in: 'body',
            code: 'invalid',
            message: 'the clock is not virtual (WAKEUP_CLOCK=system)',
          },
        ],
      });
    }
    if ((body.advance_seconds === undefined) === (body.to === undefined)) {
      throw invalid({
        field: '',
        in: 'body',
        code: 'invalid',
        message: 'send exactly one of advance_seconds or to',
      });
    }
    const target =
      body.to !== undefined ? Date.parse(body.to) : clock.now() + body.advance_seconds! * 1000;
    if (!Number.isFinite(target))
      throw invalid({ field: 'to', in: 'body', code: 'format', message: 'must be a date-time' });
    if (target < clock.now()) {
      throw invalid({
        field: 'to',
        in: 'body',
        code: 'minimum',
        message: `must not be before the current time ${isoInstant(clock.now())}`,
      });
    }
    if (target - clock.now() > MAX_JUMP_MS) {
      // Every timer due on the way runs before the answer: a jump to year 9999 would hold the
      // server for minutes.
      throw invalid({
        field: 'to',
        in: 'body',
        code: 'maximum',
        message: `must be at most ${MAX_JUMP_DAYS} days (five years) after the current time`,
      });
    }
    const now = await services.dev.settleClock(target);
    return { status: 200, body: { now: isoInstant(now) } };
  });
}
