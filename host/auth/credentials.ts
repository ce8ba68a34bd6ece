/**
 * Credential checks: an API key or session token (as presented over HTTP) to the
 * {@link Principal} it stands for. Records use (`last_used_at`) and ends an idle session. The
 * HTTP pipeline (`http/auth.ts`) finds the token in the request, checks scopes and CSRF, and
 * slides the web cookies; this module owns the database side.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock } from '../../engine/index.js';
import { findApiKeyWithAccount, touchApiKey } from '../db/api-keys.js';
import { endSession, findSessionWithAccount, touchSession } from '../db/sessions.js';
import { touchDeviceOfInstallation } from '../db/devices.js';
import { problem } from '../errors.js';
import { APP_SESSION_IDLE_MS, WEB_COOKIE_REFRESH_MS, WEB_SESSION_IDLE_MS } from './policy.js';

/** A session's last use is recorded when it is at least this old (so idle expiry is exact to a minute). */
const SESSION_TOUCH_INTERVAL_MS = 60_000;
import type { CredentialKind, Principal } from './principal.js';
import { hashToken, parseToken, sameHash } from './secrets.js';

/** Where the token was found: which kinds of credential may be sent there. */
export type PresentedVia = 'bearer' | 'session_header' | 'cookie';

/** A credential that checked out. */
export interface Resolved {
  principal: Principal;
  /** Web sessions: the hash of the session's CSRF token. */
  csrfHash: string | null;
  /** Web sessions: the cookie's Max-Age should slide along with the server-side expiry. */
  refreshCookie: boolean;
}

/** The credential service. */
export interface Credentials {
  /** Resolves a token; throws unauthenticated, api_key_revoked or session_expired. */
  resolve(token: string, via: PresentedVia): Promise<Resolved>;
}

const ALLOWED: Record<PresentedVia, CredentialKind[]> = {
  bearer: ['api_key', 'app_session'],
  session_header: ['app_session'],
  cookie: ['web_session'],
};

const unauthenticated = (detail: string) => problem('unauthenticated', { detail });

/** Creates the credential service on the database. */
export function createCredentials(deps: { db: Db; clock: Clock }): Credentials {
  const { db, clock } = deps;
  return {
    async resolve(token, via) {
      const parsed = parseToken(token);
      if (!parsed || !ALLOWED[via].includes(parsed.kind)) {
        throw unauthenticated(
          'The credentials are not a valid API key or session token for where they were sent.',
        );
      }
      const now = clock.now();
      const hash = hashToken(token);

      if (parsed.kind === 'api_key') {
        // The key and its account in one statement, every request: nothing kept between
        // requests, so a key revoked (or an account deleted) on any host is refused at once.
        const found = await findApiKeyWithAccount(db, parsed.lookup);
        const key = found?.key;
        if (!key || !sameHash(hash, key.keyHash)) throw unauthenticated('Unknown API key.');
        if (key.revokedAt !== null)
          throw problem('api_key_revoked', { detail: 'This API key was deleted.' });
        const account = found.account;
        if (!account) throw unauthenticated('The account of this API key no longer exists.');
        await touchApiKey(db, key.id, now);
        return {
          principal: {
            accountId: key.accountId,
            credential: 'api_key',
            apiKeyId: key.id,
            scopes: key.scopes,
            sessionId: null,
            account,
          },
          csrfHash: null,
          refreshCookie: false,
        };
      }

      // The session and its account in one statement, every request (as for keys above).
      const found = await findSessionWithAccount(db, parsed.lookup);
      const session = found?.session;
      const kind = parsed.kind === 'app_session' ? 'app' : 'web';
      if (!session || session.kind !== kind || !sameHash(hash, session.tokenHash))
        throw unauthenticated('Unknown session token.');
      if (session.endedAt !== null)
        throw problem('session_expired', {
          detail: 'This session ended (signed out or its device was removed). Sign in again.',
        });
      const idle = kind === 'app' ? APP_SESSION_IDLE_MS : WEB_SESSION_IDLE_MS;
      if (now - session.lastUsedAt > idle) {
        await endSession(db, session.id, 'expired', now);
        throw problem('session_expired', {
          detail: `This session expired after ${idle / 86_400_000} days without use. Sign in again.`,
        });
      }
      const account = found.account;
      if (!account) throw unauthenticated('The account of this session no longer exists.');
      // At most one write a minute per session: idle expiry (14 or 90 days) needs no finer
      // clock, and a write on every request was the largest cost of an authenticated GET.
      if (now - session.lastUsedAt >= SESSION_TOUCH_INTERVAL_MS)
        await touchSession(db, session.id, now);
      // A session bound to an app install: its device was seen now (last_seen_at).
      if (session.installationId !== null)
        await touchDeviceOfInstallation(db, session.accountId, session.installationId, now);
      return {
        principal: {
          accountId: session.accountId,
          credential: kind === 'app' ? 'app_session' : 'web_session',
          apiKeyId: null,
          scopes: null,
          sessionId: session.id,
          account,
        },
        csrfHash: session.csrfHash,
        refreshCookie: kind === 'web' && now - session.lastUsedAt >= WEB_COOKIE_REFRESH_MS,
      };
    },
  };
}
