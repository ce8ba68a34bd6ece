/**
 * Whether each provider works, as this process has seen it: email (sign-in and deletion
 * codes), texts, telephony (calls) and payments. Every send, call placement and payment
 * request reports its outcome here; a failure of the provider itself (unreachable, refused
 * credentials, a 5xx or a rate limit) makes the port `failing` from that moment until the next
 * success. Refusals about one recipient (a blocked or invalid number, a mailbox the relay
 * refuses, a call the provider declines) say nothing about the provider and are not counted.
 *
 * Shown by `GET /readyz` (`providers`, `failing`), the metrics `wakeup_provider_up` and
 * `wakeup_provider_failures_total` (host/ops/metrics.ts) and `npm run admin -- providers`,
 * which reads the running server's `/readyz`. The API's answers do not change: a sign-in
 * still answers 202 while email is failing (it must not tell whether the address exists).
 *
 * Times are real time (an outage is a wall-clock fact), also under the virtual clock.
 * @module
 */
import type {
  EpochMs,
  Messaging,
  PlaceCallResult,
  SendResult,
  Telephony,
} from '../../engine/index.js';
import { realTime } from '../adapters/clock/system-clock.js';
import { isoInstant } from '../instant.js';

/** The ports whose provider is watched. */
export const PROVIDER_PORTS = ['email', 'texts', 'telephony', 'payments'] as const;
export type ProviderPort = (typeof PROVIDER_PORTS)[number];

/** Codes of a SendResult / PlaceCallResult that blame the provider, not one recipient. */
const PROVIDER_FAILURES = new Set(['provider_unavailable', 'provider_error']);

/** One port's health, as `/readyz` shows it. */
export interface ProviderStatusOut {
  /** `smtp`, `twilio`, `stripe`, `simulator`, `none`. */
  provider: string;
  /** `ok` (the last request succeeded), `failing` (the last one failed), `unknown` (none yet). */
  status: 'ok' | 'failing' | 'unknown';
  /** When the current run of failures began; null unless failing. */
  failing_since: string | null;
  /** Failures in a row (0 unless failing). */
  consecutive_failures: number;
  /** Provider failures since the process started. */
  failures_total: number;
  /** The last provider failure, kept after a recovery; null if none. */
  last_error: { code: string; detail: string; at: string } | null;
  /** The last success; null if none. */
  last_ok_at: string | null;
}

/** What reports outcomes and reads them. */
export interface ProviderHealth {
  ok(port: ProviderPort): void;
  failed(port: ProviderPort, code: string, detail: string): void;
  /** Every port, in {@link PROVIDER_PORTS} order. */
  snapshot(): Record<ProviderPort, ProviderStatusOut>;
  /** Wraps a sender: each email reports to `email`, each text to `texts`. */
  watchMessaging<M extends Partial<Messaging>>(messaging: M): M;
  /** Wraps a telephony adapter: each placement reports to `telephony`. */
  watchTelephony<T extends Telephony>(telephony: T): T;
  /**
   * Wraps an object whose methods return promises (the payment provider): each call reports
   * to `port`, a rejection for which `blames(err)` is true as a failure.
   */
  watchCalls<T extends object>(port: ProviderPort, target: T, blames: (err: unknown) => boolean): T;
}

interface State {
  failingSince: EpochMs | null;
  consecutive: number;
  total: number;
  lastError: { code: string; detail: string; at: EpochMs } | null;
  lastOkAt: EpochMs | null;
}

/** Creates the tracker; `providers` names the provider behind each port (host/ops/providers.ts). */
export function createProviderHealth(
  providers: Partial<Record<ProviderPort, string>>,
  now: () => EpochMs = realTime,
): ProviderHealth {
  const states = new Map<ProviderPort, State>(
    PROVIDER_PORTS.map((p) => [
      p,
      { failingSince: null, consecutive: 0, total: 0, lastError: null, lastOkAt: null },
    ]),
  );
  const ok = (port: ProviderPort) => {
    const s = states.get(port)!;
    s.failingSince = null;
    s.consecutive = 0;
    s.lastOkAt = now();
  };
  const failed = (port: ProviderPort, code: string, detail: string) => {
    const s = states.get(port)!;
    const at = now();
    s.failingSince ??= at;
    s.consecutive++;
    s.total++;
    // The detail is the adapter's own short class of failure (never a credential or a body).
    s.lastError = { code, detail: detail.slice(0, 300), at };
  };
  /** Reports a send's result; a throw is a provider failure too (its outcome is unknown). */
  const report = async <R extends SendResult | PlaceCallResult>(
    port: ProviderPort,
    run: () => Promise<R>,
  ): Promise<R> => {
    let result: R;
    try {
      result = await run();
    } catch (err) {
      failed(
        port,
        'provider_unavailable',
        err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      );
      throw err;
    }
    if (result.ok) ok(port);
    else if (PROVIDER_FAILURES.has(result.code)) failed(port, result.code, result.detail);
    return result;
  };
  return {
    ok,
    failed,
    snapshot() {
      const out = {} as Record<ProviderPort, ProviderStatusOut>;
      for (const [port, s] of states) {
        out[port] = {
          provider: providers[port] ?? 'none',
          status: s.failingSince !== null ? 'failing' : s.lastOkAt !== null ? 'ok' : 'unknown',
          failing_since: s.failingSince === null ? null : isoInstant(s.failingSince),
          consecutive_failures: s.consecutive,
          failures_total: s.total,
          last_error: s.lastError && {
            code: s.lastError.code,
            detail: s.lastError.detail,
            at: isoInstant(s.lastError.at),
          },
          last_ok_at: s.lastOkAt === null ? null : isoInstant(s.lastOkAt),
        };
      }
      return out;
    },
    watchMessaging(messaging) {
      const wrapped = { ...messaging };
      const { sendText, sendEmail } = messaging;
      if (sendText) wrapped.sendText = (m) => report('texts', () => sendText.call(messaging, m));
      if (sendEmail) wrapped.sendEmail = (m) => report('email', () => sendEmail.call(messaging, m));
      return wrapped;
    },
    watchTelephony(telephony) {
      const placeCall: Telephony['placeCall'] = (request) =>
        report('telephony', () => telephony.placeCall(request));
      // Everything else is the adapter's own, called on the adapter itself.
      return new Proxy(telephony, {
        get(target, prop) {
          if (prop === 'placeCall') return placeCall;
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function'
            ? (value as (...a: unknown[]) => unknown).bind(target)
            : value;
        },
      });
    },
    watchCalls(port, target, blames) {
      return new Proxy(target, {
        get(t, prop) {
          const value: unknown = Reflect.get(t, prop, t);
          if (typeof value !== 'function') return value;
          const fn = value as (...a: unknown[]) => unknown;
          return async (...args: unknown[]) => {
            try {
              const result = await fn.apply(t, args);
              ok(port);
              return result;
            } catch (err) {
              if (blames(err))
                failed(
                  port,
                  'provider_unavailable',
                  err instanceof Error ? err.message : String(err),
                );
              throw err;
            }
          };
        },
      });
    },
  };
}
