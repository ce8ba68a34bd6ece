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
 * counted. (The host's general `RateLimiter` (http/rate-limit.ts) counts as it checks, which would let a
 * refusal by the account limit eat into the IP's allowance, so these windows are kept here,
 * with the same fixed-window rule and the host's 429 problem.) Windows run on the service
 * clock and live in process memory: a restart forgets them.
 * @module
 */
import type { Clock, EpochMs } from '../../engine/index.js';
import { rateLimited, type RateResult } from '../rate-limit/limiter.js';
import type { CodeLimit, CodeLimits } from './config.js';

interface Limit extends CodeLimit {
  key: keyof CodeLimits;
  windows: Map<string, { start: EpochMs; count: number }>;
}

const WHO: Record<keyof CodeLimits, string> = {
  number: 'to one number',
  account: 'per account',
  ip: 'from one network address',
};

/** "5 codes an hour to one number". */
function describe(l: Limit): string {
  const per = l.windowSeconds === 3600 ? 'an hour' : l.windowSeconds === 86_400 ? 'a day' : `per ${l.windowSeconds} seconds`;
  return `${l.limit} codes ${per} ${WHO[l.key]}`;
}

/** The code-send limits of one app. */
export class CodeSendLimits {
  private readonly limits: Limit[];
  private sincePrune = 0;

  constructor(
    private readonly clock: Clock,
    values: CodeLimits,
  ) {
    this.limits = (['number', 'account', 'ip'] as const).flatMap((key) =>
      values[key].map((l) => ({ key, limit: l.limit, windowSeconds: l.windowSeconds, windows: new Map() })),
    );
  }

  /**
   * Counts one code send when every limit allows it; otherwise counts nothing and throws
   * 429 rate_limited for the first limit reached.
   */
  count(keys: Record<keyof CodeLimits, string>): void {
    const now = this.clock.now();
    if (++this.sincePrune >= 1000) this.prune(now);
    const windows = this.limits.map((l) => {
      let w = l.windows.get(keys[l.key]);
      if (!w || now >= w.start + l.windowSeconds * 1000) {
        w = { start: now, count: 0 };
        l.windows.set(keys[l.key], w);
      }
      return w;
    });
    const refused = this.limits.findIndex((l, i) => windows[i]!.count >= l.limit);
    if (refused >= 0) {
      const l = this.limits[refused]!;
      const w = windows[refused]!;
      const result: RateResult = {
        allowed: false,
        limit: l.limit,
        remaining: 0,
        resetSeconds: Math.max(1, Math.ceil((w.start + l.windowSeconds * 1000 - now) / 1000)),
        windowSeconds: l.windowSeconds,
      };
      throw rateLimited(result, `Too many verification codes: at most ${describe(l)}. Try again in ${result.resetSeconds} seconds.`);
    }
    for (const w of windows) w.count += 1;
  }

  private prune(now: EpochMs): void {
    this.sincePrune = 0;
    for (const l of this.limits) {
      for (const [k, w] of l.windows) if (now >= w.start + l.windowSeconds * 1000) l.windows.delete(k);
    }
  }
}
