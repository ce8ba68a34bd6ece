/**
 * Demo routes (public): POST /demo/start and POST /demo/call. Rules in `host/demo/service.ts`.
 *
 * The per-address limit (3 starts an hour) lives here because the client address is an HTTP
 * fact: it is `ctx.state.client`, the one address the host derives (the socket, or
 * X-Forwarded-For under WAKEUP_TRUST_PROXY; an IPv6 one by its prefix). Every start that reaches the handler counts, whatever it
 * answers; past the limit, 429 demo_rate_limited with Retry-After and RateLimit-* headers.
 * @module
 */
import type { DemoCallInput, DemoStartInput } from '../../demo/service.js';
import { DEMO_RULES } from '../../demo/rules.js';
import { problem } from '../../errors.js';
import { RateLimiter, rateHeaders } from '../../rate-limit/limiter.js';
import { setRateHeaders } from '../rate-limit.js';
import type { AppServices } from '../../services.js';
import type { Routes } from '../registrar.js';

/** Registers startDemo and placeDemoCall. */
export function register(routes: Routes, services: AppServices): void {
  const demo = services.demo;
  const perAddress = new RateLimiter({
    name: 'demo.start',
    limit: DEMO_RULES.startsPerAddressPerHour,
    windowSeconds: 3600,
    clock: services.clock,
    store: services.shared.rateWindows,
  });

  routes.operation<DemoStartInput>('startDemo', async ({ body, ctx }) => {
    const r = await perAddress.hit(ctx.state.client);
    ctx.state.rate.push(r);
    setRateHeaders(ctx);
    if (!r.allowed) {
      throw problem('demo_rate_limited', {
        detail: `At most ${r.limit} demo requests an hour from one network address. Try again in ${r.resetSeconds} seconds.`,
        headers: { ...rateHeaders(r), 'Retry-After': String(r.resetSeconds) },
      });
    }
    return { status: 202, body: await demo.start(body) };
  });

  routes.operation<DemoCallInput>('placeDemoCall', async ({ body }) => {
    const { created, call } = await demo.call(body);
    return { status: created ? 201 : 200, body: call };
  });
}
