import { Router } from 'express';
import { validateBody } from '../http/validateBody';
import { tenantContext } from '../tenancy/tenantContext';
import { currentUser, requireUser } from './authMiddleware';
import type { AuthService } from './authService';

/** The login calls of portal-core.md §7 handled so far, and log-out. */
export function authRoutes(auth: AuthService): Router {
  const router = Router();

  router.post('/login/magic-link', validateBody('magic-link-request'), async (req, res) => {
    const { tenant, basePath } = tenantContext(res);
    const portalUrl = `${req.protocol}://${req.headers.host}${basePath}`;
    await auth.requestMagicLink(tenant, { email: req.body.email, locale: req.body.locale, portalUrl });
    res.status(202).json({ status: 'sent' });
  });

  router.post('/login/token', validateBody('token-login-request'), async (req, res) => {
    const { tenant } = tenantContext(res);
    res.json(await auth.loginWithToken(tenant, req.body.token));
  });

  router.post('/logout', requireUser(auth), async (_req, res) => {
    const { tenant } = tenantContext(res);
    await auth.logout(tenant, currentUser(res).sessionId);
    res.status(204).end();
  });

  return router;
}
