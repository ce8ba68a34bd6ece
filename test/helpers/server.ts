/**
 * Test server: the real host on port 0 with a temporary SQLite file, in dev mode with the
 * virtual clock, talked to over real HTTP.
 *
 * PostgreSQL: with WAKEUP_TEST_DB=postgres and WAKEUP_TEST_PG_URL set (`npm run test:http:pg`
 * does both under scripts/with-pg.sh), every test server gets a fresh schema on that server
 * instead (WAKEUP_DB is the URL with that search_path), dropped by close(). A test that
 * sets WAKEUP_DB itself keeps it.
 *
 * Defaults (any of them can be overridden through `env`):
 * - WAKEUP_DEV=1, WAKEUP_CLOCK=virtual, HOST=127.0.0.1, PORT=0, WAKEUP_LOG_LEVEL=silent;
 * - WAKEUP_RATE_LIMIT_ACCOUNT and WAKEUP_RATE_LIMIT_IP raised to 100000, because the virtual
 *   clock stands still and a test doing many requests would otherwise hit the real limits
 *   (120/300 per 60 s); likewise the per-client sign-in limits. Tests of the limits set
 *   these explicitly.
 * @example
 * const server = await startTestServer();
 * const { token } = await signIn(server);
 * const res = await fetch(`${server.api}/me`, { headers: { authorization: `Bearer ${token}` } });
 * await server.close();
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { throwawaySchema } from './pg-schema.js';
import { loadConfig } from '../../host/config.js';
import { settleEngine } from '../../host/db/engine-store.js';
import { openDatabase } from '../../host/db/open.js';
import { isPostgresUrl, type Db } from '../../host/db/sql.js';
import { startServer } from '../../host/server.js';
import type { RunningServer } from '../../host/server.js';
import type { DestinationStream } from 'pino';
import type { RouteModule } from '../../host/http/registrar.js';

/**
 * Environment of a production-mode test server (WAKEUP_DEV=0): production needs a real
 * email provider, so this names an SMTP relay on the discard port, where nothing listens
 * (a send fails at once and resolves `ok: false`). Tests of delivery start their own relay.
 */
export const PRODUCTION_ENV: Readonly<Record<string, string>> = {
  WAKEUP_DEV: '0',
  WAKEUP_CLOCK: 'system',
  WAKEUP_EMAIL: 'smtp',
  WAKEUP_SMTP_URL: 'smtp://127.0.0.1:9',
  WAKEUP_EMAIL_FROM: 'Wakeup <wake@example.test>',
};

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `url + '/api/v1'` */
  api: string;
  /** The SQLite file (in a temporary folder removed by close), or the PostgreSQL URL (see the module header). */
  dbFile: string;
  /** The underlying server and its dependencies, for tests that need to look inside. */
  running: RunningServer;
  /** Graceful shutdown, then removes the temporary folder. */
  close(): Promise<void>;
}

/**
 * The server's database, with the engine's journal folded into its tables first
 * (docs/decisions/0016), for a test that reads the engine's tables itself.
 */
export async function settledDb(server: Pick<TestServer, 'running'>): Promise<Db> {
  const db = server.running.deps.db;
  await settleEngine(db);
  return db;
}

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  env?: Record<string, string>;
  /** Capture log lines (else silent unless env sets WAKEUP_LOG_LEVEL). */
  logStream?: DestinationStream;
  /** Route modules to mount instead of the full list (see createApp). */
  modules?: readonly RouteModule[];
}

/** Starts a server as described in the module header. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-test-'));
  const pg = options.env?.WAKEUP_DB === undefined ? await testPgDatabase() : null;
  const dbFile = pg?.url ?? join(dir, 'wakeup.sqlite');
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    WAKEUP_DB: dbFile,
    WAKEUP_DEV: '1',
    WAKEUP_CLOCK: 'virtual',
    WAKEUP_LOG_LEVEL: options.logStream ? 'info' : (process.env.WAKEUP_TEST_LOG_LEVEL ?? 'silent'),
    WAKEUP_LOG_PRETTY: '0',
    WAKEUP_RATE_LIMIT_ACCOUNT: '100000',
    WAKEUP_RATE_LIMIT_IP: '100000',
    WAKEUP_SIGN_IN_CODES_PER_CLIENT: '100000',
    WAKEUP_SIGN_IN_CHECKS_PER_CLIENT: '100000',
    ...options.env,
  });
  let running: RunningServer;
  try {
    running = await startServer(config, {
      ...(options.logStream ? { logStream: options.logStream } : {}),
      ...(options.modules ? { modules: options.modules } : {}),
    });
  } catch (err) {
    await pg?.drop();
    throw err;
  }
  return {
    url: running.url,
    api: `${running.url}/api/v1`,
    dbFile,
    running,
    async close() {
      await running.close();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Rows of `text` on a test server's database (`server.dbFile`: the SQLite file or the
 * PostgreSQL URL), through a connection of its own, closed after.
 */
