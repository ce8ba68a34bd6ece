/**
 * The registrar route modules receive: they name a schema operation and give its handler;
 * path, method, auth, validation and idempotency come from `schema/openapi.yaml`.
 * @module
 */
import { getOperations } from '../../schema/load.js';
import type { AppServices } from '../services.js';
import type { AppContext, Handler } from './context.js';
import { operationRoute } from './operation.js';
import type { GeneralLimits } from './operation.js';
import type { RouteTable } from './router.js';

/** What a route module registers with. */
export interface Routes {
  /**
   * Mounts the handler of a schema operation (by operationId). Throws when the schema has no
   * such operation or it is registered twice.
   */
  operation<B = any, Q = any, P = any>(operationId: string, handler: Handler<B, Q, P>): void;
  /**
   * Mounts a site page outside the API schema (HTML, health checks): no auth, no
   * validation, no rate headers. Errors thrown still become problem+json.
   */
  page(
    method: 'GET' | 'POST',
    path: string,
    handler: (ctx: AppContext, params: Record<string, string>) => void | Promise<void>,
  ): void;
}

/** A route module: `export function register(routes, services)`. */
export interface RouteModule {
  register(routes: Routes, services: AppServices): void;
}

/** Creates the registrar that fills `table`. */
export function createRegistrar(
  table: RouteTable,
  services: AppServices,
  limits: GeneralLimits,
): Routes {
  const ops = getOperations();
  return {
    operation(operationId, handler) {
      const op = ops.get(operationId);
      if (!op) throw new Error(`routes: no operation ${operationId} in schema/openapi.yaml`);
      table.add(operationRoute(op, handler, services, limits));
    },
    page(method, path, handler) {
      table.add({
        method,
        template: path,
        async run(ctx, params) {
          await handler(ctx, params);
        },
      });
    },
  };
}
