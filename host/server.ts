/**
 * Listening and graceful shutdown, shared by `main.ts` and the tests (port 0).
 *
 * Shutdown (SIGTERM/SIGINT in main.ts, `close()` in tests): stop accepting connections,
 * close idle keep-alive connections, let in-flight requests finish (up to
 * WAKEUP_SHUTDOWN_GRACE_SECONDS, then cut the rest), run the close hooks, close the database.
 * @module
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createApp } from './app.js';
import type { AppOptions } from './app.js';
import { compose } from './compose.js';
import type { ComposeOptions } from './compose.js';
import { readDevClock, saveDevClock } from './db/dev-clock.js';
import type { HostConfig } from './config.js';
import type { AppDeps } from './deps.js';
import { flushLogger, type Logger } from './logger.js';
import type { AppServices } from './services.js';
import { describeProviders } from './ops/providers.js';
import { realTime } from './adapters/clock/system-clock.js';

/** A listening server. */
export interface RunningServer {
  /** `http://host:port` as bound. */
  url: string;
  server: Server;
  /** What the routes were given. */
  services: AppServices;
  /** The adapters behind the services (tests look inside: database, clock, runtime). */
  deps: AppDeps;
  /** Graceful shutdown; resolves when the database is closed. Idempotent. */
  close(): Promise<void>;
}

/** Builds the dependencies and the app, and listens on config.host:config.port. */
export async function startServer(
  config: HostConfig,
  options: ComposeOptions & AppOptions = {},
): Promise<RunningServer> {
  const composed = await compose(config, options);
  const { deps, services } = composed;
  const app = createApp(services, options.modules ? { modules: options.modules } : {});
  const handle = app.callback();
  // Koa's handler settles every request itself (ctx.onerror); its promise never rejects.
  const server = createServer((req, res) => void handle(req, res));
  // Bounded header wait; keep-alive longer than common proxies' idle timeout.
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 65_000;
  server.on('connection', (socket: Socket) => OPENED_AT.set(socket, realTime()));

  let inFlight = 0;
  let drained: (() => void) | null = null;
  /** Connections with a response in flight: a request Node cannot read there is not answered. */
  const answering = new WeakSet<Socket>();
  server.on('request', (req, res) => {
    inFlight++;
    answering.add(req.socket);
    res.once('close', () => {
      answering.delete(req.socket);
      inFlight--;
      if (inFlight === 0 && drained) drained();
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, duplex: Duplex) => {
    const socket = duplex as Socket;
    answerClientError(deps.logger, err, socket, answering.has(socket));
  });

  try {
    await composed.start();
    await resumeVirtualClock(config, composed);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await composed.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const host =
    config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  composed.setBoundUrl(url);
  logStart(deps, url);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      composed.beginShutdown();
      deps.logger.info(
        { inFlight },
        'shutting down: no new connections; finishing in-flight requests',
      );
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        const graceMs = config.shutdownGraceSeconds * 1000;
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          new Promise<boolean>((resolve) => (drained = () => resolve(false))),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
        ]);
        clearTimeout(timer);
        if (timedOut)
          deps.logger.warn(
            { inFlight },
            'shutdown grace period over: closing remaining connections',
          );
      }
      server.closeAllConnections();
      await stopped;
      await composed.close();
      deps.logger.info('stopped: database closed');
      // The access log is written asynchronously: no line may be lost at a clean stop.
      await flushLogger(deps.logger);
    })());

  return { url, server, services, deps, close };
}

/**
 * Dev mode, virtual clock: the time goes on from where the last server left it when that is
 * later than now (unless WAKEUP_CLOCK_START is set), and is saved when this one stops, so a
 * restart never takes the clock back behind the calls, codes and sessions made at a moved time.
 * Moving forward runs what fell due on the way, as `POST /dev/clock` does.
 */
