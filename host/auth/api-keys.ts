/**
 * The API key service: list (paged, newest first), create, revoke.
 *
 * Keys are `wuk_` + 8 lookup characters + 43 secret characters; the API shows `prefix`
 * (`wuk_` + the lookup) and the full key only in the creation response. Scopes default to
 * [read, write]; export is opt-in and needs read. Deleting revokes: the row stays so that the
 * key answers 401 api_key_revoked instead of unauthenticated.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, Ids } from '../../engine/index.js';
import { insertApiKey, listApiKeys, revokeApiKey } from '../db/api-keys.js';
import type { ApiKey, Scope } from '../db/api-keys.js';
import { invalid, problem } from '../errors.js';
import type { ApiKeyCreatedOut, ApiKeyIn, ApiKeyOut, ApiKeyPage } from '../generated/openapi.js';
import { isoInstant, isoInstantOrNull } from '../instant.js';
import { cursorKey, pageRequest, pageResponse, type PageQuery } from '../paging.js';
import { mintToken, TOKEN_PREFIX } from './secrets.js';

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

const SCOPE_ORDER: Scope[] = ['read', 'write', 'export', 'ops'];

/** The API key operations of an account. */
export interface ApiKeyService {
  list(accountId: string, query: PageQuery): Promise<ApiKeyPage>;
  /** The new key, its secret `key` included (shown once). */
  create(accountId: string, body: ApiKeyIn): Promise<ApiKeyCreatedOut>;
  /** Revokes; 404 not_found when the account has no such key. */
  revoke(accountId: string, keyId: string): Promise<void>;
}

/** Creates the API key service. */
export function createApiKeyService({
  db,
  clock,
  ids,
}: {
  db: Db;
  clock: Clock;
  ids: Ids;
}): ApiKeyService {
  return {
    async list(accountId, query) {
      const page = pageRequest(query);
      const after = cursorKey<[number, string]>(page.after, ['number', 'string']);
      const rows = await listApiKeys(
        db,
        accountId,
        page.limit + 1,
        after && { createdAt: after[0], id: after[1] },
      );
      return pageResponse(rows, page.limit, (k) => [k.createdAt, k.id], apiKeyOut);
    },
    async create(accountId, body) {
      const scopes: Scope[] = body.scopes ?? ['read', 'write'];
      if (scopes.includes('export') && !scopes.includes('read')) {
        throw invalid({
          field: 'scopes',
          in: 'body',
          code: 'invalid',
          message: 'export needs read',
        });
      }
      const name = body.name.trim();
      if (name === '')
        throw invalid({
          field: 'name',
          in: 'body',
          code: 'min_length',
          message: 'must not be blank',
        });
      const minted = mintToken('api_key');
      const key = await insertApiKey(db, {
        id: ids.uuid(),
        accountId,
        name,
        lookup: minted.lookup,
        keyHash: minted.hash,
        scopes: SCOPE_ORDER.filter((s) => scopes.includes(s)),
        createdAt: clock.now(),
      });
      return { ...apiKeyOut(key), key: minted.token };
    },
    async revoke(accountId, keyId) {
      if (!(await revokeApiKey(db, accountId, keyId, clock.now())))
        throw problem('not_found', { detail: 'No API key with that id.' });
    },
  };
}
