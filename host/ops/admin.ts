/**
 * Operator commands on the whole database, for `host/admin.ts` (`npm run admin -- ...`):
 *
 *   backup <file>     online copy of the database while the server runs (SQLite's backup API),
 *                     checked with PRAGMA integrity_check; refuses to overwrite a file
 *   restore <file>    replaces the database with a backup; refuses while any process (the
 *                     server) has the database open, and keeps the replaced one beside it
 *   accounts          lists the live accounts
 *   usage <email>     an account's trial and calls (what GET /me/usage shows, plus today's count)
 *   providers         whether email, texts, telephony and payments work, from the running
 *                     server's GET /readyz (provider health lives in the server process)
 *
 * Backup and restore are SQLite's (its backup API and file): with WAKEUP_DB a PostgreSQL URL
 * they refuse (host/admin.ts) and name pg_dump / pg_restore instead.
 *
 * Restore refuses while the server runs because a running server holds the old database's
 * state in memory (armed timers, idempotency, in-flight calls): replacing the file under it
 * would lose or double calls. The check is SQLite's own: leaving WAL mode needs every other
 * connection closed, so it fails (SQLITE_BUSY) while the server, or another admin command,
 * has the file open. Stop the server, restore, start it again.
 * @module
 */
import { existsSync } from 'node:fs';
import Sqlite from 'better-sqlite3';
import type { EpochMs } from '../../engine/index.js';
import type { Db } from '../db/sql.js';
import { listAccounts } from '../db/account-list.js';
import { findAccountByEmail } from '../db/accounts.js';
import { isoInstant } from '../instant.js';
import { sqliteOptions } from '../assets.js';
import { callsPlacedToday } from '../entitlement/daily-cap.js';
import { usageOut } from '../entitlement/usage.js';

/** A refusal to print: the command changed nothing. */
export class AdminError extends Error {
  override readonly name = 'AdminError';
}

/** Pages copied per step after the first: the rest in one step, so that writes by the server between steps cannot restart the copy forever. */
const PAGES_PER_STEP = 1_000_000_000;

/** Copies the database at `source` to `dest` with the online backup API; the copy is checked. */
export async function backupDatabase(
  source: string,
  dest: string,
): Promise<{ pages: number; bytes: number }> {
  if (!existsSync(source)) throw new AdminError(`${source}: no database there (WAKEUP_DB)`);
  if (existsSync(dest))
    throw new AdminError(`${dest} exists: choose a new file name (a backup never overwrites)`);
  const db = new Sqlite(source, { ...sqliteOptions(), fileMustExist: true });
  let pages = 0;
  try {
    db.pragma('busy_timeout = 5000');
    const result = await db.backup(dest, { progress: () => PAGES_PER_STEP });
    pages = result.totalPages;
  } finally {
    db.close();
  }
  const problems = checkIntegrity(dest);
  if (problems.length > 0)
    throw new AdminError(
      `backup written to ${dest} but it fails integrity_check: ${problems.join('; ')}`,
    );
  const copy = new Sqlite(dest, { ...sqliteOptions(), readonly: true });
  const bytes =
    (copy.pragma('page_count', { simple: true }) as number) *
    (copy.pragma('page_size', { simple: true }) as number);
  copy.close();
  return { pages, bytes };
}

/**
 * Replaces the database at `target` with the backup at `backup` (see the module header).
 * The database it replaces is first saved as `<target>.before-restore-<instant>`.
 * Migrations are applied by the next server start.
 */
export async function restoreDatabase(
  backup: string,
  target: string,
  now: EpochMs,
): Promise<{ saved: string | null }> {
  if (!existsSync(backup)) throw new AdminError(`${backup}: no such file`);
  const problems = checkIntegrity(backup);
  if (problems.length > 0)
    throw new AdminError(
      `${backup} fails integrity_check: ${problems.join('; ')}; nothing restored`,
    );
  const src = new Sqlite(backup, { ...sqliteOptions(), readonly: true, fileMustExist: true });
  try {
    const isWakeup =
      src
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'accounts'")
        .get() !== undefined;
    if (!isWakeup)
      throw new AdminError(
        `${backup} is not a Wake-Up database (no accounts table); nothing restored`,
      );
    let saved: string | null = null;
    if (existsSync(target)) {
      const current = new Sqlite(target, { ...sqliteOptions(), fileMustExist: true });
      try {
        current.pragma('busy_timeout = 0');
        let mode: unknown;
        try {
          mode = current.pragma('journal_mode = DELETE', { simple: true });
        } catch (err) {
          if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
          mode = 'busy';
        }
        if (mode !== 'delete') {
          throw new AdminError(
            `${target} is open in another process (the server is running?): stop the server first; nothing restored`,
          );
        }
        saved = `${target}.before-restore-${isoInstant(now).replace(/[:.]/g, '-')}`;
        await current.backup(saved, { progress: () => PAGES_PER_STEP });
      } finally {
        current.close();
      }
    }
    await src.backup(target, { progress: () => PAGES_PER_STEP });
    // Back to the server's journal mode, so the next start finds it as it left it.
    const restored = new Sqlite(target, sqliteOptions());
    restored.pragma('journal_mode = WAL');
    restored.close();
    return { saved };
  } finally {
    src.close();
  }
}

