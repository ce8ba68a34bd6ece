/**
 * Abuse limits on sending verification codes (texts and calls cost money, and
 * verification-code endpoints are where SMS pumping happens). Every code sent by
 * POST /phone-numbers or POST .../verify/start counts against all of (defaults, set by
 * WAKEUP_CODE_LIMIT_NUMBER, _ACCOUNT and _IP):
 *
 * | Key | Limit |
 * |---|---|
 * | per number (E.164, across accounts) | 5 an hour, 10 a day |
 * | per account | 10 an hour, 20 a day |
 * | per client IP | 20 an hour |
 *
 * Exceeding any answers 429 `rate_limited` with Retry-After and the RateLimit-* headers of
 * the limit that refused, before anything is stored or sent. A refused send counts against
 * none of the limits: all are checked first, and only a send that passes them all is
 * counted: one hit on the host's {@link WindowStore} names every window and counts on all of
 * them or on none (a `RateLimiter` per limit would let a refusal by the account limit eat
 * into the IP's allowance). Same fixed-window rule and 429 problem as the host's general
 * limits; windows run on the service clock (and on real time while a virtual clock stands
 * still: host/rate-limit/real-time.ts) and live where the store keeps them (process
 * memory on SQLite, table `rate_windows` on PostgreSQL), named `phone-codes.<key>.<seconds>`.
 * @module
 */
import type { Clock } from '../../engine/index.js';
import { rateLimited, windowResult } from '../rate-limit/limiter.js';
import type { WindowRef, WindowStore } from '../rate-limit/windows.js';
import type { CodeLimit, CodeLimits } from './config.js';

interface Limit extends CodeLimit {
  key: keyof CodeLimits;
  name: string;
}

const WHO: Record<keyof CodeLimits, string> = {
  number: 'to one number',
  account: 'per account',
  ip: 'from one network address',
};

/** "5 codes an hour to one number". */
function describe(l: Limit): string {
  const per =
    l.windowSeconds === 3600
      ? 'an hour'
      : l.windowSeconds === 86_400
        ? 'a day'
        : `per ${l.windowSeconds} seconds`;
  return `${l.limit} codes ${per} ${WHO[l.key]}`;
}

/** The code-send limits of one app. */
export class CodeSendLimits {
  private readonly limits: Limit[];

  constructor(
    private readonly clock: Clock,
    values: CodeLimits,
    private readonly store: WindowStore,
  ) {
    this.limits = (['number', 'account', 'ip'] as const).flatMap((key) =>
      values[key].map((l) => ({
        key,
        limit: l.limit,
        windowSeconds: l.windowSeconds,
        name: `phone-codes.${key}.${l.windowSeconds}`,
      })),
    );
  }

  /**
   * Counts one code send when every limit allows it; otherwise counts nothing and throws
   * 429 rate_limited for the first limit reached.
   */
  async count(keys: Record<keyof CodeLimits, string>): Promise<void> {
    const now = this.clock.now();
    const refs: WindowRef[] = this.limits.map((l) => ({
      limiter: l.name,
      key: keys[l.key],
      limit: l.limit,
      windowMs: l.windowSeconds * 1000,
    }));
    const hit = await this.store.hit(refs, now);
    if (hit.allowed) return;
    const refused = this.limits.findIndex((l, i) => hit.windows[i]!.count >= l.limit);
    const l = this.limits[refused]!;
    const result = windowResult(false, hit.windows[refused]!, l.limit, l.windowSeconds, now);
    throw rateLimited(
      result,
      `Too many verification codes: at most ${describe(l)}. Try again in ${result.resetSeconds} seconds.`,
    );
  }
}
