#!/usr/bin/env node
/**
 * Operator command line: `npm run admin -- <command>` (or `node dist/host/admin.js <command>`
 * after `npm run build`; `node --import tsx host/admin.ts <command>` from the sources).
 * Opens the database the server uses (WAKEUP_DB) and uses the real time: operator actions
 * happen now. Commands: `host/ops/admin.ts` (backup, restore, accounts, usage),
 * `host/phone/admin.ts` (number blocks) and `host/billing/admin.ts` (`plan`: grant, revoke, show).
 * @module
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createSystemClock } from './adapters/clock/system-clock.js';
import { openDatabase } from './db/open.js';
import { isPostgresUrl } from './db/sql.js';
import {
  accountLines,
  AdminError,
  backupDatabase,
  providerLines,
  restoreDatabase,
  usageLines,
} from './ops/admin.js';
import { ADMIN_USAGE, runAdmin } from './phone/admin.js';
import { dueSeconds, projectMinutes, spikeLines } from './ops/spike.js';
import { loadBillingConfig } from './billing/config.js';
import { createBillingService } from './billing/service.js';
import { PLAN_ADMIN_USAGE, runPlanAdmin } from './billing/admin.js';

const PHONE_LINES = ADMIN_USAGE.split('\n').slice(1, -1);
const USAGE = [
  'usage: npm run admin -- <command>   (or: node dist/host/admin.js <command>)',
  ...PHONE_LINES,
  '  backup <file>                                               online copy of the database, safe while the server runs; checked with integrity_check',
  '  restore <file>                                              replace the database with a backup (stop the server first; the old one is kept beside it)',
  '  accounts                                                    list the accounts',
  "  usage <email>                                               an account's trial and calls",
  '  spike [--rate N] [--warn-s S] [--top N]                     the busiest minutes of the next 24 hours and how late their last call rings at the provider rate',
  '                                                              (N calls/s, default WAKEUP_CALLS_PER_SECOND; warns past S seconds, default 60; exit 3 on a warning)',
  '  providers [--url <server>]                                  email, texts, telephony, payments: working or failing, since when, the last error',
  '                                                              (asks the running server: --url, else http://HOST:PORT from the environment; exit 3 when one fails)',
  ...PLAN_ADMIN_USAGE.split('\n').filter((line) => line.startsWith('  ')),
  'The database is WAKEUP_DB (default ./data/wakeup.sqlite); the server may keep running, except for restore.',
  'backup and restore are SQLite only: with a postgres:// WAKEUP_DB use pg_dump and pg_restore.',
].join('\n');

async function main(args: string[]): Promise<number> {
  if (args.length === 0 || args[0] === '--help' || args[0] === '-h') {
    console.log(USAGE);
    return args.length === 0 ? 1 : 0;
  }
  const dbFile = process.env.WAKEUP_DB?.trim() || './data/wakeup.sqlite';
  const systemClock = createSystemClock();
  const now = systemClock.now();
  const [command, arg] = args;
  try {
    if (command === 'providers') return await providers(args.slice(1));
    if (command === 'spike') return await spike(dbFile, args.slice(1), now);
    if (command === 'backup' || command === 'restore') {
      if (isPostgresUrl(dbFile)) {
        console.error(
          `admin ${command}: SQLite only; WAKEUP_DB names a PostgreSQL database: use PostgreSQL's own tools (pg_dump, pg_restore, or the provider's backups)`,
        );
        return 2;
      }
      if (!arg || args.length !== 2) {
        console.log(USAGE);
        return 1;
      }
      if (command === 'backup') {
        const { pages, bytes } = await backupDatabase(dbFile, arg);
        console.log(
          `backup of ${dbFile} written to ${arg}: ${pages} pages, ${bytes} bytes, integrity_check ok`,
        );
      } else {
        const { saved } = await restoreDatabase(arg, dbFile, now);
        console.log(
          `${dbFile} restored from ${arg}${saved ? `; the replaced database is kept as ${saved}` : ''}`,
        );
      }
      return 0;
    }
    if (command === 'accounts' || command === 'usage') {
      if (
        (command === 'usage' && (!arg || args.length !== 2)) ||
        (command === 'accounts' && args.length !== 1)
      ) {
        console.log(USAGE);
        return 1;
      }
      const db = await openDatabase(dbFile);
      try {
        for (const line of command === 'accounts'
          ? await accountLines(db, now)
          : await usageLines(db, arg!, now))
          console.log(line);
      } finally {
        await db.close();
      }
      return 0;
    }
    const db = await openDatabase(dbFile);
    try {
      if (command === 'plan') {
        const billing = createBillingService({
          db,
          clock: systemClock,
          ids: { uuid: () => randomUUID() },
          logger: pino({ level: 'silent' }),
          // The catalogue is the server's (WAKEUP_BILLING_PLANS); no provider is called.
          config: loadBillingConfig(
            { ...process.env, WAKEUP_PAYMENTS: 'none' },
            true,
            (m) => new Error(m),
          ),
          siteUrl: () => '',
          provider: null,
          inapp: null,
        });
        return await runPlanAdmin(args, { billing, now, out: (line) => console.log(line) });
      }
      return await runAdmin(args, {
        db,
        now,
        out: (line) => console.log(line === ADMIN_USAGE ? USAGE : line),
      });
    } finally {
      await db.close();
    }
  } catch (err) {
    if (err instanceof AdminError) {
      console.error(`admin ${command}: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

/** `spike [--rate N] [--warn-s S] [--top N]`: the projected lateness of the next 24 hours' busiest minutes; exit 3 on a warning. */
async function spike(dbFile: string, args: string[], now: number): Promise<number> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    if (!args[i]!.startsWith('--') || args[i + 1] === undefined) {
      console.log(USAGE);
      return 1;
    }
    flags.set(args[i]!.slice(2), args[i + 1]!);
  }
  const envRate = process.env.WAKEUP_CALLS_PER_SECOND?.trim();
  const rateRaw = flags.get('rate') ?? envRate;
  const callsPerSecond = rateRaw ? Number(rateRaw) : null;
  const warnMs = Number(flags.get('warn-s') ?? 60) * 1000;
  const top = Number(flags.get('top') ?? 10);
  if ((callsPerSecond !== null && !(callsPerSecond > 0)) || !(warnMs >= 0) || !(top >= 1)) {
    throw new AdminError('--rate must be > 0, --warn-s >= 0, --top >= 1');
  }
  const db = await openDatabase(dbFile);
  try {
    const due = await dueSeconds(db, now, now + 86_400_000);
    const minutes = projectMinutes(due, callsPerSecond ?? Number.MAX_SAFE_INTEGER, now);
    const { lines, warnings } = spikeLines(minutes, { callsPerSecond, warnMs, top, now });
    for (const line of lines) console.log(line);
    return warnings > 0 ? 3 : 0;
  } finally {
    await db.close();
  }
}

/** `providers [--url URL]`: the running server's provider health; exit 3 when one is failing. */
async function providers(args: string[]): Promise<number> {
  const at = args.indexOf('--url');
  if ((at >= 0 && !args[at + 1]) || args.length !== (at >= 0 ? 2 : 0)) {
    console.log(USAGE);
    return 1;
  }
  const host = process.env.HOST?.trim() || '127.0.0.1';
  const local =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = (
    at >= 0 ? args[at + 1]! : `http://${local}:${process.env.PORT?.trim() || '8080'}`
  ).replace(/\/+$/, '');
  let body: Parameters<typeof providerLines>[1];
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5000) });
    body = (await res.json()) as Parameters<typeof providerLines>[1];
  } catch (err) {
    throw new AdminError(
      `no answer from the server at ${url}/readyz (${(err as Error).message}); is it running? (--url <server>)`,
    );
  }
  for (const line of providerLines(url, body)) console.log(line);
  return body.failing?.length ? 3 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exitCode = 1;
  },
);