async function resumeVirtualClock(
  config: HostConfig,
  composed: Awaited<ReturnType<typeof compose>>,
): Promise<void> {
  const { deps, services } = composed;
  const clock = deps.virtualClock;
  if (!clock) return;
  const saved = config.clockStart === null ? await readDevClock(deps.db) : null;
  if (saved !== null && saved > clock.now()) {
    await services.dev.settleClock(saved);
    deps.logger.info(
      { now: new Date(saved).toISOString() },
      'virtual clock resumed from the last run',
    );
  }
  // Newest first: runs before the runtime stops, while the database is open.
  deps.lifecycle.onClose(() => saveDevClock(deps.db, clock.now()));
}

/** The first log lines: where it listens and in which mode. */
function logStart(deps: AppDeps, url: string): void {
  const { config, logger } = deps;
  logger.info(
    { url, api: `${url}/api/v1`, docs: `${url}/docs`, db: config.dbFile, clock: config.clock },
    `Wake-Up Call service listening on ${url}`,
  );
  if (config.dev) {
    logger.warn(
      `DEV MODE${config.devByDefault ? ' (the default: WAKEUP_DEV is not set)' : ''}: /dev endpoints are on, sign-in codes are ` +
        'printed in this log, and the server binds loopback only. Production: set WAKEUP_DEV=0 (see docs/operations/production.md).',
    );
  } else {
    logger.info('production mode: /dev endpoints are off (WAKEUP_DEV=0)');
  }
  if (config.clock === 'virtual')
    logger.warn('virtual clock: service time moves only through POST /dev/clock');
  const providers = describeProviders(config);
  logger.info(
    { providers: Object.fromEntries(providers.map((p) => [p.port, p.provider])) },
    `providers: ${providers.map((p) => `${p.port} ${p.provider}${p.target ? ` (${p.target})` : ''}`).join(', ')}`,
  );
  for (const p of providers) {
    if (!p.simulated) continue;
    if (config.dev) logger.info({ port: p.port }, `${p.port}: built-in simulator (dev mode)`);
    else
      logger.warn(
        { port: p.port },
        `SIMULATOR IN PRODUCTION: ${p.port} is the built-in simulator: ${p.hint}`,
      );
  }
}

/**
 * Connections the kernel may hold for accept (Linux caps it at net.core.somaxconn). Node's
 * default, 511, overflows when a balancer opens hundreds of connections at once at the 07:00
 * peak: the kernel then drops handshakes, the client's request bytes come back on its
 * retransmission backoff, seconds to tens of seconds after the server accepted the
 * connection, and Node answers 408 once a request's headers have taken 30 s.
 */
const LISTEN_BACKLOG = 4096;

/** When each connection was accepted (for the log line of a request that could not be read). */
const OPENED_AT = new WeakMap<Socket, number>();

/** Node's answers to a request it could not read (what it writes without a clientError listener). */
const CLIENT_ERROR_ANSWERS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
};

/**
 * A request Node could not read: a timeout (headersTimeout, requestTimeout), a parse error, a
 * reset. Answered as Node answers it (unless a response is in flight on the connection, which
 * is then cut), and logged, because a client that gets a 408 or a 400 here never reaches a
 * handler and would otherwise leave no trace. Resets are routine: not answered, logged at debug.
 */
function answerClientError(
  logger: Logger,
  err: NodeJS.ErrnoException,
  socket: Socket,
  responding: boolean,
): void {
  const code = err.code ?? 'unknown';
  if (code === 'ECONNRESET') {
    logger.debug({ error_code: code }, 'client reset the connection');
    socket.destroy();
    return;
  }
  const answer =
    socket.writable && !responding ? (CLIENT_ERROR_ANSWERS[code] ?? '400 Bad Request') : null;
  const opened = OPENED_AT.get(socket);
  const connection = {
    age_ms: opened === undefined ? null : realTime() - opened,
    bytes_read: socket.bytesRead,
    bytes_written: socket.bytesWritten,
  };
  logger.warn(
    { error_code: code, answered: answer, connection },
    `request not read: ${err.message}`,
  );
  if (answer) socket.write(`HTTP/1.1 ${answer}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}
