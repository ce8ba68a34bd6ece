/**
 * One-time verification codes: the one mechanism behind e-mail sign-in, account deletion,
 * phone verification and the demo call. It owns the rules; each use keeps its own rows and
 * passes its limits ({@link CodeRules}) and, where it can, its storage ({@link CodeStore}).
 *
 * - A code is 6 digits, uniformly random, leading zeros kept ({@link newCode}).
 * - Only its hash is stored: scrypt (N=2^14, r=8) with a random 16-byte salt per code, since
 *   6 digits are guessable from a fast hash. Guessing over the API is stopped by the wrong-try
 *   limit instead ({@link hashCode}).
 * - A presented code is compared in constant time; without a code to compare it is hashed
 *   all the same, so the answer takes as long either way ({@link matchCode}).
 * - A code is usable until `expiresAt` (exclusive) and while no lock runs ({@link liveCode},
 *   {@link runningLock}).
 * - Wrong tries count per key; an expired lock starts a fresh count; the `maxWrongTries`-th
 *   wrong try discards the code and locks the key for `lockMs` (or, with `lockMs` null, only
 *   ends the code) ({@link afterWrongTry}).
 * - A right code is consumed once: the store's `consume` succeeds for one caller only.
 *
 * Nothing here reads the time: every function takes `now`.
 * @module
 */
import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import type { EpochMs } from '../../engine/index.js';

/** The limits of one use of codes. */
export interface CodeRules {
  /** A code is accepted this long after it was issued. */
  validMs: number;
  /** The wrong try that reaches this count discards the code (and locks, see `lockMs`). */
  maxWrongTries: number;
  /** How long the key is locked after the last allowed wrong try; null: no lock, the code just ends. */
  lockMs: number | null;
}

/** A code's stored hash and salt (hex). */
export interface CodeHash {
  hash: string;
  salt: string;
}

/** What a use stores about its current code and wrong tries (the code itself never). */
export interface CodeState {
  codeHash: string | null;
  codeSalt: string | null;
  codeExpiresAt: EpochMs | null;
  failedCount: number;
  lockedUntil: EpochMs | null;
}

/** A freshly issued code: send `code`, store the rest. */
export interface IssuedCode extends CodeHash {
  code: string;
  expiresAt: EpochMs;
}

/** The state after one wrong try. */
export interface WrongTry {
  /** Wrong tries counted so far, this one included. */
  failedCount: number;
  /** The lock in force afterwards (set by this try when it reached the limit), or null. */
  lockedUntil: EpochMs | null;
  /** Whether this try reached the limit: the code must be discarded. */
  discardCode: boolean;
}

/**
 * Storage of one use whose rows are one per key (an address, an account): what
 * {@link verifyCode} needs. Each method is one statement or one transaction.
 */
export interface CodeStore<K, Tx = unknown> {
  /** The key's state, if it ever had a code or a wrong try. */
  find(key: K): Promise<CodeState | undefined>;
  /** Stores a fresh code, replacing any earlier one; the wrong-try count is kept (an expired lock resets it). */
  save(key: K, code: IssuedCode, now: EpochMs): Promise<void>;
  /** Counts one wrong try by {@link afterWrongTry} (a row is made for an unknown key) and returns the result. */
  recordWrongTry(key: K, rules: CodeRules, now: EpochMs): Promise<WrongTry>;
  /**
   * Consumes the code with that hash: true for one caller only (single use). `tx`: the
   * transaction to do it in (a caller that consumes the code with its own writes).
   */
  consume(key: K, codeHash: string, tx?: Tx): Promise<boolean>;
}

/** Runs the slow hash (a caller may queue it, e.g. through a per-client work gate). */
export type HashRunner = <T>(work: () => Promise<T>) => Promise<T>;

const direct: HashRunner = (work) => work();

/** A uniformly random 6-digit code, leading zeros kept. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

const SCRYPT = { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/** Hashes a code with a new random salt (or the given one). Hex strings. */
export async function hashCode(code: string, saltHex?: string): Promise<CodeHash> {
  const salt = saltHex ? Buffer.from(saltHex, 'hex') : randomBytes(16);
  const hash = await new Promise<Buffer>((resolve, reject) =>
    scrypt(code, salt, 32, SCRYPT, (err, key) => (err ? reject(err) : resolve(key))),
  );
  return { hash: hash.toString('hex'), salt: salt.toString('hex') };
}

