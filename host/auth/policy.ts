/**
 * Sign-in and credential lifetimes (decided values, also written in schema/openapi.yaml and
 * docs/api.md).
 * @module
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** An app session ends 90 days after its last use. */
export const APP_SESSION_IDLE_MS = 90 * DAY;
/** A web session ends 14 days after its last use. */
export const WEB_SESSION_IDLE_MS = 14 * DAY;
/** The web session cookie is re-sent (sliding its Max-Age) when its last refresh is older than this. */
export const WEB_COOKIE_REFRESH_MS = DAY;
/** A sign-in code is valid 10 minutes. */
export const CODE_VALID_MINUTES = 10;
/** The fifth wrong code for an email locks it... */
export const MAX_CODE_FAILURES = 5;
/** ...for 15 minutes. */
export const CODE_LOCK_MS = 15 * MINUTE;
/** Sign-in code emails per address per hour (beyond: 429 rate_limited). */
export const CODE_SENDS_PER_HOUR = 5;
/** Sign-in code emails per client address per hour, whatever the addresses (beyond: 429 rate_limited). */
export const CODE_SENDS_PER_CLIENT_PER_HOUR = 20;
/** Sign-in code checks per client address per minute (beyond: 429 rate_limited, nothing hashed). */
export const CODE_CHECKS_PER_CLIENT_PER_MINUTE = 30;
/** Code hashes (scrypt) running at once in the process, served round-robin across client addresses. */
export const CODE_HASH_CONCURRENCY = 2;
/** Code hashes one client address may have waiting or running (beyond: 429 rate_limited). */
export const CODE_HASH_PER_CLIENT = 4;
/** A sign-in row with no code and no lock is removed this long after its last change. */
export const SIGN_IN_ROW_IDLE_MS = CODE_LOCK_MS;
/** Day length in ms. */
export const DAY_MS = DAY;
