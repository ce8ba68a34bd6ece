/**
 * Schedule routes (the wake-up calls): list, create, preview, get, change, preview a change,
 * delete, pause, resume, skip-next and upcoming. The test call lives in test-calls.ts.
 * Thin: the rules are in `host/schedules/service.ts` (over plan.ts, apply.ts, present.ts).
 * @module
 */
import type { AppServices } from '../../services.js';
import type { ScheduleStatus } from '../../schedules/records.js';
import type { ScheduleInBody, SchedulePatchBody } from '../../schedules/input.js';
import type { PageQuery } from '../../paging.js';
import { requirePrincipal } from '../context.js';
import type { Routes } from '../registrar.js';

type IdParams = { schedule_id: string };

/** Registers the schedule operations. */
export function register(routes: Routes, services: AppServices): void {
  const { schedules } = services;
  const me = (p: Parameters<typeof requirePrincipal>[0]) => requirePrincipal(p).accountId;

  routes.operation<unknown, PageQuery & { status?: ScheduleStatus }>(
    'listSchedules',
    async ({ principal, query }) => ({
      status: 200,
      body: await schedules.list(me(principal), query),
    }),
  );

  routes.operation<ScheduleInBody>('createSchedule', async ({ principal, body }) => ({
    status: 201,
    body: await schedules.create(requirePrincipal(principal), body),
  }));

  routes.operation<ScheduleInBody>('previewSchedule', async ({ principal, body }) => ({
    status: 200,
    body: await schedules.preview(requirePrincipal(principal), body),
  }));

  routes.operation<unknown, unknown, IdParams>('getSchedule', async ({ principal, params }) => ({
    status: 200,
    body: await schedules.get(me(principal), params.schedule_id),
  }));

  routes.operation<SchedulePatchBody, unknown, IdParams>(
    'updateSchedule',
    async ({ principal, body, params }) => ({
      status: 200,
      body: await schedules.update(me(principal), params.schedule_id, body),
    }),
  );

  routes.operation<SchedulePatchBody, unknown, IdParams>(
    'previewScheduleChange',
    async ({ principal, body, params }) => ({
      status: 200,
      body: await schedules.previewChange(me(principal), params.schedule_id, body),
    }),
  );

  routes.operation<unknown, unknown, IdParams>('deleteSchedule', async ({ principal, params }) => {
    await schedules.remove(me(principal), params.schedule_id);
    return { status: 204 };
  });

  routes.operation<{ until: string }, unknown, IdParams>(
    'pauseSchedule',
    async ({ principal, body, params }) => ({
      status: 200,
      body: await schedules.pause(me(principal), params.schedule_id, body.until),
    }),
  );

  routes.operation<unknown, unknown, IdParams>('resumeSchedule', async ({ principal, params }) => ({
    status: 200,
    body: await schedules.resume(me(principal), params.schedule_id),
  }));

  routes.operation<unknown, unknown, IdParams>(
    'skipNextOccurrence',
    async ({ principal, params }) => ({
      status: 200,
      body: await schedules.skipNext(me(principal), params.schedule_id),
    }),
  );

  routes.operation<unknown, { count?: number }, IdParams>(
    'listUpcoming',
    async ({ principal, query, params }) => ({
      status: 200,
      body: {
        items: await schedules.upcoming(me(principal), params.schedule_id, query.count ?? 7),
      },
    }),
  );
}
