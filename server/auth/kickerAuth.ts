import { Router } from 'express';
import type { Database } from '../db/database';
import { unauthorized } from '../http/errors';
import { validateBody } from '../http/validateBody';
import { tenantCookie } from '../http/cookies';
import { requestTenant, tenantContext, type ServerTenant } from '../tenancy/tenantContext';
import { getUserById } from '../store/userStore';
import { findLiveSsoSessionUser, insertSsoSession } from '../store/ssoSessionStore';
import type { ApiSlice } from '../tenancy/apiSlice';
import type { AuthService } from './authService';
import { requestOrigin } from '../http/requestOrigin';
import { trimEmail } from '../http/trimEmail';
import { hashToken, newSecretToken } from './tokens';

const SSO_SESSION_DAYS = 30;

export function kickerCookieName(tenant: ServerTenant): string {
  return tenant.login.kickerAuth?.cookieName ?? 'kickeruser';
}

/**
 * The kicker-auth family (portal-core.md §7): the publisher's single sign-on keeps its session in
 * the `kickeruser` cookie, whose `ssoid` part names an SSO session. Here the server plays that SSO:
 * /kicker-auth/login checks e-mail and password and opens an SSO session (a random token, stored
 * hashed) that it puts in the cookie; /kicker-auth/get-user turns the cookie's ssoid into a portal
 * session. Register and forgot-password answer with a message (errors use `detail`, §8). Only while
 * the tenant has the kicker-auth feature (gated where the slice is mounted).
 */
export function kickerAuthSlice(deps: { db: Database; auth: AuthService; now: () => Date }): ApiSlice {
  const router = Router();

  router.post('/kicker-auth/login', trimEmail, validateBody('password-login-request'), async (req, res) => {
    const tenant = requestTenant(res);
    const login = await deps.auth.loginWithPassword(tenant, req.body, requestOrigin(req, res), 'kicker-auth');
    const ssoId = newSecretToken();
    const expiresAt = new Date(deps.now().getTime() + SSO_SESSION_DAYS * 86_400_000);
    await insertSsoSession(deps.db, tenant.id, {
      tokenHash: hashToken(ssoId),
      userId: login.user.id,
      expiresAt,
    });
    // Scoped to this portal's base path: on a shared host another tenant never receives it.
    // Readable by the page, not HttpOnly: the page reads its ssoid and posts it to /get-user, logs a
    // console message when it is missing and expires it at log-out (portal-core.md §7, §8, §4), as
    // it must with the cookie of the publisher's own sign-on, which this server only plays. What
    // guards it is docs/architecture.md "Sign-in safety" (the kickeruser cookie): the CSP, the path, Lax,
    // Secure.
    res.append(
      'Set-Cookie',
      tenantCookie(kickerCookieName(tenant), `ssoid=${ssoId}`, {
        basePath: tenantContext(res).basePath,
        secure: req.secure,
        expires: expiresAt,
        sameSite: 'Lax',
      }),
    );
    // The SSO id travels only in the cookie, never in the body that the tab keeps in sessionStorage.
    res.json(login);
  });

  router.post('/kicker-auth/get-user', validateBody('kicker-get-user-request'), async (req, res) => {
    const tenant = tenantContext(res).tenant;
    // An SSO id that opens nothing counts against the client, as a refused link's token does.
    const user = await deps.auth.spendingToken(tenant, requestOrigin(req, res).client, async () => {
      const userId = await findLiveSsoSessionUser(deps.db, tenant.id, hashToken(req.body.ssoId), deps.now());
      const found = userId && (await getUserById(deps.db, tenant.id, userId));
      if (!found)
        throw unauthorized(
          'invalid_sso_session',
          'The sign-on session is not valid any more. Please log in again.',
        );
      return found;
    });
    res.json(await deps.auth.startSession(tenant, user, 'kicker-auth'));
  });

  router.post('/kicker-auth/register', trimEmail, validateBody('registration-request'), async (req, res) => {
    await deps.auth.register(tenantContext(res).tenant, req.body, requestOrigin(req, res));
    res.status(202).json({ message: 'confirmation_sent' });
  });

  router.post(
    '/kicker-auth/forgotpw',
    trimEmail,
    validateBody('forgot-password-request'),
    async (req, res) => {
      await deps.auth.forgotPassword(
        tenantContext(res).tenant,
        { email: req.body.email },
        requestOrigin(req, res),
      );
      res.status(202).json({ message: 'reset_sent' });
    },
  );

  return { flag: 'kicker-auth', router };
}
