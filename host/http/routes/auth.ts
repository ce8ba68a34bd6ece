/**
 * Sign-in routes (contract §2): POST /auth/email/start, /auth/email/verify, /auth/logout.
 * @module
 */
import type { AppServices } from '../../services.js';
import { clearSessionCookies, setSessionCookies } from '../cookies.js';
import { requirePrincipal } from '../context.js';
import { invalid } from '../../errors.js';
import type { Routes } from '../registrar.js';

import type {
  CodeSentOut,
  EmailStartIn,
  EmailVerifyIn,
  SignInOut,
} from '../../generated/openapi.js';

/** Registers the sign-in operations. */
export function register(routes: Routes, services: AppServices): void {
  const { signIn } = services;

  routes.operation<EmailStartIn>('startEmailSignIn', async ({ body, ctx }) => {
    const out: CodeSentOut = await signIn.start(body.email, ctx.state.client);
    return { status: 202, body: out };
  });

  routes.operation<EmailVerifyIn>('verifyEmailSignIn', async ({ body, ctx }) => {
    const installationId = body.installation_id ?? null;
    if (installationId !== null && body.client !== 'app') {
      throw invalid({
        field: 'installation_id',
        in: 'body',
        code: 'invalid',
        message: 'is for client app only',
      });
    }
    const result = await signIn.verify({
      email: body.email,
      code: body.code,
      client: body.client,
      installationId,
      clientAddress: ctx.state.client,
    });
    const out: SignInOut = {
      account: await services.account.present(result.account),
      created: result.created,
    };
    if (body.client === 'app') {
      out.session_token = result.sessionToken;
    } else {
      setSessionCookies(ctx, { token: result.sessionToken, csrf: result.csrfToken! });
      out.csrf_token = result.csrfToken!;
    }
    return { status: 200, body: out, secretFields: ['session_token', 'csrf_token'] };
  });

  routes.operation('logout', async ({ principal, ctx }) => {
    const p = requirePrincipal(principal);
    await signIn.logout(p.sessionId!);
    if (p.credential === 'web_session') clearSessionCookies(ctx);
    return { status: 204 };
  });
}
