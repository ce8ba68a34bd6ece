/**
 * Authentication and per-operation authorisation.
 *
 * Credentials, in order of precedence (the first one present is the one used; a bad one is
 * never skipped in favour of the next):
 * 1. `Authorization: Bearer <token>`: an API key (`wuk_…`) or an app session token (`wus_…`).
 * 2. `X-Session-Token: <token>`: an app session token.
 * 3. Cookie `sessionid` (`wuw_…`): a web session; unsafe methods also need `X-CSRFToken`.
 *
 * Outcomes (schema "Authentication"):
 * - none, malformed, unknown or of the wrong kind for where it was sent: 401 unauthenticated;
 * - a deleted key: 401 api_key_revoked; an ended or idle-expired session: 401 session_expired;
 * - a credential kind the operation does not list in `x-credentials`, an API key without the
 *   operation's `x-scope`, or a web session without a matching X-CSRFToken on an unsafe
 *   method: 403 insufficient_scope.
 * Public operations take credentials when they are good (GET /time uses the home zone) and
 * otherwise proceed anonymously.
 * @module
 */
import type { OperationInfo } from '../../schema/load.js';
import type { AppDeps } from '../deps.js';
import { findAccountById } from '../db/accounts.js';
import { findApiKeyByLookup, touchApiKey } from '../db/api-keys.js';
import { endSession, findSessionByLookup, touchSession } from '../db/sessions.js';
import { touchDeviceOfInstallation } from '../db/devices.js';
import { hashToken, parseToken, sameHash } from '../auth/secrets.js';
import { APP_SESSION_IDLE_MS, WEB_COOKIE_REFRESH_MS, WEB_SESSION_IDLE_MS } from '../auth/policy.js';
import { setSessionCookies } from '../auth/cookies.js';
import type { AppContext, CredentialKind, Principal } from './context.js';
import { problem, AppError } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type Presented = { via: 'bearer' | 'session_header' | 'cookie'; token: string };

/** Finds the credential the request presents, if any. */
function presented(ctx: AppContext): Presented | null | 'malformed' {
  const authorization = ctx.get('Authorization');
  if (authorization) {
    const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    return m ? { via: 'bearer', token: m[1]! } : 'malformed';
  }
  const header = ctx.get('X-Session-Token');
  if (header) return { via: 'session_header', token: header.trim() };
  const cookie = ctx.cookies.get('sessionid');
  if (cookie) return { via: 'cookie', token: cookie };
  return null;
}

/** A resolved credential: the principal and, for a web session, its CSRF token hash. */
interface Resolved {
  principal: Principal;
  csrfHash: string | null;
}

const unauthenticated = (detail: string) => problem('unauthenticated', { detail });

