/**
 * Where rate-limit windows live: the {@link WindowStore} port, in process memory
 * ({@link createMemoryWindowStore}: SQLite, one process owns the database) or in the database
 * ({@link createDbWindowStore}: table `rate_windows`, shared by every host on one PostgreSQL).
 *
 * A window is a fixed window per limiter name and key: it opens at its first hit and lasts
 * `windowMs`; a hit at or after its end opens a new one. A hit names one or more windows and
 * counts on all of them or on none: it is allowed when every window has room (count below its
 * limit) and then counts on each; a refused hit changes no count the caller can observe
 * (the database store may count past the limit, which reads the same: nothing left).
 *
 * On the database, a single window is one atomic upsert-increment (`INSERT … ON CONFLICT
 * (limiter, key) DO UPDATE SET count = count + 1 … RETURNING count, window_start`), so that
 * hosts counting the same key at once never lose a hit. The row is per limiter and key and
 * holds the current window's start: the start of a first-hit window is not known before the
 * upsert, so it cannot be part of the key; a lapsed window is restarted by the same
 * statement. Several windows (the phone code-send limits) are each counted so, and when one
 * refuses the hit is taken back off every one of them (a decrement of the same window).
 * Not a transaction: on PostgreSQL a SERIALIZABLE transaction over rows every sender of one
 * number updates would fail and retry under contention, and could give up (a 500). The
 * cost: a hit about to be taken back may, for a moment, make a concurrent hit on the same
 * window be refused (erring against the sender). Lapsed rows are deleted now and then (every
 * {@link PRUNE_EVERY} hits of a process).
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { Db } from '../db/sql.js';

/** One window a hit counts on. */
export interface WindowRef {
  /** The limiter's stable name (`api.ip`, `sign-in.sends`, ...): the rows of one limiter. */
  limiter: string;
  key: string;
  limit: number;
  windowMs: number;
}

/** A window after a hit. */
export interface WindowState {
  /** Hits counted in this window (may exceed the limit on the database: read it as full). */
  count: number;
  start: EpochMs;
}

/** The outcome of one hit on several windows. */
export interface WindowHit {
  /** Whether every window had room (and so the hit was counted on each). */
  allowed: boolean;
  /** The windows in the order asked, after the hit. */
  windows: WindowState[];
}

/** Rate-limit windows, per process or shared (see the module header). */
export interface WindowStore {
  /** Counts one hit on every window of `refs` when each has room, else on none. */
  hit(refs: readonly WindowRef[], now: EpochMs): Promise<WindowHit>;
}

/** Lapsed windows are dropped after this many hits of one store. */
export const PRUNE_EVERY = 1000;

const lapsed = (w: WindowState, windowMs: number, now: EpochMs) => now >= w.start + windowMs;

/** Windows in process memory (one process owns the database). */
export function createMemoryWindowStore(): WindowStore {
  const windows = new Map<string, WindowState & { windowMs: number }>();
  let hits = 0;
  const prune = (now: EpochMs) => {
    for (const [k, w] of windows) if (lapsed(w, w.windowMs, now)) windows.delete(k);
  };
  return {
    hit(refs, now) {
      if (++hits >= PRUNE_EVERY) {
        hits = 0;
        prune(now);
      }
      const current = refs.map((r) => {
        const id = `${r.limiter}\u0000${r.key}`;
        let w = windows.get(id);
        if (!w || lapsed(w, r.windowMs, now)) {
          w = { start: now, count: 0, windowMs: r.windowMs };
          windows.set(id, w);
        }
        return w;
      });
      const allowed = refs.every((r, i) => current[i]!.count < r.limit);
      if (allowed) for (const w of current) w.count += 1;
      return Promise.resolve({
        allowed,
        windows: current.map((w) => ({ count: w.count, start: w.start })),
      });
    },
  };
}

// The existing row's window lapsed: restart it with this hit; else count this hit.
const UPSERT = `INSERT INTO rate_windows (limiter, key, window_start, expires_at, count)
VALUES (@limiter, @key, @now, @expires, 1)
ON CONFLICT (limiter, key) DO UPDATE SET
  window_start = CASE WHEN rate_windows.expires_at <= @now THEN excluded.window_start ELSE rate_windows.window_start END,
  expires_at = CASE WHEN rate_windows.expires_at <= @now THEN excluded.expires_at ELSE rate_windows.expires_at END,
  count = CASE WHEN rate_windows.expires_at <= @now THEN 1 ELSE rate_windows.count + 1 END
RETURNING count, window_start`;

/** Windows in table `rate_windows` of `db` (migration 0016), shared by every host on it. */
export function createDbWindowStore(db: Db): WindowStore {
  let hits = 0;
  const upsert = async (q: Db, r: WindowRef, now: EpochMs): Promise<WindowState> => {
    const row = await q.get<{ count: number; window_start: number }>(UPSERT, {
      limiter: r.limiter,
      key: r.key,
      now,
      expires: now + r.windowMs,
    });
    return { count: Number(row!.count), start: Number(row!.window_start) };
  };
  return {
    async hit(refs, now) {
      if (++hits >= PRUNE_EVERY) {
        hits = 0;
        await db.run('DELETE FROM rate_windows WHERE expires_at <= ?', [now]);
      }
      if (refs.length === 1) {
        const w = await upsert(db, refs[0]!, now);
        return { allowed: w.count <= refs[0]!.limit, windows: [w] };
      }
      // Several windows: count on each, and when one refuses take the hit back off all of them.
      const windows: WindowState[] = [];
      for (const r of refs) windows.push(await upsert(db, r, now));
      if (refs.every((r, i) => windows[i]!.count <= r.limit)) return { allowed: true, windows };
      for (const [i, r] of refs.entries()) {
        await db.run(
          'UPDATE rate_windows SET count = count - 1 WHERE limiter = ? AND key = ? AND window_start = ? AND count > 0',
          [r.limiter, r.key, windows[i]!.start],
        );
      }
      return {
        allowed: false,
        windows: windows.map((w) => ({ count: w.count - 1, start: w.start })),
      };
    },
  };
}
