import { Router } from 'express';
import type { Database } from '../db/database';
import { currentUser, requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { listBusinessPartnersForUser } from '../store/accountStore';
import { requestLocale } from '../tenancy/requestLocale';
import { requestTenant } from '../tenancy/tenantContext';

/**
 * GET /business-partners (the spec leaves this path unnamed, api-inventory.txt): the account's
 * business partners with the subscriptions and roles each holds (portal-core.md §2 "business-partners").
 */
export function businessPartnerRoutes(deps: { db: Database; auth: AuthService }): Router {
  const router = Router();
  router.get('/business-partners', requireUser(deps.auth), async (req, res) => {
    const tenant = requestTenant(res);
    // Product names in the screen's language.
    res.json(
      await listBusinessPartnersForUser(deps.db, tenant.id, currentUser(res).id, {
        locale: requestLocale(req, tenant),
      }),
    );
  });
  return router;
}
