/**
 * Entry point of `npm start`: reads the environment (the only file that touches
 * `process.env`), starts the server and shuts it down gracefully on SIGTERM/SIGINT
 * (exit 0; a second signal a second or more after the first exits at once with 1). A taken
 * port is one line naming PORT (exit 1). A fatal error (uncaught exception, unhandled
 * rejection) is logged, the log flushed, and the process exits 1.
 * @module
 */
import { realTime } from './adapters/clock/system-clock.js';
import { ConfigError, loadConfig } from './config.js';
import type { HostConfig } from './config.js';
import { flushLogger, flushLoggerSync } from './logger.js';
import { startServer } from './server.js';

/** A signal this soon after the first is the same stop delivered twice (see `stop`). */
const REPEAT_WINDOW_MS = 1000;

async function main(): Promise<void> {
  let config: HostConfig;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`wakeup: configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  let running: Awaited<ReturnType<typeof startServer>>;
  try {
    running = await startServer(config);
  } catch (err) {
    // A taken port is the operator's to fix: one line that names the setting, not a stack.
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(
        `wakeup: ${config.host}:${config.port} is already in use: stop what listens there, or set PORT to a free port\n`,
      );
      process.exit(1);
    }
    throw err;
  }
  // One stop can arrive twice: a signal sent to `npm start`'s process group (a terminal's
  // Ctrl-C, `kill -TERM -<pgid>`, some supervisors) reaches node directly and again through
  // npm, which forwards SIGTERM and SIGINT to its child a few milliseconds later. Only a signal
  // a second or more after the first is a person insisting: that one exits at once.
  let stoppingSince: number | null = null;
  const stop = (signal: NodeJS.Signals) => {
    if (stoppingSince !== null) {
      if (realTime() - stoppingSince < REPEAT_WINDOW_MS) return;
      running.deps.logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stoppingSince = realTime();
    running.deps.logger.info({ signal }, 'signal received');
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        running.deps.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // A fatal error: let the write in flight finish (the asynchronous destination), log the
  // error after the lines before it, wait until it is written, exit 1. A synchronous flush
  // alone could write the error before the write in flight, or lose that write at exit.
  let dying = false;
  const fatal = (err: unknown) => {
    if (dying) return;
    dying = true;
    const { logger } = running.deps;
    void (async () => {
      await flushLogger(logger);
      logger.fatal({ err }, 'fatal error: exiting');
      await flushLogger(logger);
      flushLoggerSync(logger);
      process.exit(1);
    })();
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `wakeup: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
