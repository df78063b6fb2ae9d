import { Router } from 'express';
import type { Database } from '../db/database';
import { currentUser, requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { notFound } from '../http/errors';
import { tenantContext } from '../tenancy/tenantContext';
import { getSubscriptionForUser, listSubscriptionsForUser } from '../store/subscriptionStore';
import { requestLocale } from '../tenancy/requestLocale';

/**
 * GET /subscriptions and /subscriptions/{id} (portal-core.md §7): only the signed-in user's
 * subscriptions of the request's tenant; a subscription not linked to the user is a 404.
 */
export function subscriptionRoutes(deps: { db: Database; auth: AuthService }): Router {
  const router = Router();
  router.use('/subscriptions', requireUser(deps.auth));

  router.get('/subscriptions', async (req, res) => {
    const { tenant } = tenantContext(res);
    const user = currentUser(res);
    // In the screen's language (issue 14, finding 4).
    const subscriptions = await listSubscriptionsForUser(deps.db, tenant.id, user.id, { locale: requestLocale(req, tenant) });
    // A partial login sees the one subscription it was opened for (§4).
    res.json(user.subscriptionId ? subscriptions.filter((s) => s.id === user.subscriptionId) : subscriptions);
  });

  router.get('/subscriptions/:id', async (req, res) => {
    const { tenant } = tenantContext(res);
    const subscription = await getSubscriptionForUser(deps.db, tenant.id, currentUser(res).id, String(req.params.id), { locale: requestLocale(req, tenant) });
    if (!subscription) throw notFound('There is no such subscription on your account.');
    res.json(subscription);
  });

  return router;
}