/** A stand-in hashed when there is no code to compare: the same work, never a match. */
const NO_CODE: CodeHash = { hash: '00', salt: '00' };

/**
 * Whether `code` is the stored one, compared in constant time. Without a stored code
 * (`null`) the code is hashed all the same and the answer is false.
 */
export async function matchCode(code: string, stored: CodeHash | null): Promise<boolean> {
  const against = stored ?? NO_CODE;
  const x = Buffer.from((await hashCode(code, against.salt)).hash, 'hex');
  const y = Buffer.from(against.hash, 'hex');
  return stored !== null && x.length === y.length && timingSafeEqual(x, y);
}

/** Mints a code and its hash, valid `rules.validMs` from `now`. */
export async function issueCode(
  rules: Pick<CodeRules, 'validMs'>,
  now: EpochMs,
  run: HashRunner = direct,
): Promise<IssuedCode> {
  const code = newCode();
  const { hash, salt } = await run(() => hashCode(code));
  return { code, hash, salt, expiresAt: now + rules.validMs };
}

/** The lock running at `now`, or null. */
export function runningLock(
  state: Pick<CodeState, 'lockedUntil'> | undefined,
  now: EpochMs,
): EpochMs | null {
  return state && state.lockedUntil !== null && state.lockedUntil > now ? state.lockedUntil : null;
}

/** Whole seconds until `until` (at least 1): the Retry-After of a lock. */
export function retryAfterSeconds(until: EpochMs, now: EpochMs): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}

/** The stored code if it may still be used at `now` (present and not expired), else null. */
export function liveCode(state: CodeState | undefined, now: EpochMs): CodeHash | null {
  if (
    !state ||
    !state.codeHash ||
    !state.codeSalt ||
    state.codeExpiresAt === null ||
    state.codeExpiresAt <= now
  )
    return null;
  return { hash: state.codeHash, salt: state.codeSalt };
}

/** The state after one more wrong try at `now`: an expired lock restarts the count; the limit discards the code and locks. */
export function afterWrongTry(
  state: Pick<CodeState, 'failedCount' | 'lockedUntil'>,
  rules: CodeRules,
  now: EpochMs,
): WrongTry {
  const lockExpired = state.lockedUntil !== null && state.lockedUntil <= now;
  const failedCount = (lockExpired ? 0 : state.failedCount) + 1;
  const discardCode = failedCount >= rules.maxWrongTries;
  const lockedUntil =
    discardCode && rules.lockMs !== null
      ? now + rules.lockMs
      : lockExpired
        ? null
        : state.lockedUntil;
  return { failedCount, lockedUntil, discardCode };
}

/** The outcome of {@link verifyCode}. */
export type Verified<T> =
  | { ok: true; value: T }
  /** Locked before this try: nothing was compared or counted. */
  | { ok: false; locked: EpochMs }
  /** Wrong, expired or already used: counted; `lockedUntil` is set when this try locked the key. */
  | { ok: false; locked: null; wrong: WrongTry };

/**
 * Checks a code against a {@link CodeStore}: refused while locked; otherwise the code is
 * hashed (even when none is live), and a right one is consumed by `consume` (the store's
 * by default; a use may consume it inside a transaction of its own and return its result,
 * or undefined when another request consumed it first). Anything else counts a wrong try.
 * Callers run it one at a time per key, so parallel guesses cannot outrun the lock.
 */
export async function verifyCode<K, T = true>(
  store: CodeStore<K, never>,
  rules: CodeRules,
  key: K,
  code: string,
  now: EpochMs,
  options: { run?: HashRunner; consume?: (codeHash: string) => Promise<T | undefined> } = {},
): Promise<Verified<T>> {
  const state = await store.find(key);
  const locked = runningLock(state, now);
  if (locked !== null) return { ok: false, locked };
  const live = liveCode(state, now);
  const right = await (options.run ?? direct)(() => matchCode(code, live));
  if (right && live) {
    const consume =
      options.consume ??
      (async (h: string) => ((await store.consume(key, h)) ? (true as T) : undefined));
    const value = await consume(live.hash);
    if (value !== undefined) return { ok: true, value };
  }
  return { ok: false, locked: null, wrong: await store.recordWrongTry(key, rules, now) };
}
