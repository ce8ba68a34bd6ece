/**
 * Web sessions made outside the sign-in form: the one-time web checkout link signs the
 * browser that follows it into the account (spec Billing rule 4). Same tokens, hashes and
 * cookies as a `client: web` sign-in.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { EpochMs, Ids } from '../../engine/index.js';
import { findSessionByLookup, insertSession } from '../db/sessions.js';
import { hashToken, mintCsrfToken, mintToken, parseToken, sameHash } from './secrets.js';
import { WEB_SESSION_IDLE_MS } from './policy.js';

/** Starts a web session for the account; returns the cookie values (shown once). */
export async function startWebSession(
  db: Db,
  ids: Ids,
  accountId: string,
  now: EpochMs,
): Promise<{ token: string; csrf: string }> {
  const minted = mintToken('web_session');
  const csrf = mintCsrfToken();
  await insertSession(
    db,
    {
      id: ids.uuid(),
      accountId,
      kind: 'web',
      lookup: minted.lookup,
      tokenHash: minted.hash,
      csrfHash: hashToken(csrf),
      installationId: null,
    },
    now,
  );
  return { token: minted.token, csrf };
}

/** The account of a live web session cookie value, or null (read-only: pages that only show). */
export async function webSessionAccountId(
  db: Db,
  cookie: string | undefined,
  now: EpochMs,
): Promise<string | null> {
  if (!cookie) return null;
  const parsed = parseToken(cookie);
  if (!parsed || parsed.kind !== 'web_session') return null;
  const s = await findSessionByLookup(db, parsed.lookup);
  if (!s || s.kind !== 'web' || s.endedAt !== null || now - s.lastUsedAt > WEB_SESSION_IDLE_MS)
    return null;
  return sameHash(hashToken(cookie), s.tokenHash) ? s.accountId : null;
}
