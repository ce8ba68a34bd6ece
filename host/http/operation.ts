/**
 * The pipeline every schema operation runs, in this order:
 *
 * 1. authenticate and authorise (`x-credentials`, `x-scope`, CSRF)      → 401 / 403
 * 2. general rate limit per account                                     → 429
 * 3. validate path parameters, query                                    → 404 / 400
 * 4. read the JSON body (415, 413, malformed 400) and validate it       → 400
 * 5. Idempotency-Key (operations with `x-idempotent`)                   → 400 / 409 / replay
 * 6. the handler, whose {@link Reply} is written to the response.
 *
 * Routing (404/405) and the per-IP limit run before this, for every request.
 * @module
 */
import type { OperationInfo } from '../../schema/load.js';
import { loadOpenApi } from '../../schema/load.js';
import type { AppServices } from '../services.js';
import { authenticate } from './auth.js';
import { readJsonBody } from './body.js';
import type { AppContext, Handler, Reply } from './context.js';
import { fingerprint, idempotencyKey, runIdempotent } from './idempotency.js';
import { invalid } from '../errors.js';
import { countLimit } from './rate-limit.js';
import type { RateLimiter } from '../rate-limit/limiter.js';
import type { Route } from './router.js';
import { check, queryObject } from './validate.js';

/** The general limiters (contract §4), shared by every operation of one app. */
export interface GeneralLimits {
  /** Per client IP; counted for every /api/v1 request before routing. */
  ip: RateLimiter;
  /** Per account; counted once the caller is known. */
  account: RateLimiter;
}

/** API path prefix; operations with `server: 'site'` are mounted at the root. */
export const API_PREFIX = '/api/v1';

/** Builds the route of one operation. */
export function operationRoute(
  op: OperationInfo,
  handler: Handler,
  services: AppServices,
  limits: GeneralLimits,
): Route {
  const template = (op.server === 'api' ? API_PREFIX : '') + op.path;
  const bodyRequired = isBodyRequired(op);
  return {
    method: op.method,
    template,
    async run(ctx, rawParams) {
      ctx.state.operationId = op.operationId;
      const principal = await authenticate(ctx, op, services.credentials);
      ctx.state.principal = principal;
      if (principal && op.server === 'api')
        await countLimit(ctx, limits.account, principal.accountId);

      const params = check(op.validateParams, { ...rawParams }, 'path');
      const query = check(op.validateQuery, queryObject(ctx.query), 'query');
      let raw: unknown;
      let body: unknown;
      if (op.validateBody) {
        const read = await readJsonBody(ctx, services.config.maxBodyBytes);
        if (read.present) {
          raw = read.value;
          body = check(op.validateBody, structuredClone(read.value), 'body');
        } else if (bodyRequired) {
          throw invalid({
            field: '',
            in: 'body',
            code: 'required',
            message: 'a JSON body is required',
          });
        }
      }

      const run = async () => handler({ body, query, params, principal, services, ctx });
      const key = op.idempotent ? idempotencyKey(ctx) : null;
      let reply: Reply;
      if (key !== null) {
        const scope = principal ? `account:${principal.accountId}` : `ip:${ctx.ip}`;
        reply = await runIdempotent(
          services,
          scope,
          key,
          fingerprint(ctx.method, ctx.path, raw),
          run,
        );
      } else {
        reply = await run();
      }
      writeReply(ctx, reply);
    },
  };
}

/** Writes a handler's reply. */
export function writeReply(ctx: AppContext, reply: Reply): void {
  // A service method turned async and its handler forgot to await it: fail loudly (500, logged)
  // rather than answer `{}` for a change that may still be running.
  if (typeof (reply.body as { then?: unknown } | null)?.then === 'function') {
    throw new Error('a handler answered an unawaited promise as its body');
  }
  ctx.status = reply.status;
  if (reply.headers) ctx.set(reply.headers);
  if (reply.body !== undefined && reply.status !== 204 && reply.status !== 304)
    ctx.body = reply.body;
}

/** `requestBody.required` of the operation in the document (false when it has no body). */
function isBodyRequired(op: OperationInfo): boolean {
  // The document is loosely typed JSON (OpenApiDocument): name the shape of the keys read here.
  type Body = { $ref?: string; required?: boolean };
  const doc = loadOpenApi() as {
    paths?: Record<string, Record<string, { requestBody?: Body }>>;
    components?: { requestBodies?: Record<string, Body> };
  };
  let rb = doc.paths?.[op.path]?.[op.method.toLowerCase()]?.requestBody;
  if (rb && typeof rb.$ref === 'string')
    rb = doc.components?.requestBodies?.[rb.$ref.split('/').pop()!];
  return rb?.required === true;
}