export async function queryDatabase<R = any>(
  dbFile: string,
  text: string,
  params: readonly unknown[] = [],
): Promise<R[]> {
  const db = await openDatabase(dbFile);
  try {
    return await db.all<R>(text, params);
  } finally {
    await db.close();
  }
}

/**
 * A connection of its own to a test server's database (`server.dbFile`): the async `Db` of
 * host/db/sql.ts on the same target, SQLite file or PostgreSQL schema, so that a test that
 * reads or writes rows directly runs on both. Close it (or use {@link withTestDb}).
 */
export async function openTestDb(server: Pick<TestServer, 'dbFile'>): Promise<Db> {
  return openDatabase(server.dbFile);
}

/** Runs `fn` with {@link openTestDb}'s handle, closed after. */
export async function withTestDb<T>(
  server: Pick<TestServer, 'dbFile'>,
  fn: (db: Db) => Promise<T>,
): Promise<T> {
  const db = await openTestDb(server);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/**
 * Everything a test server's database stores, as one latin1 string, for "not stored in clear"
 * checks: on SQLite the file's bytes with its WAL and shared-memory files; on PostgreSQL every
 * row of every table of the server's schema as text (`SELECT t::text`), read through SQL.
 */
export async function storedText(server: Pick<TestServer, 'dbFile'>): Promise<string> {
  const file = server.dbFile;
  if (!isPostgresUrl(file)) {
    const parts = [file, `${file}-wal`, `${file}-shm`]
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f));
    return Buffer.concat(parts).toString('latin1');
  }
  return withTestDb(server, async (db) => {
    const tables = await db.all<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
    );
    const out: string[] = [];
    for (const { name } of tables) {
      const rows = await db.all<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
      out.push(`${name}:`, ...rows.map((r) => r.row));
    }
    return Buffer.from(out.join('\n'), 'utf8').toString('latin1');
  });
}

/** Whether test servers run on PostgreSQL (WAKEUP_TEST_DB=postgres with WAKEUP_TEST_PG_URL). */
export function testDbIsPostgres(): boolean {
  return process.env.WAKEUP_TEST_DB === 'postgres' && !!process.env.WAKEUP_TEST_PG_URL;
}

/** A fresh schema on the test PostgreSQL server, when test servers run there; else null. */
export async function testPgDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  if (!testDbIsPostgres()) return null;
  return throwawaySchema(process.env.WAKEUP_TEST_PG_URL!);
}

/** What {@link signIn} returns. */
export interface SignedIn {
  /** App session token (`wus_…`). */
  token: string;
  /** The MeOut of the account. */
  account: Record<string, any> & { id: string; email: string };
  email: string;
}

/**
 * Signs in through the real flow: POST /auth/email/start, the code from GET /dev/outbox,
 * POST /auth/email/verify with client app. A fresh address unless `email` is given.
 */
export async function signIn(
  server: Pick<TestServer, 'url' | 'api'>,
  email = `user-${randomUUID()}@example.com`,
): Promise<SignedIn> {
  const code = await requestCode(server, email);
  const res = await fetch(`${server.api}/auth/email/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, code, client: 'app' }),
  });
  if (res.status !== 200)
    throw new Error(`signIn: verify answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { session_token: string; account: SignedIn['account'] };
  return { token: body.session_token, account: body.account, email: email.toLowerCase() };
}

/** Asks for a sign-in code and reads it from the dev outbox. */
export async function requestCode(
  server: Pick<TestServer, 'url' | 'api'>,
  email: string,
): Promise<string> {
  const start = await fetch(`${server.api}/auth/email/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (start.status !== 202)
    throw new Error(`requestCode: start answered ${start.status}: ${await start.text()}`);
  const outbox = await fetch(
    `${server.url}/dev/outbox?to=${encodeURIComponent(email)}&channel=email`,
  );
  const { items } = (await outbox.json()) as { items: Array<{ code: string | null }> };
  const code = items[0]?.code;
  if (!code) throw new Error(`requestCode: no code in the outbox for ${email}`);
  return code;
}

/** `Authorization: Bearer <token>` plus JSON content type. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}
