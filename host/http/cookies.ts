/**
 * Web session cookies: `sessionid` (HttpOnly) and `csrftoken` (readable by the page's script,
 * which echoes it in X-CSRFToken). Both SameSite=Lax, Path=/, Secure over https.
 * @module
 */
import type { AppContext } from './context.js';
import { WEB_SESSION_IDLE_MS } from '../auth/policy.js';

/** Sets both cookies for a new (or refreshed) web session. */
export function setSessionCookies(
  ctx: AppContext,
  session: { token: string; csrf?: string },
): void {
  const common = {
    path: '/',
    sameSite: 'lax' as const,
    secure: ctx.secure,
    maxAge: WEB_SESSION_IDLE_MS,
    overwrite: true,
  };
  ctx.cookies.set('sessionid', session.token, { ...common, httpOnly: true });
  if (session.csrf !== undefined)
    ctx.cookies.set('csrftoken', session.csrf, { ...common, httpOnly: false });
}

/** Expires both cookies (logout). */
export function clearSessionCookies(ctx: AppContext): void {
  const common = {
    path: '/',
    sameSite: 'lax' as const,
    secure: ctx.secure,
    maxAge: 0,
    overwrite: true,
  };
  ctx.cookies.set('sessionid', '', { ...common, httpOnly: true });
  ctx.cookies.set('csrftoken', '', { ...common, httpOnly: false });
}
