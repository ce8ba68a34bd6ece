/**
 * GET /api/v1/openapi.json: the schema document as JSON (public).
 * @module
 */
import { createHash } from 'node:crypto';
import { loadOpenApi } from '../../../schema/load.js';
import type { Reply } from '../context.js';
import type { Routes } from '../registrar.js';

/** Registers the service description operation. */
export function register(routes: Routes): void {
  const json = JSON.stringify(loadOpenApi());
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
  routes.operation('getOpenApi', ({ ctx }): Reply => {
    if (ctx.get('If-None-Match') === etag) return { status: 304, headers: { ETag: etag } };
    return {
      status: 200,
      body: JSON.parse(json) as object,
      headers: { ETag: etag, 'Cache-Control': 'public, max-age=300' },
    };
  });
}
