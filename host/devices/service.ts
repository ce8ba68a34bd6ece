/**
 * Devices (app installs) and travel: registration (upsert by installation_id, at most 20 per
 * account with the device seen longest ago evicted and its app signed out), changes,
 * removal (ends the app sessions bound to the installation, contract §2), time-zone
 * reports, the timezone context, and the travel move of a pending call.
 *
 * The move goes through the schedule paths PATCH /schedules/{id} uses (`planChange`, then
 * `applyPlan`, which amends the pending occurrence in place through the runtime), with the
 * suggestion's instant and derivation_source `moved`.
 *
 * Rate limiting is the HTTP layer's (10 registrations a minute per account).
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, EpochMs, Ids, OccurrenceTime, Runtime } from '../../engine/index.js';
import { resolveWallTime } from '../../engine/index.js';
import { localTimeAt } from '../../engine/internals.js';
import { findAccountById, type Account } from '../db/accounts.js';
import { getOccurrenceView } from '../db/calls.js';
import {
  countDevices,
  deleteDeviceRow,
  findDeviceByInstallation,
  getDevice,
  insertDevice,
  latestReportedDevice,
  leastRecentlySeenDevice,
  updateDevice,
  type Device,
} from '../db/devices.js';
import {
  bindSessionToInstallation,
  endSessionsOfInstallation,
  findSessionById,
} from '../db/sessions.js';
import { hashToken } from '../auth/index.js';
import { invalid, problem } from '../errors.js';
import type {
  DeviceIn,
  DeviceOut,
  DevicePatchIn,
  DeviceTimezoneIn,
  MoveIn,
  ScheduleOut,
  TimezoneContext,
} from '../generated/openapi.js';
import { isoInstant, isoInstantOrNull } from '../instant.js';
import {
  applyPlan,
  checkedZone,
  getSchedule,
  planChange,
  scheduleOut,
} from '../schedules/index.js';
import { mismatchesFor, pendingInWindow, timezoneContext } from './travel.js';
import type { Logger } from '../logger.js';

/** Devices an account holds; a new install past this evicts the device seen longest ago. */
export const MAX_DEVICES = 20;

/** Who calls (the HTTP principal fits). */
export interface Caller {
  accountId: string;
  credential: 'api_key' | 'app_session' | 'web_session';
  sessionId: string | null;
}

/** What the devices service needs. */
export interface DevicesDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  runtime: Runtime;
  logger: Logger;
}

/** Schema `DeviceOut`. */
export function deviceOut(d: Device): DeviceOut {
  return {
    id: d.id,
    installation_id: d.installationId,
    platform: d.platform,
    alarm_capability: d.alarmCapability,
    app_version: d.appVersion,
    os_version: d.osVersion,
    model: d.model,
    push_token_set: d.pushTokenHash !== null,
    timezone: d.timezone,
    timezone_reported_at: isoInstantOrNull(d.timezoneReportedAt),
    last_seen_at: isoInstant(d.lastSeenAt),
    created_at: isoInstant(d.createdAt),
  };
}

const pushHash = (token: string | null): string | null =>
  token === null ? null : hashToken(token);

