/**
 * The fake Twilio-compatible provider in a process of its own (test/load/fake-provider-main.ts),
 * seen from the harness: spawn it, read where it listens, ask for its counts, stop it.
 * A server killed with kill -9 cannot take the fake's memory with it, so the fake's count of
 * accepted calls per attempt key is the independent witness of "dialled exactly once".
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readLine } from './process.js';

/** Options of {@link spawnFakeProvider}. */
export interface FakeProviderOptions {
  /** Timers run this many times faster than real time. @defaultValue 20 */
  speed?: number;
  /** What every phone does (contract §3 behaviours). @defaultValue 'confirm' */
  answer?: string;
  /** Nominal ring length before the answer, seconds. @defaultValue 1 */
  ringSeconds?: number;
  /** Give up on a webhook unanswered within 15 s, as Twilio does (FakeTwilioOptions.answerTimeout). @defaultValue true */
  answerTimeout?: boolean;
}

/** What `GET /counts` answers. */
export interface FakeCounts {
  /** Calls accepted (created) by the fake. */
  accepted: number;
  createRequests: number;
  listRequests: number;
  /** Single-call reads (GET /Calls/{sid}.json): a restarted host reading calls back. */
  getRequests: number;
  /** Webhooks tried again after a failure (the URLs' connection overrides). */
  webhookRetries: number;
  /** Webhooks that did not answer 2xx, by status (0: a network error). */
  webhookFailures: Record<string, number>;
  /** Webhooks sent and not answered yet. */
  webhooksInFlight: number;
  /** CPU the fake used so far (user + system, µs). */
  cpuMicros: number;
  /** Distinct attempt keys among the accepted calls. */
  keys: number;
  /** Accepted calls beyond the first of their key (0 when no call was doubled). */
  duplicates: number;
  /** Accepted calls by their current status at the fake. */
  statuses: Record<string, number>;
}

/** A running fake provider process. */
export interface FakeProviderProcess {
  /** REST API root (WAKEUP_TWILIO_API_URL). */
  url: string;
  accountSid: string;
  authToken: string;
  child: ChildProcess;
  counts(): Promise<FakeCounts>;
  /** Calls accepted so far (cheap enough to poll every few ms). */
  accepted(): Promise<number>;
  /** Every accepted call's sid by the attempt key it carries. */
  keys(): Promise<Record<string, string[]>>;
  /** The digit each call's phone pressed, and whether the service was told of it, by attempt key. */
  pressed(): Promise<Record<string, { digit: string; heard: boolean }>>;
  /** The env a server needs to use this fake (telephony only; texts stay simulated). */
  serverEnv(): Record<string, string>;
  /** SIGTERM; resolves with its final counts. */
  stop(): Promise<FakeCounts | null>;
}

const ENTRY = fileURLToPath(new URL('./fake-provider-main.ts', import.meta.url));

/** Spawns the fake and waits until it listens. */
export async function spawnFakeProvider(
  options: FakeProviderOptions = {},
): Promise<FakeProviderProcess> {
  const args = ['--import', 'tsx', ENTRY, '--speed', String(options.speed ?? 20)];
  args.push(
    '--answer',
    options.answer ?? 'confirm',
    '--ring-seconds',
    String(options.ringSeconds ?? 1),
  );
  if (options.answerTimeout === false) args.push('--answer-timeout', 'off');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await readLine(child, (line) => line.startsWith('FAKE '), 30_000);
  const info = JSON.parse(first.slice('FAKE '.length)) as {
    url: string;
    control: string;
    accountSid: string;
    authToken: string;
  };
  const get = async <T>(path: string): Promise<T> => {
    const r = await fetch(`${info.control}${path}`);
    if (!r.ok) throw new Error(`fake provider ${path}: ${r.status}`);
    return (await r.json()) as T;
  };
  return {
    url: info.url,
    accountSid: info.accountSid,
    authToken: info.authToken,
    child,
    counts: () => get<FakeCounts>('/counts'),
    accepted: async () => (await get<{ accepted: number }>('/accepted')).accepted,
    keys: () => get<Record<string, string[]>>('/keys'),
    pressed: () => get<Record<string, { digit: string; heard: boolean }>>('/pressed'),
    serverEnv: () => ({
      WAKEUP_TELEPHONY: 'twilio',
      WAKEUP_TWILIO_API_URL: info.url,
      WAKEUP_TWILIO_ACCOUNT_SID: info.accountSid,
      WAKEUP_TWILIO_AUTH_TOKEN: info.authToken,
      WAKEUP_TWILIO_FROM: '+12025550100',
    }),
    async stop() {
      if (child.exitCode !== null) return null;
      const final = readLine(child, (line) => line.startsWith('FAKE_FINAL '), 10_000).then(
        (line) => JSON.parse(line.slice('FAKE_FINAL '.length)) as FakeCounts,
        () => null,
      );
      child.kill('SIGTERM');
      return final;
    },
  };
}
