/**
 * Types shared by the HTTP layer: per-request state, the authenticated principal, and the
 * handler contract route modules implement.
 * @module
 */
import type { ParameterizedContext } from 'koa';
import type { Logger } from '../logger.js';
import type { AppServices } from '../services.js';
import type { Principal } from '../auth/principal.js';
import type { RateResult } from '../rate-limit/limiter.js';

export type { CredentialKind, Principal } from '../auth/principal.js';

/** `ctx.state` of every request. */
export interface AppState {
  requestId: string;
  /** Child logger carrying the request id. */
  log: Logger;
  /** Set for authenticated operations. */
  principal: Principal | null;
  /**
   * The client as every per-IP limit counts it: its address (`ctx.ip`), an IPv6 one by its
   * network prefix (host/rate-limit/client-key.ts, WAKEUP_IPV6_PREFIX).
   */
  client: string;
  /** Rate results counted for this request (general limits), described in the headers. */
  rate: RateResult[];
  /** operationId of the matched operation, for the access log. */
  operationId?: string;
}

/** The Koa context type of this app. */
export type AppContext = ParameterizedContext<AppState>;

/** What a handler receives. Body, query and params are validated against the schema. */
export interface HandlerInput<B = any, Q = any, P = any> {
  /** The parsed and validated JSON body (undefined when the operation takes none). */
  body: B;
  /** Validated query, strings coerced and defaults applied. */
  query: Q;
  /** Validated path parameters (decoded). */
  params: P;
  /** The caller; null only on public operations called without credentials. */
  principal: Principal | null;
  /** The feature services (built by `host/compose.ts`); never the database itself. */
  services: AppServices;
  /** The raw Koa context, for cookies and headers. Prefer returning a {@link Reply}. */
  ctx: AppContext;
}

/** What a handler returns. The pipeline writes it (and keeps it for an Idempotency-Key replay). */
export interface Reply {
  status: number;
  /** JSON body; omit for 204. */
  body?: unknown;
  /** Extra headers (e.g. Location). Replayed with the body. Never put Set-Cookie here. */
  headers?: Record<string, string>;
  /**
   * Top-level body fields that hold a secret shown once (e.g. a new API key). They are
   * stripped from the copy kept for an Idempotency-Key replay.
   */
  secretFields?: string[];
}

/** A handler of one schema operation. */
export type Handler<B = any, Q = any, P = any> = (
  input: HandlerInput<B, Q, P>,
) => Reply | Promise<Reply>;

/** A principal known to be present (operations that are not public). */
export function requirePrincipal(p: Principal | null): Principal {
  if (!p)
    throw new Error('requirePrincipal: operation ran without a principal (is it marked public?)');
  return p;
}
