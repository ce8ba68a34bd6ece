/**
 * Logging: pino JSON lines (one object per line, `time` in epoch ms), or readable lines
 * through pino-pretty when stdout is a terminal.
 *
 * Secrets never reach a log line: {@link REDACT_PATHS} censors credentials wherever the code
 * might log them (request headers, bodies, token-bearing objects). Request bodies are not
 * logged at all. The one deliberate exception is dev mode, where the outbox simulator writes
 * each sign-in code into its message text, as the contract asks (`npm start` must let a
 * newcomer sign in by reading the log).
 * @module
 */
import { pino } from 'pino';
import type { Logger, DestinationStream } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

/** Paths pino replaces with `[redacted]`. Field names follow the API (snake_case). */
export const REDACT_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-session-token"]',
  'req.headers["x-csrftoken"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-session-token"]',
  'headers["x-csrftoken"]',
  'authorization',
  'cookie',
  'token',
  'session_token',
  'csrf_token',
  'key',
  'code',
  'secret',
  'body',
  '*.authorization',
  '*.token',
  '*.session_token',
  '*.csrf_token',
  '*.key',
  '*.secret',
  '*.body',
];

/** What {@link createLogger} reads of the configuration (WAKEUP_LOG_LEVEL, WAKEUP_LOG_PRETTY). */
export interface LoggerOptions {
  readonly logLevel: string;
  /** Readable lines; null: when stdout is a terminal. */
  readonly logPretty: boolean | null;
}

/**
 * Creates the root logger. `destination` overrides stdout (tests capture lines with it).
 */
export function createLogger(config: LoggerOptions, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    base: { service: 'wakeup' },
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
  };
  if (destination) return pino(options, destination);
  const prettyOut = config.logPretty ?? Boolean(process.stdout.isTTY);
  if (prettyOut) {
    // In-thread and synchronous, so the last lines before exit are never lost.
    return pino(
      options,
      pretty({
        colorize: Boolean(process.stdout.isTTY),
        sync: true,
        translateTime: 'SYS:standard',
        ignore: 'pid,hostname,service',
      }),
    );
  }
  // Asynchronous, so a write never blocks the event loop; lines wait in sonic-boom's
  // buffer while a write is in flight, so a busy server writes them in batches. Flushed by
  // {@link flushLogger} at a clean stop (server close) and on a fatal
  // error (host/main.ts); pino also flushes it on process exit. A SIGKILL or an OOM may lose
  // the lines of the last moments, which the synchronous writes kept (at about a tenth of
  // GET /time's CPU: CHANGELOG.md, issue 27).
  return pino(options, pino.destination({ dest: 1, sync: false }));
}

/** The destination of a pino logger (sonic-boom for the default one). */
type Destination = {
  _writing?: boolean;
  once?: (event: 'drain', fn: () => void) => void;
  flushSync?: () => void;
};
const destinationOf = (logger: Logger): Destination | undefined =>
  (logger as unknown as Record<symbol, Destination | undefined>)[pino.symbols.streamSym];

/**
 * A logger for the access lines on the same destination as `logger`, at its level, without
 * redaction: an access line holds only the method, path, status, duration, operation and
 * account (host/http/request-context.ts), and redacting it cost some 4 % of GET /time's CPU.
 */
export function accessLogger(logger: Logger): Logger {
  const destination = destinationOf(logger) as unknown as DestinationStream | undefined;
  if (!destination) return logger;
  return pino({ level: logger.level, base: { service: 'wakeup' } }, destination);
}

/** How long {@link flushLogger} waits for a write in flight at most. */
const FLUSH_WAIT_MS = 2000;

/**
 * Resolves once every line the logger took is written: sonic-boom writes at once what comes
 * while it is idle, and batches what comes during a write, then emits `drain` when it has
 * nothing left (its `flush()` does not wait with minLength 0, hence this).
 */
export function flushLogger(logger: Logger): Promise<void> {
  const d = destinationOf(logger);
  if (d?._writing !== true || typeof d.once !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_WAIT_MS);
    d.once!('drain', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Writes every buffered line now, blocking (a fatal error, just before the process exits). */
export function flushLoggerSync(logger: Logger): void {
  try {
    destinationOf(logger)?.flushSync?.();
  } catch {
    // Nothing more can be done for a destination that refuses: the process is exiting.
  }
}