/** Resolves the presented credential to a principal, or throws a 401 problem. */
function resolve(ctx: AppContext, deps: AppDeps, cred: Presented): Resolved {
  const { db, clock } = deps;
  const parsed = parseToken(cred.token);
  const allowed: Record<Presented['via'], CredentialKind[]> = {
    bearer: ['api_key', 'app_session'],
    session_header: ['app_session'],
    cookie: ['web_session'],
  };
  if (!parsed || !allowed[cred.via].includes(parsed.kind)) {
    throw unauthenticated('The credentials are not a valid API key or session token for where they were sent.');
  }
  const now = clock.now();
  const hash = hashToken(cred.token);

  if (parsed.kind === 'api_key') {
    const key = findApiKeyByLookup(db, parsed.lookup);
    if (!key || !sameHash(hash, key.keyHash)) throw unauthenticated('Unknown API key.');
    if (key.revokedAt !== null) throw problem('api_key_revoked', { detail: 'This API key was deleted.' });
    if (!findAccountById(db, key.accountId)) throw unauthenticated('The account of this API key no longer exists.');
    touchApiKey(db, key.id, now);
    return {
      principal: { accountId: key.accountId, credential: 'api_key', apiKeyId: key.id, scopes: key.scopes, sessionId: null },
      csrfHash: null,
    };
  }

  const session = findSessionByLookup(db, parsed.lookup);
  const kind = parsed.kind === 'app_session' ? 'app' : 'web';
  if (!session || session.kind !== kind || !sameHash(hash, session.tokenHash)) throw unauthenticated('Unknown session token.');
  if (session.endedAt !== null)
    throw problem('session_expired', { detail: 'This session ended (signed out or its device was removed). Sign in again.' });
  const idle = kind === 'app' ? APP_SESSION_IDLE_MS : WEB_SESSION_IDLE_MS;
  if (now - session.lastUsedAt > idle) {
    endSession(db, session.id, 'expired', now);
    throw problem('session_expired', { detail: `This session expired after ${idle / 86_400_000} days without use. Sign in again.` });
  }
  if (!findAccountById(db, session.accountId)) throw unauthenticated('The account of this session no longer exists.');
  if (now !== session.lastUsedAt) touchSession(db, session.id, now);
  // A session bound to an app install: its device was seen now (last_seen_at).
  if (session.installationId !== null) touchDeviceOfInstallation(db, session.accountId, session.installationId, now);
  if (kind === 'web' && now - session.lastUsedAt >= WEB_COOKIE_REFRESH_MS) {
    // Slide the cookie's Max-Age along with the server-side expiry.
    const csrf = ctx.cookies.get('csrftoken');
    const csrfOk = csrf !== undefined && session.csrfHash !== null && sameHash(hashToken(csrf), session.csrfHash);
    setSessionCookies(ctx, csrfOk ? { token: cred.token, csrf } : { token: cred.token });
  }
  return {
    principal: {
      accountId: session.accountId,
      credential: kind === 'app' ? 'app_session' : 'web_session',
      apiKeyId: null,
      scopes: null,
      sessionId: session.id,
    },
    csrfHash: session.csrfHash,
  };
}

/**
 * Authenticates the request for `op` and checks its credential rules. Returns null for an
 * anonymous call of a public operation.
 */
export function authenticate(ctx: AppContext, op: OperationInfo, deps: AppDeps): Principal | null {
  const cred = presented(ctx);
  if (op.public) {
    if (cred === null || cred === 'malformed') return null;
    try {
      const r = resolve(ctx, deps, cred);
      if (r.principal.credential === 'web_session' && !SAFE_METHODS.has(ctx.method) && !csrfMatches(ctx, r.csrfHash)) return null;
      return r.principal;
    } catch (err) {
      if (err instanceof AppError) return null;
      throw err;
    }
  }
  if (cred === null) {
    throw unauthenticated('Send an API key or session token (Authorization: Bearer …, X-Session-Token) or the sessionid cookie.');
  }
  if (cred === 'malformed') throw unauthenticated('The Authorization header must be "Bearer <token>".');
  const { principal, csrfHash } = resolve(ctx, deps, cred);

  if (!op.credentials.includes(principal.credential)) {
    const names: Record<CredentialKind, string> = { api_key: 'an API key', app_session: 'the app session', web_session: 'the web session' };
    throw problem('insufficient_scope', {
      detail: `This operation cannot be used with ${names[principal.credential]}; it accepts ${op.credentials.map((c) => names[c]).join(' or ')}.`,
    });
  }
  if (principal.credential === 'api_key' && op.scope && !principal.scopes!.includes(op.scope)) {
    throw problem('insufficient_scope', { detail: `This API key lacks the ${op.scope} scope.` });
  }
  if (principal.credential === 'web_session' && !SAFE_METHODS.has(ctx.method) && !csrfMatches(ctx, csrfHash)) {
    throw problem('insufficient_scope', {
      detail: 'A web-session request with an unsafe method needs header X-CSRFToken equal to the csrftoken cookie.',
      field: 'X-CSRFToken',
    });
  }
  return principal;
}

/** Whether X-CSRFToken matches the session's CSRF token (compared by hash, constant time). */
function csrfMatches(ctx: AppContext, stored: string | null): boolean {
  const header = ctx.get('X-CSRFToken');
  return header !== '' && stored !== null && sameHash(hashToken(header), stored);
}
