/**
 * Test call routes: POST /phone-numbers/{id}/test-call (a short test message) and POST
 * /schedules/{id}/test-call (what the schedule's wake-up call says, to its number, with its
 * ring timeout). Rules in `host/calls/test-calls.ts` and `host/calls/service.ts`.
 * @module
 */
import type { AppServices } from '../../services.js';
import type { TestCallResult } from '../../calls/test-calls.js';
import { requirePrincipal } from '../context.js';
import type { Reply } from '../context.js';
import type { Routes } from '../registrar.js';

/** 201 with a call placed now, 200 with the live one a repeated tap finds. */
const reply = (r: TestCallResult): Reply => ({ status: r.placed ? 201 : 200, body: r.attempt });

/** Registers testCallPhoneNumber and testCallSchedule. */
export function register(routes: Routes, services: AppServices): void {
  routes.operation<unknown, unknown, { phone_number_id: string }>(
    'testCallPhoneNumber',
    async ({ principal, params }) =>
      reply(
        await services.calls.testCallPhoneNumber(
          requirePrincipal(principal).accountId,
          params.phone_number_id,
        ),
      ),
  );

  routes.operation<unknown, unknown, { schedule_id: string }>(
    'testCallSchedule',
    async ({ principal, params }) =>
      reply(
        await services.calls.testCallSchedule(
          requirePrincipal(principal).accountId,
          params.schedule_id,
        ),
      ),
  );
}
