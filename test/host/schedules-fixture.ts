/**
 * Shared set-up of the schedule tests (not a test file itself): a server on the virtual clock
 * started at a fixed instant, a signed-in account with a home zone and a verified primary
 * number, and small helpers for the schedule endpoints and the database.
 */
import Sqlite from 'better-sqlite3';
import type { ValidateFunction } from 'ajv';
import { COMPONENTS_ID, createAjv } from '../../schema/load.js';
import { signIn, startTestServer, type TestServer, settledDb } from '../helpers/server.js';
import { addVerifiedNumber, call, PHONE_TEST_ENV, type JsonResponse } from '../helpers/phone.js';

/** Wednesday 2027-03-10 12:00 UTC (07:00 in New York): four days before New York springs forward. */
export const START = '2027-03-10T12:00:00Z';
export const START_MS = Date.parse(START);
export const HOME = 'America/New_York';
export const NUMBER = '+12015550123';

/** A signed-in account ready to create schedules. */
export interface Fixture {
  server: TestServer;
  token: string;
  accountId: string;
  phoneId: string;
  /** Request under /api/v1 (or the site root for /dev paths) with the account's token. */
  api(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<JsonResponse>;
  /** Moves the virtual clock to an instant (ISO) and waits for the calls it starts. */
  clockTo(iso: string): Promise<void>;
  /** Moves the virtual clock forward. */
  advance(seconds: number): Promise<void>;
}

/** Starts a server and an account (home zone New York, one verified number). */
export async function setup(
  options: { env?: Record<string, string>; home?: string | null; number?: string } = {},
): Promise<Fixture> {
  const server = await startTestServer({
    env: { ...PHONE_TEST_ENV, WAKEUP_CLOCK_START: START, ...options.env },
  });
  return account(server, options);
}

/** Signs another account in on the same server. */
export async function account(
  server: TestServer,
  options: { home?: string | null; number?: string } = {},
): Promise<Fixture> {
  const { token, account: me } = await signIn(server);
  const home = options.home === undefined ? HOME : options.home;
  if (home !== null) {
    const r = await call(server, 'PATCH', '/me', { token, body: { home_timezone: home } });
    if (r.status !== 200) throw new Error(`PATCH /me: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const phone = await addVerifiedNumber(server, token, options.number ?? NUMBER);
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    call(server, method, path, {
      token,
      ...(body === undefined ? {} : { body }),
      ...(headers ? { headers } : {}),
    });
  const clock = async (body: unknown) => {
    const r = await call(server, 'POST', '/dev/clock', { body });
    if (r.status !== 200) throw new Error(`dev clock: ${r.status} ${JSON.stringify(r.body)}`);
  };
  return {
    server,
    token,
    accountId: me.id,
    phoneId: phone.id,
    api,
    clockTo: (iso) => clock({ to: iso }),
    advance: (seconds) => clock({ advance_seconds: seconds }),
  };
}

/** POST /schedules expecting 201; returns the ScheduleOut (checked against the schema). */
export async function create(f: Fixture, body: Record<string, unknown>): Promise<any> {
  const r = await f.api('POST', '/schedules', body);
  if (r.status !== 201) throw new Error(`POST /schedules: ${r.status} ${JSON.stringify(r.body)}`);
  assertSchema('ScheduleOut', r.body);
  return r.body;
}

let ajv: ReturnType<typeof createAjv> | undefined;
const validators = new Map<string, ValidateFunction>();

/** Throws when `value` does not match the component schema `name` of schema/openapi.yaml. */
export function assertSchema(name: string, value: unknown): void {
  let v = validators.get(name);
  if (!v) {
    ajv ??= createAjv();
    v = ajv.getSchema(`${COMPONENTS_ID}#/$defs/${name}`)!;
    validators.set(name, v);
  }
  if (!v(value))
    throw new Error(
      `${name} does not match the schema: ${JSON.stringify(v.errors)}\n${JSON.stringify(value)}`,
    );
}

/** Every row of the engine's tables (a schedule is its series), to compare before and after a request. */
export async function snapshot(server: TestServer): Promise<string> {
  const db = await settledDb(server);
  const dump: unknown[] = [];
  for (const t of ['series', 'occurrences', 'attempts'])
    dump.push(await db.all(`SELECT * FROM ${t} ORDER BY id`));
  return JSON.stringify(dump);
}

/** Runs SQL on a closed server's database file (crash simulations). */
export function withDatabase<T>(file: string, fn: (db: Sqlite.Database) => T): T {
  const db = new Sqlite(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
