import { Router } from 'express';
import { validateBody } from '../http/validateBody';
import { forbidden, notFound } from '../http/errors';
import { tenantContext } from '../tenancy/tenantContext';
import { trimEmail } from '../http/trimEmail';
import { requestOrigin } from '../http/requestOrigin';
import { findUserByEmail, findUserBySsoId } from '../store/userStore';
import type { Database } from '../db/database';
import { normalizeEmail } from '../../engine/domain/fieldRules';
import { currentUser, requireUser } from './authMiddleware';
import type { AuthService } from './authService';
import { revokeSsoSessionsOfUser } from '../store/ssoSessionStore';
import { isDemoTenant } from '../../tenant/demoFlag';
import { studioRefusal } from '../studio/studioGuard';

/**
 * The sign-in calls (portal-core.md §7; the password, registration and reset paths are this
 * project's, see docs/reference.md "API"), and log-out.
 */
export function authRoutes(deps: {
  auth: AuthService;
  db: Database;
  mode: 'production' | 'development';
}): Router {
  const { auth } = deps;
  const router = Router();

  router.post('/login/magic-link', trimEmail, validateBody('magic-link-request'), async (req, res) => {
    await auth.requestMagicLink(
      tenantContext(res).tenant,
      { email: req.body.email, returnTo: req.body.returnTo },
      requestOrigin(req, res),
    );
    res.status(202).json({ status: 'sent' });
  });

  router.post('/login/token', validateBody('token-login-request'), async (req, res) => {
    res.json(await auth.loginWithToken(tenantContext(res).tenant, req.body.token, req.ip));
  });

  router.post('/login/password', trimEmail, validateBody('password-login-request'), async (req, res) => {
    res.json(await auth.loginWithPassword(tenantContext(res).tenant, req.body, requestOrigin(req, res)));
  });

  router.post('/register', trimEmail, validateBody('registration-request'), async (req, res) => {
    await auth.register(tenantContext(res).tenant, req.body, requestOrigin(req, res));
    res.status(202).json({ status: 'confirmation_sent' });
  });

  router.post('/register/confirm', validateBody('registration-confirm-request'), async (req, res) => {
    res.json(await auth.confirmRegistration(tenantContext(res).tenant, req.body, req.ip ?? 'unknown'));
  });

  router.post('/password/forgot', trimEmail, validateBody('forgot-password-request'), async (req, res) => {
    await auth.forgotPassword(tenantContext(res).tenant, { email: req.body.email }, requestOrigin(req, res));
    res.status(202).json({ status: 'sent' });
  });

  router.post('/password/reset', validateBody('password-reset-request'), async (req, res) => {
    res.json(await auth.resetPassword(tenantContext(res).tenant, req.body, req.ip ?? 'unknown'));
  });

  /** §2 "Login": the test-environment login, only when the server runs in development mode. */
  router.post('/login/dev', trimEmail, validateBody('dev-login-request'), async (req, res) => {
    if (deps.mode !== 'development')
      throw forbidden('dev_login_disabled', 'Development login is only available on a development server.');
    // It proves nothing, so it answers only on the developer's machine, as the studio does
    // (studioRefusal: a loopback peer, no proxy, a loopback Host of the server's own port, no other
    // page's origin): a development server started on a public interface, behind a proxy, or
    // reached by a page that rebound its name to 127.0.0.1 signs in no one.
    if (studioRefusal(req))
      throw forbidden(
        'dev_login_local_only',
        'Development login answers only on the machine the server runs on, at a loopback address, not through a proxy.',
      );
    const { tenant } = tenantContext(res);
    // It signs in whoever it names: a tenant that is no demo holds the publisher's subscribers (a
    // development server may run on a copy of its data), who sign in by a link or a password.
    if (!isDemoTenant(tenant))
      throw forbidden(
        'dev_login_disabled',
        'Development login signs in only on a demo tenant ("demo": true); use a login link from the outbox.',
      );
    const user = req.body.ssoId
      ? await findUserBySsoId(deps.db, tenant.id, req.body.ssoId)
      : await findUserByEmail(deps.db, tenant.id, normalizeEmail(req.body.email));
    if (!user) throw notFound('There is no account with this e-mail address or SSO id.');
    res.json(await auth.startSession(tenant, user, 'dev'));
  });

  router.post('/logout', requireUser(auth), async (_req, res) => {
    const user = currentUser(res);
    await auth.logout(tenantContext(res).tenant, user.sessionId);
    if (user.loginSource === 'kicker-auth')
      await revokeSsoSessionsOfUser(deps.db, tenantContext(res).tenant.id, user.id);
    res.status(204).end();
  });

  return router;
}
