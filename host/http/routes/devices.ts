/**
 * Device and travel routes: POST /devices (upsert, 10 a minute per account), PATCH and
 * DELETE /devices/{id}, POST /devices/{id}/timezone, GET /me/timezone-context and POST
 * /occurrences/{id}/move. Thin: the rules are in host/devices/.
 * @module
 */
import type { DeviceIn, DevicePatchIn, DeviceTimezoneIn, MoveIn } from '../../generated/openapi.js';
import { requirePrincipal } from '../context.js';
import { RateLimiter } from '../../rate-limit/limiter.js';
import { countLimit } from '../rate-limit.js';
import type { AppServices } from '../../services.js';
import type { Routes } from '../registrar.js';

/** POST /devices: requests a minute per account. */
export const REGISTRATIONS_PER_MINUTE = 10;

type DeviceParams = { device_id: string };

/** Registers the device and travel operations. */
export function register(routes: Routes, services: AppServices): void {
  const svc = services.devices;
  const registrations = new RateLimiter({
    name: 'devices.register',
    limit: REGISTRATIONS_PER_MINUTE,
    windowSeconds: 60,
    clock: services.clock,
    store: services.shared.rateWindows,
  });

  routes.operation<DeviceIn>('registerDevice', async ({ ctx, principal, body }) => {
    const p = requirePrincipal(principal);
    await countLimit(
      ctx,
      registrations,
      p.accountId,
      `Device registration allows ${REGISTRATIONS_PER_MINUTE} requests a minute.`,
    );
    const { device, created } = await svc.register(p, body);
    return { status: created ? 201 : 200, body: device };
  });

  routes.operation<DevicePatchIn, unknown, DeviceParams>(
    'updateDevice',
    async ({ principal, body, params }) => ({
      status: 200,
      body: await svc.update(requirePrincipal(principal), params.device_id, body),
    }),
  );

  routes.operation<unknown, unknown, DeviceParams>(
    'deleteDevice',
    async ({ principal, params }) => {
      await svc.remove(requirePrincipal(principal), params.device_id);
      return { status: 204 };
    },
  );

  routes.operation<DeviceTimezoneIn, unknown, DeviceParams>(
    'reportDeviceTimezone',
    async ({ principal, body, params }) => ({
      status: 200,
      body: await svc.reportTimezone(requirePrincipal(principal), params.device_id, body),
    }),
  );

  routes.operation('getTimezoneContext', async ({ principal }) => ({
    status: 200,
    body: await svc.timezoneContext(requirePrincipal(principal)),
  }));

  routes.operation<MoveIn, unknown, { occurrence_id: string }>(
    'moveOccurrence',
    async ({ principal, body, params }) => ({
      status: 200,
      body: await svc.move(requirePrincipal(principal), params.occurrence_id, body),
    }),
  );
}
