/**
 * Devices (app installs): queries on `devices`. The push token is kept only as its sha256.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** Device platforms. */
export type Platform = 'ios' | 'android' | 'web';
/** Whether the app can ring a backup alarm at an exact time. */
export type AlarmCapability = 'exact' | 'inexact' | 'none';

/** One stored device. */
export interface Device {
  id: string;
  accountId: string;
  installationId: string;
  platform: Platform;
  alarmCapability: AlarmCapability | null;
  appVersion: string | null;
  osVersion: string | null;
  model: string | null;
  pushTokenHash: string | null;
  timezone: string | null;
  timezoneReportedAt: EpochMs | null;
  lastSeenAt: EpochMs;
  createdAt: EpochMs;
}

interface Row {
  id: string;
  account_id: string;
  installation_id: string;
  platform: Platform;
  alarm_capability: AlarmCapability | null;
  app_version: string | null;
  os_version: string | null;
  model: string | null;
  push_token_hash: string | null;
  timezone: string | null;
  timezone_reported_at: number | null;
  last_seen_at: number;
  created_at: number;
}

const fromRow = (r: Row): Device => ({
  id: r.id,
  accountId: r.account_id,
  installationId: r.installation_id,
  platform: r.platform,
  alarmCapability: r.alarm_capability,
  appVersion: r.app_version,
  osVersion: r.os_version,
  model: r.model,
  pushTokenHash: r.push_token_hash,
  timezone: r.timezone,
  timezoneReportedAt: r.timezone_reported_at,
  lastSeenAt: r.last_seen_at,
  createdAt: r.created_at,
});

/** Stores a new device. */
export async function insertDevice(db: Db, d: Device): Promise<void> {
  await db.run(
    `INSERT INTO devices (id, account_id, installation_id, platform, alarm_capability, app_version, os_version, model,
       push_token_hash, timezone, timezone_reported_at, last_seen_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      d.id,
      d.accountId,
      d.installationId,
      d.platform,
      d.alarmCapability,
      d.appVersion,
      d.osVersion,
      d.model,
      d.pushTokenHash,
      d.timezone,
      d.timezoneReportedAt,
      d.lastSeenAt,
      d.createdAt,
    ],
  );
}

/** Writes every mutable field of a stored device. */
export async function updateDevice(db: Db, d: Device): Promise<void> {
  await db.run(
    `UPDATE devices SET platform = ?, alarm_capability = ?, app_version = ?, os_version = ?, model = ?,
       push_token_hash = ?, timezone = ?, timezone_reported_at = ?, last_seen_at = ?
     WHERE id = ?`,
    [
      d.platform,
      d.alarmCapability,
      d.appVersion,
      d.osVersion,
      d.model,
      d.pushTokenHash,
      d.timezone,
      d.timezoneReportedAt,
      d.lastSeenAt,
      d.id,
    ],
  );
}

/** The account's device with this id, or undefined (also for another account's). */
export async function getDevice(
  db: Db,
  accountId: string,
  id: string,
): Promise<Device | undefined> {
  const r = await db.get<Row>('SELECT * FROM devices WHERE id = ? AND account_id = ?', [
    id,
    accountId,
  ]);
  return r && fromRow(r);
}

/** The account's device of this installation, or undefined. */
export async function findDeviceByInstallation(
  db: Db,
  accountId: string,
  installationId: string,
): Promise<Device | undefined> {
  const r = await db.get<Row>(
    'SELECT * FROM devices WHERE account_id = ? AND installation_id = ?',
    [accountId, installationId],
  );
  return r && fromRow(r);
}

/** How many devices the account holds. */
export async function countDevices(db: Db, accountId: string): Promise<number> {
  return (
    (
      await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM devices WHERE account_id = ?', [
        accountId,
      ])
    )?.n ?? 0
  );
}

/** The account's device seen longest ago (ties: the oldest created), other than `exceptId`. */
export async function leastRecentlySeenDevice(
  db: Db,
  accountId: string,
  exceptId: string,
): Promise<Device | undefined> {
  const r = await db.get<Row>(
    `SELECT * FROM devices WHERE account_id = ? AND id <> ?
     ORDER BY last_seen_at ASC, created_at ASC, rowid ASC LIMIT 1`,
    [accountId, exceptId],
  );
  return r && fromRow(r);
}

/** The account's device that reported a zone most recently, or undefined. */
export async function latestReportedDevice(db: Db, accountId: string): Promise<Device | undefined> {
  const r = await db.get<Row>(
    `SELECT * FROM devices WHERE account_id = ? AND timezone IS NOT NULL
     ORDER BY timezone_reported_at DESC, rowid DESC LIMIT 1`,
    [accountId],
  );
  return r && fromRow(r);
}

/** Removes a device. Returns whether a row went. */
export async function deleteDeviceRow(db: Db, id: string): Promise<boolean> {
  return (await db.run('DELETE FROM devices WHERE id = ?', [id])).changes === 1;
}

/** Records that the app of this installation was seen (a bound session was used). */
export async function touchDeviceOfInstallation(
  db: Db,
  accountId: string,
  installationId: string,
  now: EpochMs,
): Promise<void> {
  await db.run(
    'UPDATE devices SET last_seen_at = ? WHERE account_id = ? AND installation_id = ? AND last_seen_at < ?',
    [now, accountId, installationId, now],
  );
}
