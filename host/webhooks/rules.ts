/**
 * The fixed rules of outbound webhooks (schema/openapi.yaml states them; docs/decisions/0023
 * says why): limits, the retry schedule, when a failing endpoint is turned off, timeouts and
 * how long the log is kept.
 * @module
 */

/** Endpoints one account may have. */
export const MAX_ENDPOINTS = 10;

/** Longest endpoint URL, in characters. */
export const MAX_URL_LENGTH = 2000;

/**
 * Waits before each retry after a failed attempt: the first attempt at once, then 5 s, 5 min,
 * 30 min, 2 h, 5 h, then 10 h, 10 h, 10 h, 15 h and 20 h: 11 attempts over 72 h 35 min, then the
 * delivery is `failed` (a redelivery starts a new run).
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 36_000_000, 54_000_000,
  72_000_000,
];

/**
 * An endpoint whose every attempt failed for this long is turned off (reason `failing`) and its
 * owner emailed: the last attempt of a delivery that failed its three days of retries does it.
 */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/** One attempt's time limit, connection and TLS included. */
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * The connection's own limit (TCP, and TLS for https), within the attempt's: a target that
 * drops packets is given up quickly instead of holding a slot for the whole attempt.
 */
export const CONNECT_TIMEOUT_MS = 3_000;

/** How long a host holds the deliveries it claimed (longer than an attempt can take). */
export const LEASE_MS = 60_000;

/**
 * How one host shares its sending among endpoints and accounts (host/webhooks/worker.ts): a
 * lane is a pool of `slots` attempts in flight, refilled as each ends. A claim takes at most
 * `perEndpoint` deliveries in flight per endpoint and `perAccount` per account (counted over
 * every host's leases), the least busy account first, so one account's silent endpoints cannot
 * hold the pool another account's delivery waits for.
 */
export interface Lane {
  readonly slow: boolean;
  readonly slots: number;
  readonly perEndpoint: number;
  readonly perAccount: number;
}

/** The lane of endpoints that answer (or fail fast). */
export const MAIN_LANE: Lane = { slow: false, slots: 16, perEndpoint: 2, perAccount: 8 };

/** The lane of endpoints whose last {@link SLOW_AFTER_TIMEOUTS} attempts timed out: one at a time each. */
export const SLOW_LANE: Lane = { slow: true, slots: 4, perEndpoint: 1, perAccount: 2 };

/** Consecutive timed-out attempts that move an endpoint to the slow lane (any answer moves it back). */
export const SLOW_AFTER_TIMEOUTS = 3;

/** Test events (POST /webhook-endpoints/{id}/test) one endpoint may get per hour (429 rate_limited past it). */
export const TEST_EVENTS_PER_HOUR = 5;

/** Events and their deliveries are kept this long (the delivery log), then deleted. */
export const RETENTION_MS = 30 * 86_400_000;

/** After a rotation, the old secret signs as well (a second signature) for this long. */
export const PREVIOUS_SECRET_GRACE_MS = 86_400_000;

/** Bytes of a receiver's answer read (then dropped): nothing of it is kept. */
export const MAX_RESPONSE_BYTES = 4096;

/** The wait after the `tries`-th failed attempt of a run, or null when no try is left. */
export function retryDelay(tries: number): number | null {
  return tries >= 1 && tries <= RETRY_DELAYS_MS.length ? RETRY_DELAYS_MS[tries - 1]! : null;
}
