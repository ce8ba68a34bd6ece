/**
 * POST /dev/seed-morning: a realistic morning for the operator's view in dev mode
 * (host/ops/seed-morning.ts), then optionally the virtual clock moved through it. Mounted only
 * in dev mode.
 * @module
 */
import type { AppServices } from '../../services.js';
import { invalid } from '../../errors.js';
import { isoInstant } from '../../instant.js';
import type { Routes } from '../registrar.js';

/** Registers postDevSeedMorning. */
export function register(routes: Routes, services: AppServices): void {
  routes.operation<{ accounts: number; advance_hours?: number }>(
    'postDevSeedMorning',
    async ({ body }) => {
      const seed = services.dev.seedMorning;
      if (!seed) {
        throw invalid({
          field: 'accounts',
          in: 'body',
          code: 'invalid',
          message: 'seeding needs the telephony simulator (WAKEUP_TELEPHONY=simulator)',
        });
      }
      const hours = body.advance_hours ?? 0;
      if (hours > 0 && !services.dev.virtualClock) {
        throw invalid({
          field: 'advance_hours',
          in: 'body',
          code: 'invalid',
          message: 'moving the clock needs WAKEUP_CLOCK=virtual',
        });
      }
      const made = await seed(body.accounts);
      const now =
        hours > 0
          ? await services.dev.settleClock(services.clock.now() + hours * 3_600_000)
          : services.clock.now();
      return { status: 200, body: { ...made, now: isoInstant(now) } };
    },
  );
}
