/**
 * Turns every error into application/problem+json (RFC 9457):
 * - an {@link AppError} (domain code, validation) keeps its code, detail and field;
 * - the engine's `EngineError` that escapes a handler answers its own code when that code is
 *   in the catalogue (with its message as detail and its field), else 500;
 * - Koa/http errors with a client status map to the matching catalogue code;
 * - anything else is logged with its stack and answered as 500 internal_error without any
 *   detail of the cause.
 * A 404 for a browser's page load outside /api/ is a page instead (site/not-found-page.ts).
 * @module
 */
import type { Middleware } from 'koa';
import type { AppServices } from '../services.js';
import type { AppState } from './context.js';
import { internalProblemBody, toProblemBody } from './problem.js';
import { EngineError } from '../../engine/index.js';
import { AppError, isErrorCode } from '../errors.js';
import type { ErrorCode } from '../errors.js';
import type { ProblemBody } from './problem.js';
import { sendNotFoundPage, wantsNotFoundPage } from './site/not-found-page.js';

/** Client statuses raised by Koa or Node (not by our code) and their catalogue codes. */
const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'validation_error',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/** Creates the middleware. */
export function errorHandler(services: AppServices): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (ctx.headerSent) {
        ctx.state.log.error({ err }, 'error after the response started');
        return;
      }
      const site = services.siteUrl();
      let body: ProblemBody;
      let headers: Record<string, string> = {};
      if (err instanceof AppError) {
        body = toProblemBody(err, site, ctx.path);
        headers = err.headers;
        if (body.code === 'internal_error')
          ctx.state.log.error({ err }, 'uncatalogued problem code');
      } else if (EngineError.is(err) && isErrorCode(err.code) && err.code !== 'internal_error') {
        body = toProblemBody(
          new AppError(err.code, {
            detail: err.message,
            ...(err.field ? { field: err.field } : {}),
          }),
          site,
          ctx.path,
        );
      } else {
        const status = (err as { status?: unknown; expose?: unknown }).status;
        const mapped = typeof status === 'number' ? HTTP_STATUS_CODES[status] : undefined;
        if (mapped && (err as { expose?: unknown }).expose !== false) {
          body = toProblemBody(new AppError(mapped), site, ctx.path);
        } else {
          ctx.state.log.error({ err }, 'unhandled error');
          body = internalProblemBody(site, ctx.path);
        }
      }
      if (body.code === 'not_found' && wantsNotFoundPage(ctx)) {
        sendNotFoundPage(ctx);
        return;
      }
      ctx.status = body.status;
      ctx.set(headers);
      ctx.type = 'application/problem+json';
      ctx.body = JSON.stringify(body);
    }
  };
}
