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
import type { HostConfig } from './config.js';

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

/**
 * Creates the root logger. `destination` overrides stdout (tests capture lines with it).
 */
export function createLogger(config: Pick<HostConfig, 'logLevel' | 'logPretty'>, destination?: DestinationStream): Logger {
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
      pretty({ colorize: Boolean(process.stdout.isTTY), sync: true, translateTime: 'SYS:standard', ignore: 'pid,hostname,service' }),
    );
  }
  // Synchronous on purpose: a line is written before the response it describes goes out, so a
  // crash (SIGKILL, OOM) never loses what happened just before it. Asynchronous writes were
  // measured (README, HTTP path): a few per cent on GET /me, not worth losing those lines.
  return pino(options, pino.destination({ dest: 1, sync: true }));
}