/** `PRAGMA integrity_check` of a file: empty when it is sound. */
export function checkIntegrity(file: string): string[] {
  const db = new Sqlite(file, { ...sqliteOptions(), readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
  } finally {
    db.close();
  }
}

/** Lines of `admin accounts`. */
export async function accountLines(db: Db, now: EpochMs): Promise<string[]> {
  const rows = await listAccounts(db);
  const lines = rows.map(
    (a) =>
      `${a.id}  ${a.email}  created ${isoInstant(a.createdAt).slice(0, 10)}  trial ${now < a.trialEndsAt ? `until ${isoInstant(a.trialEndsAt).slice(0, 10)}` : 'over'}` +
      `  numbers ${a.phoneNumbers}  schedules ${a.schedules}${a.callsRevoked ? '  CALLS OFF' : ''}`,
  );
  lines.push(`${rows.length} account${rows.length === 1 ? '' : 's'}`);
  return lines;
}

/** Lines of `admin usage <email>`. */
export async function usageLines(db: Db, email: string, now: EpochMs): Promise<string[]> {
  const account = await findAccountByEmail(db, email.trim().toLowerCase());
  if (!account) throw new AdminError(`${email}: no account with that email`);
  const u = await usageOut(db, account, now);
  return [
    `${account.email} (${account.id})`,
    `  plan            ${u.plan.name} (${u.plan.status}${u.plan.entitled ? ', entitled' : ', not entitled'})`,
    `  trial           ${u.trial_started_at} to ${u.trial_ends_at}`,
    `  calls used      ${u.calls_used} of ${u.calls_included} (${u.trial.calls_left} left${u.near_limit ? ', near the limit' : ''})`,
    `  placed today    ${await callsPlacedToday(db, account.id, now)} (UTC day)`,
  ];
}

/** What `GET /readyz` answers about providers (host/ops/provider-health.ts). */
interface ReadyzProviders {
  status?: string;
  failing?: string[];
  providers?: Record<
    string,
    {
      provider: string;
      status: string;
      failing_since: string | null;
      consecutive_failures: number;
      failures_total: number;
      last_error: { code: string; detail: string; at: string } | null;
      last_ok_at: string | null;
    }
  >;
}

/**
 * `providers`: one line per provider port from the running server's `/readyz`: whether it
 * works, since when it fails, the last error, the last success.
 */
export function providerLines(url: string, readyz: ReadyzProviders): string[] {
  const providers = readyz.providers ?? {};
  const lines = Object.entries(providers).map(([port, p]) => {
    const head = `${port.padEnd(10)} ${p.provider.padEnd(10)}`;
    const lastError = p.last_error
      ? `last error ${p.last_error.at}: ${p.last_error.code} (${p.last_error.detail})`
      : 'no error';
    const lastOk = `last ok ${p.last_ok_at ?? 'never'}`;
    if (p.status === 'failing')
      return `${head} FAILING since ${p.failing_since} (${p.consecutive_failures} in a row); ${lastError}; ${lastOk}`;
    if (p.status === 'ok')
      return `${head} ok; ${lastOk}; ${p.failures_total} failures since start${p.last_error ? `, ${lastError}` : ''}`;
    return `${head} not used yet`;
  });
  const failing = readyz.failing ?? [];
  lines.unshift(
    `server ${url}: ${readyz.status ?? 'unknown'}; ${failing.length ? `FAILING: ${failing.join(', ')}` : 'no provider failing'} (as this server process sees them)`,
  );
  return lines;
}
