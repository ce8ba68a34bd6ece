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
 * otherwise proceed anonymously, except a deleted API key: 401 api_key_revoked everywhere.
 * @module
 */
import type { OperationInfo } from '../../schema/load.js';
import type { Credentials, PresentedVia } from '../auth/credentials.js';
import { hashToken, sameHash } from '../auth/secrets.js';
import { setSessionCookies } from './cookies.js';
import type { AppContext, CredentialKind, Principal } from './context.js';
import { problem, AppError } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type Presented = { via: PresentedVia; token: string };

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
const unauthenticated = (detail: string) => problem('unauthenticated', { detail });

/** Resolves the credential (the service checks it) and slides a web session's cookies. */
async function resolve(
  ctx: AppContext,
  credentials: Credentials,
  cred: Presented,
): Promise<{ principal: Principal; csrfHash: string | null }> {
  const r = await credentials.resolve(cred.token, cred.via);
  if (r.refreshCookie) {
    // Slide the cookie's Max-Age along with the server-side expiry.
    const csrf = ctx.cookies.get('csrftoken');
    const csrfOk =
      csrf !== undefined && r.csrfHash !== null && sameHash(hashToken(csrf), r.csrfHash);
    setSessionCookies(ctx, csrfOk ? { token: cred.token, csrf } : { token: cred.token });
  }
  return r;
}

/**
 * Authenticates the request for `op` and checks its credential rules. Returns null for an
 * anonymous call of a public operation.
 */
export async function authenticate(
  ctx: AppContext,
  op: OperationInfo,
  credentials: Credentials,
): Promise<Principal | null> {
  const cred = presented(ctx);
  if (op.public) {
    if (cred === null || cred === 'malformed') return null;
    try {
      const r = await resolve(ctx, credentials, cred);
      if (
        r.principal.credential === 'web_session' &&
        !SAFE_METHODS.has(ctx.method) &&
        !csrfMatches(ctx, r.csrfHash)
      )
        return null;
      return r.principal;
    } catch (err) {
      // A deleted key is refused everywhere it is sent, so that a script learns at once that
      // its key is gone (rather than silently running anonymously); other bad credentials
      // fall back to anonymous.
      if (err instanceof AppError && err.code !== 'api_key_revoked') return null;
      throw err;
    }
  }
  if (cred === null) {
    throw unauthenticated(
      'Send an API key or session token (Authorization: Bearer …, X-Session-Token) or the sessionid cookie.',
    );
  }
  if (cred === 'malformed')
    throw unauthenticated('The Authorization header must be "Bearer <token>".');
  const { principal, csrfHash } = await resolve(ctx, credentials, cred);

  if (!op.credentials.includes(principal.credential)) {
    const names: Record<CredentialKind, string> = {
      api_key: 'an API key',
      app_session: 'the app session',
      web_session: 'the web session',
    };
    throw problem('insufficient_scope', {
      detail: `This operation cannot be used with ${names[principal.credential]}; it accepts ${op.credentials.map((c) => names[c]).join(' or ')}.`,
    });
  }
  if (principal.credential === 'api_key' && op.scope && !principal.scopes!.includes(op.scope)) {
    throw problem('insufficient_scope', { detail: `This API key lacks the ${op.scope} scope.` });
  }
  if (
    principal.credential === 'web_session' &&
    !SAFE_METHODS.has(ctx.method) &&
    !csrfMatches(ctx, csrfHash)
  ) {
    throw problem('insufficient_scope', {
      detail:
        'A web-session request with an unsafe method needs header X-CSRFToken equal to the csrftoken cookie.',
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
