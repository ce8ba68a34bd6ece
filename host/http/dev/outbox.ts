/**
 * GET /dev/outbox (dev mode only): messages the built-in simulators sent, newest first.
 * @module
 */
import type { AppServices } from '../../services.js';
import type { Routes } from '../registrar.js';

/** Registers the operation. */
export function register(routes: Routes, services: AppServices): void {
  routes.operation<unknown, { to?: string; channel?: 'email' | 'sms' }>(
    'getDevOutbox',
    async ({ query }) => {
      // Email addresses are stored lower-cased (they are the account identity); numbers as E.164.
      const to =
        query.to === undefined || query.to === ''
          ? undefined
          : query.to.includes('@')
            ? query.to.trim().toLowerCase()
            : query.to.trim();
      const items = services.dev.outbox
        ? await services.dev.outbox.list({
            ...(to !== undefined ? { to } : {}),
            ...(query.channel ? { channel: query.channel } : {}),
          })
        : [];
      return { status: 200, body: { items } };
    },
  );
}