/** Creates the devices service. */
export function createDevicesService(deps: DevicesDeps) {
  const { db, clock } = deps;
  const log = deps.logger.child({ component: 'devices' });

  const account = async (accountId: string): Promise<Account> => {
    const a = await findAccountById(db, accountId);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
  };
  /** The caller's device `id`, read on `q` (the Db, or the transaction that changes it). */
  const owned = async (q: Db, accountId: string, id: string): Promise<Device> => {
    const d = await getDevice(q, accountId, id);
    if (!d) throw problem('not_found', { detail: 'No device with that id.' });
    return d;
  };

  /** Removes a device and ends the app sessions bound to its installation, in the transaction `tx`. */
  const removeDevice = async (tx: Db, d: Device, reason: string, now: EpochMs): Promise<number> => {
    const ended = await endSessionsOfInstallation(tx, d.accountId, d.installationId, reason, now);
    await deleteDeviceRow(tx, d.id);
    return ended;
  };

  /**
   * The device whose zone the traveller carries: the one the calling app session is bound
   * to when it reported a zone, else the account's latest report; null when none did.
   */
  const contextDevice = async (caller: Caller): Promise<Device | null> => {
    if (caller.credential === 'app_session' && caller.sessionId !== null) {
      const session = await findSessionById(db, caller.sessionId);
      if (session?.installationId) {
        const bound = await findDeviceByInstallation(db, caller.accountId, session.installationId);
        if (bound?.timezone) return bound;
      }
    }
    return (await latestReportedDevice(db, caller.accountId)) ?? null;
  };

  const context = async (accountId: string, device: Device | null): Promise<TimezoneContext> =>
    await timezoneContext(
      db,
      accountId,
      (await account(accountId)).homeTimezone,
      device,
      clock.now(),
    );

  return {
    /** POST /devices: upsert by installation_id. */
    async register(
      caller: Caller,
      body: DeviceIn,
    ): Promise<{ device: DeviceOut; created: boolean }> {
      const now = clock.now();
      const zone = body.timezone == null ? null : checkedZone(body.timezone, 'timezone');
      return await db.tx(async (tx) => {
        const known = await findDeviceByInstallation(tx, caller.accountId, body.installation_id);
        let device: Device;
        if (known) {
          device = { ...known, platform: body.platform, lastSeenAt: now };
          if (body.alarm_capability !== undefined) device.alarmCapability = body.alarm_capability;
          if (body.app_version !== undefined) device.appVersion = body.app_version;
          if (body.os_version !== undefined) device.osVersion = body.os_version;
          if (body.model !== undefined) device.model = body.model;
          if (body.push_token !== undefined) device.pushTokenHash = pushHash(body.push_token);
          if (body.timezone !== undefined) {
            device.timezone = zone;
            device.timezoneReportedAt = zone === null ? null : now;
          }
          await updateDevice(tx, device);
        } else {
          device = {
            id: deps.ids.uuid(),
            accountId: caller.accountId,
            installationId: body.installation_id,
            platform: body.platform,
            alarmCapability: body.alarm_capability ?? null,
            appVersion: body.app_version ?? null,
            osVersion: body.os_version ?? null,
            model: body.model ?? null,
            pushTokenHash: pushHash(body.push_token ?? null),
            timezone: zone,
            timezoneReportedAt: zone === null ? null : now,
            lastSeenAt: now,
            createdAt: now,
          };
          await insertDevice(tx, device);
          // Never refused: past the limit, the device seen longest ago goes, and its app is signed out.
          while ((await countDevices(tx, caller.accountId)) > MAX_DEVICES) {
            const oldest = await leastRecentlySeenDevice(tx, caller.accountId, device.id);
            if (!oldest) break;
            const ended = await removeDevice(tx, oldest, 'device_evicted', now);
            log.info(
              { account: caller.accountId, device: oldest.id, sessionsEnded: ended },
              'device evicted (21st install)',
            );
          }
        }
        if (caller.credential === 'app_session' && caller.sessionId !== null) {
          await bindSessionToInstallation(tx, caller.sessionId, body.installation_id);
        }
        return { device: deviceOut(device), created: !known };
      });
    },

    /** PATCH /devices/{id}: null leaves a field unchanged, except push_token and timezone (null clears). */
    async update(caller: Caller, id: string, body: DevicePatchIn): Promise<DeviceOut> {
      const now = clock.now();
      const zone = body.timezone == null ? null : checkedZone(body.timezone, 'timezone');
      return await db.tx(async (tx) => {
        const d: Device = { ...(await owned(tx, caller.accountId, id)), lastSeenAt: now };
        if (body.alarm_capability != null) d.alarmCapability = body.alarm_capability;
        if (body.app_version != null) d.appVersion = body.app_version;
        if (body.os_version != null) d.osVersion = body.os_version;
        if (body.model != null) d.model = body.model;
        if (body.push_token !== undefined) d.pushTokenHash = pushHash(body.push_token);
        if (body.timezone !== undefined) {
          d.timezone = zone;
          d.timezoneReportedAt = zone === null ? null : now;
        }
        await updateDevice(tx, d);
        return deviceOut(d);
      });
    },

    /** DELETE /devices/{id}: the device, its push token and the app sessions bound to it go. */
    async remove(caller: Caller, id: string): Promise<void> {
      const now = clock.now();
      await db.tx(async (tx) => {
        await removeDevice(tx, await owned(tx, caller.accountId, id), 'device_removed', now);
      });
    },

    /** POST /devices/{id}/timezone: stores the report (newest wins) and answers this device's context. */
    async reportTimezone(
      caller: Caller,
      id: string,
      body: DeviceTimezoneIn,
    ): Promise<TimezoneContext> {
      const now = clock.now();
      const zone = checkedZone(body.timezone, 'timezone');
      const reportedAt =
        body.reported_at == null ? now : Math.min(Date.parse(body.reported_at), now);
      const device = await db.tx(async (tx) => {
        const d: Device = { ...(await owned(tx, caller.accountId, id)), lastSeenAt: now };
        const stale = d.timezoneReportedAt !== null && reportedAt < d.timezoneReportedAt;
        if (!stale) {
          d.timezone = zone;
          d.timezoneReportedAt = reportedAt;
        }
        await updateDevice(tx, d);
        return d;
      });
      return await context(caller.accountId, device);
    },

    /** GET /me/timezone-context. */
    async timezoneContext(caller: Caller): Promise<TimezoneContext> {
      return await context(caller.accountId, await contextDevice(caller));
    },

    /** POST /occurrences/{id}/move: applies a travel suggestion that still holds. */
    async move(caller: Caller, occurrenceId: string, body: MoveIn): Promise<ScheduleOut> {
      const a = await account(caller.accountId);
      const view = await getOccurrenceView(db, a.id, occurrenceId);
      if (!view || view.record.scheduleId === null)
        throw problem('not_found', { detail: 'No occurrence with that id.' });
      const status = view.record.status;
      if (status === 'dispatching' || status === 'calling' || status === 'waiting') {
        throw problem('occurrence_in_progress', {
          detail: 'The call is being placed or is ringing now; it cannot be moved.',
        });
      }
      if (status !== 'pending')
        throw problem('occurrence_terminal', {
          detail: `This call already finished (${status}); it cannot be moved.`,
        });
      const zone = checkedZone(body.timezone, 'timezone');
      const now = clock.now();

      // Re-check against the mismatch list of now.
      const device = await contextDevice(caller);
      const current =
        device?.timezone == null
          ? undefined
          : mismatchesFor(await pendingInWindow(db, a.id, now), device.timezone, now).find(
              (m) => m.occurrenceId === occurrenceId,
            );
      if (!current || current.suggested === null) {
        throw invalid({
          field: 'timezone',
          in: 'body',
          code: 'not_a_mismatch',
          message:
            'this call is no longer a travel mismatch (GET /me/timezone-context lists the current ones); nothing was moved',
        });
      }
      const s = current.suggested;
      if (s.timezone !== zone) {
        throw invalid({
          field: 'timezone',
          in: 'body',
          code: 'suggestion_changed',
          message: `the suggestion changed: the device is now in ${s.timezone}; nothing was moved`,
        });
      }
      if (s.localDate !== body.local_date) {
        throw invalid({
          field: 'local_date',
          in: 'body',
          code: 'suggestion_changed',
          message: `the suggestion changed: the suggested date is now ${s.localDate}; nothing was moved`,
        });
      }

      const before = await getSchedule(db, a.id, view.record.scheduleId);
      if (!before || before.nextOccurrenceId !== occurrenceId) {
        throw problem('occurrence_terminal', {
          detail: 'This call is no longer the next call of its schedule; it cannot be moved.',
        });
      }
      const ctx = { db, now, account: a, newId: () => deps.ids.uuid() };
      const patch =
        before.kind === 'once'
          ? { timezone: zone, local_date: s.localDate, local_time: s.localTime }
          : { timezone: zone };
      const plan = await planChange(ctx, before, patch, { refuseInProgress: true });
      // The pending call rings at the suggestion (for a recurring call it may be a date its days
      // would not pick: the person accepted that day), changed in place.
      const r = resolveWallTime(zone, s.localDate, s.localTime);
      const at: OccurrenceTime = {
        at: s.scheduledAt,
        date: s.localDate,
        local: localTimeAt(zone, s.scheduledAt, r.local.wallTimeKind),
        requested: { date: s.localDate, time: s.localTime },
        transition: r.transition,
        source: plan.first?.source ?? 'one_off',
      };
      plan.after.status = 'active';
      plan.after.nextOccurrenceId = occurrenceId;
      plan.action = { kind: 'amend', at };
      plan.first = at;
      plan.derivationSource = 'moved';
      const saved = await applyPlan({ db, runtime: deps.runtime }, plan);
      return await scheduleOut(db, saved, a, clock.now());
    },
  };
}

/** The devices service. */
export type DevicesService = ReturnType<typeof createDevicesService>;
