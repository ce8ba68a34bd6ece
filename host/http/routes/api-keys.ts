/**
 * API key routes: GET /api-keys (paged, newest first), POST /api-keys, DELETE /api-keys/{key_id}.
 *
 * Keys are `wuk_` + 8 lookup characters + 43 secret characters; the API shows `prefix`
 * (`wuk_` + the lookup) and the full key only in the creation response. Scopes default to
 * [read, write]; export is opt-in and needs read. Deleting revokes: the row stays so that the
 * key answers 401 api_key_revoked instead of unauthenticated.
 * @module
 */
import type { AppDeps } from '../../deps.js';
import { insertApiKey, listApiKeys, revokeApiKey } from '../../db/api-keys.js';
import type { ApiKey, Scope } from '../../db/api-keys.js';
import { mintToken, TOKEN_PREFIX } from '../../auth/secrets.js';
import { isoInstant, isoInstantOrNull } from '../../instant.js';
import { requirePrincipal } from '../context.js';
import { cursorKey, pageRequest, pageResponse } from '../paging.js';
import { invalid, problem } from '../../errors.js';
import type { Routes } from '../registrar.js';
import type { ApiKeyCreatedOut, ApiKeyIn, ApiKeyOut, ApiKeyPage } from '../../generated/openapi.js';

/** Schema `ApiKeyOut`. */
export function apiKeyOut(k: ApiKey): ApiKeyOut {
  return {
    id: k.id,
    name: k.name,
    prefix: TOKEN_PREFIX.api_key + k.lookup,
    scopes: k.scopes,
    created_at: isoInstant(k.createdAt),
    last_used_at: isoInstantOrNull(k.lastUsedAt),
  };
}

const SCOPE_ORDER: Scope[] = ['read', 'write', 'export'];

/** Registers the API key operations. */
export function register(routes: Routes, deps: AppDeps): void {
  routes.operation<unknown, { cursor?: string; limit?: number }>('listApiKeys', ({ principal, query }) => {
    const p = requirePrincipal(principal);
    const page = pageRequest(query);
    const after = cursorKey<[number, string]>(page.after, ['number', 'string']);
    const rows = listApiKeys(deps.db, p.accountId, page.limit + 1, after && { createdAt: after[0], id: after[1] });
    const out: ApiKeyPage = pageResponse(rows, page.limit, (k) => [k.createdAt, k.id], apiKeyOut);
    return { status: 200, body: out };
  });

  routes.operation<ApiKeyIn>('createApiKey', ({ principal, body }) => {
    const p = requirePrincipal(principal);
    const scopes: Scope[] = body.scopes ?? ['read', 'write'];
    if (scopes.includes('export') && !scopes.includes('read')) {
      throw invalid({ field: 'scopes', in: 'body', code: 'invalid', message: 'export needs read' });
    }
    const name = body.name.trim();
    if (name === '') throw invalid({ field: 'name', in: 'body', code: 'min_length', message: 'must not be blank' });
    const minted = mintToken('api_key');
    const key = insertApiKey(deps.db, {
      id: deps.ids.uuid(),
      accountId: p.accountId,
      name,
      lookup: minted.lookup,
      keyHash: minted.hash,
      scopes: SCOPE_ORDER.filter((s) => scopes.includes(s)),
      createdAt: deps.clock.now(),
    });
    // `key` is shown once: never kept for an Idempotency-Key replay.
    const out: ApiKeyCreatedOut = { ...apiKeyOut(key), key: minted.token };
    return { status: 201, body: out, secretFields: ['key'] };
  });

  routes.operation<unknown, unknown, { key_id: string }>('deleteApiKey', ({ principal, params }) => {
    const p = requirePrincipal(principal);
    if (!revokeApiKey(deps.db, p.accountId, params.key_id, deps.clock.now())) {
      throw problem('not_found', { detail: 'No API key with that id.' });
    }
    return { status: 204 };
  });
}
